namespace Ingest.Core.Serialization;

/// <summary>Limits every serializer applies the same way.</summary>
public static class SerializerLimits
{
    /// <summary>Deepest JSON nesting any serializer reads unless <c>Limits:MaxJsonDepth</c> says otherwise: the
    /// default of both libraries, made explicit so a change in either cannot make one serializer accept what
    /// another rejects.</summary>
    public const int MaxDepth = 64;
}
