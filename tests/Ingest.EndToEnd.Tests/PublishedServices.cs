namespace Ingest.EndToEnd.Tests;

/// <summary>
/// The classes that start the published services share one <see cref="Services"/>: one publish for the assembly (two
/// class fixtures published the same programs twice, into the same folders at the same time), and one class at a time,
/// so a load test never shares the two cores with another's load.
/// </summary>
[CollectionDefinition(Name)]
public sealed class PublishedServices : ICollectionFixture<Services>
{
    public const string Name = "published services";
}
