using Microsoft.Extensions.Options;

namespace Ingest.Core.Forwarding;

/// <summary>Creates the <see cref="IBackEndClientSource"/> and the <see cref="IBackEndSender"/> a <see cref="ClientStrategy"/> names.</summary>
public static class BackEndClientSources
{
    public static IBackEndClientSource Create(ClientStrategy strategy, BackEndHandlerFactory handlers, IServiceProvider services) => strategy switch
    {
        ClientStrategy.PerRequest => new PerRequestClientSource(handlers, blocking: false),
        ClientStrategy.PerRequestBlocking => new PerRequestClientSource(handlers, blocking: true),
        ClientStrategy.Static => new StaticClientSource(handlers),
        ClientStrategy.Factory => new FactoryClientSource(services),
        ClientStrategy.Loop => new LoopClientSource(handlers, services.GetService(typeof(IForwardLoops)) as IForwardLoops
            ?? throw new InvalidOperationException(ForwardingOptionsValidator.LoopNeedsOwnTransport(ClientStrategy.Loop))),
        ClientStrategy.LoopDirect => throw new ArgumentOutOfRangeException(nameof(strategy), strategy, "LoopDirect forwards with its own HTTP/1.1 client, not an HttpClient."),
        _ => throw new ArgumentOutOfRangeException(nameof(strategy), strategy, "Unknown client strategy."),
    };

    /// <summary>The <see cref="IBackEndSender"/> of <paramref name="strategy"/>: HttpClient's strategies send over the
    /// <see cref="IBackEndClientSource"/> they name, <see cref="ClientStrategy.LoopDirect"/> with its own client.</summary>
    public static IBackEndSender CreateSender(ClientStrategy strategy, IServiceProvider services)
    {
        var options = ((IOptions<ForwardingOptions>)services.GetService(typeof(IOptions<ForwardingOptions>))!).Value;
        var resilience = (BackEndResilience)services.GetService(typeof(BackEndResilience))!;
        var security = services.GetService(typeof(IOptions<Security.SecurityOptions>)) as IOptions<Security.SecurityOptions>;
        var sharedKey = security?.Value.SharedKey is { Length: > 0 } key ? key : null;
        return strategy == ClientStrategy.LoopDirect
            ? new Direct.LoopDirectSender(
                resilience,
                (BackEndHandlerFactory)services.GetService(typeof(BackEndHandlerFactory))!,
                services.GetService(typeof(IForwardLoops)) as IForwardLoops ?? throw new InvalidOperationException(ForwardingOptionsValidator.LoopNeedsOwnTransport(strategy)),
                options,
                sharedKey)
            : new HttpClientSender((IBackEndClientSource)services.GetService(typeof(IBackEndClientSource))!, resilience, options, sharedKey);
    }
}
