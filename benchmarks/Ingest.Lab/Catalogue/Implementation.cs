namespace Ingest.Lab.Catalogue;

/// <summary>Which program plays a service's role.</summary>
internal enum Implementation
{
    /// <summary>Ingest.FrontEnd / Ingest.BackEnd, configured by <see cref="ServiceSpec.Settings"/>.</summary>
    DotNet,

    /// <summary>The Go net/http baseline (front-end or back-end).</summary>
    GoNetHttp,

    /// <summary>The Go fasthttp baseline (front-end or back-end).</summary>
    GoFastHttp,

    /// <summary>The Rust baseline on hyper and tokio (front-end or back-end).</summary>
    RustHyper,

    /// <summary>
    /// The floor: nginx doing two HTTP exchanges and no JSON work — as a front-end it proxies each request to the
    /// back-end's <c>/ingest/data</c> and returns its answer; as a back-end it reads the body and answers 200 with a
    /// fixed body. It counts nothing, so a floor row has no loss check.
    /// </summary>
    Nginx,
}
