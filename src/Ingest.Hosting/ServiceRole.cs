namespace Ingest.Hosting;

/// <summary>Which of the two services a process is.</summary>
public enum ServiceRole
{
    /// <summary>Takes <c>POST /ingest/event</c> from clients and forwards to back-ends.</summary>
    FrontEnd,

    /// <summary>Takes <c>POST /ingest/data</c> from front-ends and persists to sinks.</summary>
    BackEnd,
}
