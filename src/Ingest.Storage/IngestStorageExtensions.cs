using Ingest.Core.Diagnostics;
using Ingest.Core.Sinks;
using Ingest.Storage.Internal;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Ingest.Storage;

/// <summary>The back-end's stores: the <see cref="SinkKind.File"/>, <see cref="SinkKind.PostgreSql"/> and
/// <see cref="SinkKind.Redis"/> sinks, their options, and their start-up work.</summary>
public static class IngestStorageExtensions
{
    /// <summary>
    /// Registers each store as a keyed <see cref="IEventSink"/> (key: its <see cref="SinkKind"/>) for the
    /// back-end's <see cref="SinkRouter"/>, which creates only the ones a type is configured to use. Options come
    /// from <c>Sinks:File</c>, <c>Sinks:PostgreSql</c> and <c>Sinks:Redis</c>, validated at start-up when used.
    /// </summary>
    public static TBuilder AddIngestStorage<TBuilder>(this TBuilder builder)
        where TBuilder : IHostApplicationBuilder
    {
        var services = builder.Services;
        services.AddOptions<PostgreSqlSinkOptions>().BindConfiguration(PostgreSqlSinkOptions.SectionName).ValidateOnStart();
        services.AddOptions<RedisSinkOptions>().BindConfiguration(RedisSinkOptions.SectionName).ValidateOnStart();
        services.AddOptions<FileSinkOptions>().BindConfiguration(FileSinkOptions.SectionName).ValidateOnStart();
        services.AddSingleton<StorageOptionsValidator>();
        services.AddSingleton<IValidateOptions<PostgreSqlSinkOptions>>(static sp => sp.GetRequiredService<StorageOptionsValidator>());
        services.AddSingleton<IValidateOptions<RedisSinkOptions>>(static sp => sp.GetRequiredService<StorageOptionsValidator>());
        services.AddSingleton<IValidateOptions<FileSinkOptions>>(static sp => sp.GetRequiredService<StorageOptionsValidator>());

        services.AddKeyedSingleton<IEventSink>(SinkKind.PostgreSql, static (sp, _) =>
            new PostgreSqlSink(sp.GetRequiredService<IOptions<PostgreSqlSinkOptions>>().Value, sp.GetService<IngestMetrics>(), sp.GetRequiredService<ILoggerFactory>()));
        services.AddKeyedSingleton<IEventSink>(SinkKind.Redis, static (sp, _) =>
            new RedisSink(sp.GetRequiredService<IOptions<RedisSinkOptions>>().Value, sp.GetService<IngestMetrics>(), sp.GetRequiredService<ILoggerFactory>()));
        services.AddKeyedSingleton<IEventSink>(SinkKind.File, static (sp, _) =>
            new FileSink(sp.GetRequiredService<IOptions<FileSinkOptions>>().Value, sp.GetService<IngestMetrics>(), sp.GetRequiredService<ILoggerFactory>()));
        services.AddHostedService<StoreStartup>();
        return builder;
    }
}
