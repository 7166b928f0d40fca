namespace Ingest.Hosting.Tests;

/// <summary>What the client does with its connection once it has sent a hand-written request.</summary>
public enum ClientEnding
{
    /// <summary>Keeps it open and waits for the server: the bytes alone must tell the server what is wrong.</summary>
    StaysOpen,

    /// <summary>Shuts down its sending side (FIN): the rest of the body never comes.</summary>
    HalfCloses,

    /// <summary>Closes with RST, as a crashing client does: nobody is left to answer.</summary>
    Resets,
}
