namespace Ingest.Transports.Internal;

/// <summary>Range checks whose failure message names the configuration key to change.</summary>
internal static class OptionsChecks
{
    public static void Range(List<string> failures, string key, long value, long minimum, long maximum)
    {
        if (value < minimum || value > maximum)
        {
            failures.Add($"{key} must be between {minimum} and {maximum}; it is {value}. Change {key}.");
        }
    }

    public static void BufferSize(List<string> failures, string key, long? value)
    {
        if (value < 0)
        {
            failures.Add($"{key} must be a byte count of 0 or more (0 or empty: unlimited); it is {value}. Change {key}.");
        }
    }

    public static void Defined<TEnum>(List<string> failures, string key, TEnum value)
        where TEnum : struct, Enum
    {
        if (!Enum.IsDefined(value))
        {
            failures.Add($"{key} must be one of {string.Join(", ", Enum.GetNames<TEnum>())}; it is {value}. Change {key}.");
        }
    }

    /// <summary>AIO sends batch the sends deferred to the end of a loop iteration (LinuxEpoll and the Red Hat transport alike).</summary>
    public static void AioSendNeedsDeferSend(List<string> failures, string section, bool aioSend, bool deferSend)
    {
        if (aioSend && !deferSend)
        {
            failures.Add($"{section}:AioSend batches the sends deferred to the end of a loop iteration, so it needs {section}:DeferSend=true. Set DeferSend to true or AioSend to false.");
        }
    }
}
