namespace Ingest.Hosting.Tests;

/// <summary>Theory data over every combination of the values of two or three enums: the configuration matrices.</summary>
internal static class EnumMatrix
{
    public static TheoryData<T1, T2> Every<T1, T2>()
        where T1 : struct, Enum
        where T2 : struct, Enum
    {
        var data = new TheoryData<T1, T2>();
        foreach (var first in Enum.GetValues<T1>())
        {
            foreach (var second in Enum.GetValues<T2>())
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
        foreach (var first in Enum.GetValues<T1>())
        {
            foreach (var second in Enum.GetValues<T2>())
            {
                foreach (var third in Enum.GetValues<T3>())
                {
                    data.Add(first, second, third);
                }
            }
        }

        return data;
    }
}
