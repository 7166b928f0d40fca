namespace Ingest.Lab.Running;

/// <summary>The two roles of the flow.</summary>
internal enum ServiceRole
{
    FrontEnd,
    BackEnd,
}
