using System.Diagnostics.CodeAnalysis;
using Ingest.Transports.Internal.Adapters;
using Ingest.Transports.Internal.Core;
using Ingest.Transports.Internal.Epoll;
using Ingest.Transports.Internal.IoUring;
using Ingest.Transports.Internal.Libuv;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;

namespace Ingest.Transports.Internal;

/// <summary>The one place that maps a <see cref="TransportKind"/> to its backend and settings.</summary>
internal static class TransportBackends
{
    public static TransportBackend Create(TransportKind kind, IServiceProvider services) => kind switch
    {
        TransportKind.LinuxEpoll => new EpollBackend(Options<LinuxEpollOptions>(services) is { } epoll && (epoll.AioReceive || epoll.AioSend)),
        TransportKind.IoUring => new IoUringBackend(),
        TransportKind.Libuv => new LibuvBackend(),
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Sockets is Kestrel's own transport, not a backend."),
    };

    public static TransportSettings Settings(TransportKind kind, IServiceProvider services) => kind switch
    {
        TransportKind.LinuxEpoll => TransportSettings.From(Options<LinuxEpollOptions>(services)),
        TransportKind.IoUring => TransportSettings.From(Options<IoUringOptions>(services)),
        TransportKind.Libuv => TransportSettings.From(Options<LibuvOptions>(services)),
        _ => throw new ArgumentOutOfRangeException(nameof(kind), kind, "Sockets is Kestrel's own transport, not a backend."),
    };

    /// <summary>One line describing <paramref name="kind"/> (not Sockets) with its effective settings.</summary>
    public static string Describe(TransportKind kind, IServiceProvider services) =>
        TransportAdapters.IsAdapted(kind) ? TransportAdapters.Required(kind).Describe(services) : Describe(Settings(kind, services));

    /// <summary>One line describing the effective settings, for the start-up log and results.</summary>
    public static string Describe(TransportSettings settings)
    {
        var common = DescribeThreads(settings.ThreadCount, settings.ApplicationSchedulingMode);
        return settings.Kind switch
        {
            TransportKind.LinuxEpoll =>
                $"LinuxEpoll ({common}, edge-triggered, AIO receive {OnOff(settings.AioReceive)}, AIO send {OnOff(settings.AioSend)}, deferred send {OnOff(settings.DeferSend)})",
            TransportKind.IoUring =>
                $"IoUring ({common}, {settings.RingEntries} ring entries, task run {(settings.DeferTaskRun && IoUringRing.CanDeferTaskRun ? "deferred" : "cooperative")})",
            _ => $"{settings.Kind} ({common})",
        };
    }

    /// <summary>The part of a description every event-loop transport shares: threads and where the application runs.</summary>
    public static string DescribeThreads(int threadCount, ApplicationSchedulingMode mode) =>
        $"{threadCount} threads, application on the {(mode == ApplicationSchedulingMode.Inline ? "transport thread" : "thread pool")}";

    public static string OnOff(bool value) => value ? "on" : "off";

    private static T Options<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicParameterlessConstructor)] T>(IServiceProvider services)
        where T : class => services.GetRequiredService<IOptions<T>>().Value;
}
