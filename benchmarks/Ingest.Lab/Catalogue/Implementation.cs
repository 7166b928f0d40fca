namespace Ingest.Lab.Catalogue;

/// <summary>Which program plays a service's role.</summary>
internal enum Implementation
{
    /// <summary>Ingest.FrontEnd / Ingest.BackEnd, configured by <see cref="ServiceSpec.Settings"/>.</summary>
    DotNet,

    /// <summary>The Go net/http baseline (front-end or back-end).</summary>
    GoNetHttp,

    /// <summary>The Go fasthttp front-end.</summary>
    GoFastHttp,
}
