using Ingest.Core.Configuration;
using Microsoft.Extensions.Options;

namespace Ingest.Core.Sinks;

/// <summary>Start-up checks of the back-end's <see cref="SinkOptions"/>, <see cref="FaultOptions"/> and <see cref="IdempotencyOptions"/>;
/// an explicit idempotency capacity must fit the memory of <paramref name="budget"/>.</summary>
public sealed class SinkOptionsValidator(WindowBudget budget) : IValidateOptions<SinkOptions>, IValidateOptions<FaultOptions>, IValidateOptions<IdempotencyOptions>
{
    public ValidateOptionsResult Validate(string? name, SinkOptions options) =>
        new OptionChecks(SinkOptions.SectionName)
            .Defined(nameof(options.Default), options.Default)
            .Defined(nameof(options.Job), options.Job)
            .Defined(nameof(options.Metric), options.Metric)
            .Defined(nameof(options.Log), options.Log)
            .Range(nameof(options.RecentCapacity), options.RecentCapacity, 1, 1_000_000)
            .Range(nameof(options.StatusPageEvents), options.StatusPageEvents, 0, 1_000, "0 keeps none")
            .Result();

    public ValidateOptionsResult Validate(string? name, FaultOptions options) =>
        new OptionChecks(FaultOptions.SectionName)
            .Range(nameof(options.DropOneIn), options.DropOneIn, 0, int.MaxValue, "0 turns dropping off")
            .Range(nameof(options.DelayMilliseconds), options.DelayMilliseconds, 0, 600_000)
            .Range(nameof(options.ResponseDelayMilliseconds), options.ResponseDelayMilliseconds, 0, 600_000)
            .Result();

    public ValidateOptionsResult Validate(string? name, IdempotencyOptions options)
    {
        var checks = new OptionChecks(IdempotencyOptions.SectionName)
            .Range(nameof(options.Capacity), options.Capacity, 1, 100_000_000, "leave it unset to size the window from memory")
            .Range(nameof(options.WindowSeconds), options.WindowSeconds, 1, 86_400);
        if (options.Capacity is { } capacity && capacity > budget.MostKeys)
        {
            checks.Fail(
                $"{checks.Key(nameof(options.Capacity))} = {capacity} does not fit the {Megabytes(budget.AvailableBytes)} the GC may use: "
                + $"a window of that many keys takes {Megabytes(WindowBudget.Bytes(capacity))} "
                + $"({WindowBudget.BytesPerKey} B a key), more than 1/{WindowBudget.MemoryShare} of it. "
                + $"At most {budget.MostKeys} keys fit; leave it unset to size the window from memory.");
        }

        return checks.Result();
    }

    private static string Megabytes(long bytes) =>
        (bytes / (1024.0 * 1024)).ToString("0.#", System.Globalization.CultureInfo.InvariantCulture) + " MB";
}
