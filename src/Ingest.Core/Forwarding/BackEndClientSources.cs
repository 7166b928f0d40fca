namespace Ingest.Core.Forwarding;

/// <summary>Creates the <see cref="IBackEndClientSource"/> a <see cref="ClientStrategy"/> names.</summary>
public static class BackEndClientSources
{
    public static IBackEndClientSource Create(ClientStrategy strategy, BackEndHandlerFactory handlers, IServiceProvider services) => strategy switch
    {
        ClientStrategy.PerRequest => new PerRequestClientSource(handlers, blocking: false),
        ClientStrategy.PerRequestBlocking => new PerRequestClientSource(handlers, blocking: true),
        ClientStrategy.Static => new StaticClientSource(handlers),
        ClientStrategy.Factory => new FactoryClientSource(services),
        ClientStrategy.Loop => new LoopClientSource(handlers, services.GetService(typeof(IForwardLoops)) as IForwardLoops
            ?? throw new InvalidOperationException(ForwardingOptionsValidator.LoopNeedsOwnTransport)),
        _ => throw new ArgumentOutOfRangeException(nameof(strategy), strategy, "Unknown client strategy."),
    };
}
