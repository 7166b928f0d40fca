using Ingest.Core.Forwarding.Direct;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Forwarding;

/// <summary>What a <see cref="ClientStrategy"/> needs from its host, and the sender it makes.</summary>
public static class ClientStrategies
{
    /// <summary>Whether the strategy forwards over connections the server transport's loops own.</summary>
    public static bool NeedsLoops(this ClientStrategy strategy) => strategy is ClientStrategy.LoopDirect;

    /// <summary>The forward's <see cref="IBackEndSender"/> for <paramref name="strategy"/>, from the front-end's services:
    /// HttpClient's strategies send over the clients their <see cref="IBackEndClientSource"/> hands out,
    /// <see cref="ClientStrategy.LoopDirect"/> with its own client on the transport's loops. The sender owns what it
    /// creates; the container disposes it with the host.</summary>
    public static IBackEndSender CreateSender(this ClientStrategy strategy, IServiceProvider services)
    {
        var options = services.GetRequiredService<IOptions<ForwardingOptions>>().Value;
        var resilience = services.GetRequiredService<BackEndResilience>();
        var handlers = services.GetRequiredService<BackEndHandlerFactory>();
        // A host without the security options forwards without the shared key, as one whose key is empty does.
        var sharedKey = services.GetService<IOptions<Security.SecurityOptions>>()?.Value.SharedKey is { Length: > 0 } key ? key : null;
        return strategy switch
        {
            // The same clients for both: BackEndForwarder is what blocks on .Result for PerRequestBlocking.
            ClientStrategy.PerRequest or ClientStrategy.PerRequestBlocking => Over(new PerRequestClientSource(handlers)),
            ClientStrategy.Static => Over(new StaticClientSource(handlers)),
            ClientStrategy.Factory => Over(new FactoryClientSource(services)),
            ClientStrategy.LoopDirect => new LoopDirectSender(resilience, handlers, services.GetRequiredService<IForwardLoops>(), options, sharedKey),
            // Only an undefined number gets here, and ForwardingOptionsValidator refuses it at start-up.
            _ => throw new ArgumentOutOfRangeException(nameof(strategy), strategy, "Not a Forwarding:ClientStrategy."),
        };

        IBackEndSender Over(IBackEndClientSource clients) => new HttpClientSender(clients, resilience, options, sharedKey);
    }
}
