using Ingest.Transports;

namespace Ingest.Hosting.Tests;

/// <summary>
/// Theory data over every combination of the values of two or three enums: the configuration matrices. Transports are
/// those this build has (RedHatLinux only in a build given its package; <see cref="OptionalTransportTests"/> says so).
/// </summary>
internal static class EnumMatrix
{
    public static IReadOnlyList<T> Values<T>()
        where T : struct, Enum =>
        typeof(T) == typeof(TransportKind) ? (IReadOnlyList<T>)TransportKinds.InThisBuild : Enum.GetValues<T>();

    public static TheoryData<T1, T2> Every<T1, T2>()
        where T1 : struct, Enum
        where T2 : struct, Enum
    {
        var data = new TheoryData<T1, T2>();
        foreach (var first in Values<T1>())
        {
            foreach (var second in Values<T2>())
            {
                data.Add(first, second);
            }
        }

        return data;
    }

    public static TheoryData<T1, T2, T3> Every<T1, T2, T3>()
        where T1 : struct, Enum
        where T2 : struct, Enum
        where T3 : struct, Enum
    {
        var data = new TheoryData<T1, T2, T3>();
        foreach (var first in Values<T1>())
        {
            foreach (var second in Values<T2>())
            {
                foreach (var third in Values<T3>())
                {
                    data.Add(first, second, third);
                }
            }
        }

        return data;
    }
}
