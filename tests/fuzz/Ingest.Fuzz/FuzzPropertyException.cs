namespace Ingest.Fuzz;

/// <summary>A parser answered without throwing, but its answer broke a property its callers rely on.</summary>
public sealed class FuzzPropertyException : Exception
{
    public FuzzPropertyException()
    {
    }

    public FuzzPropertyException(string message)
        : base(message)
    {
    }

    public FuzzPropertyException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    /// <summary>Throws when <paramref name="holds"/> is false; <paramref name="property"/> says what the callers rely on.</summary>
    public static void Check(bool holds, string property)
    {
        if (!holds)
        {
            throw new FuzzPropertyException(property);
        }
    }
}
