namespace Ingest.Storage.Internal;

/// <summary>A sink with start-up work (a table to create, a directory to open); run before the back-end
/// answers its first request, failing the start with a message naming the key to fix.</summary>
internal interface IStoreInitializer
{
    Task InitializeAsync(CancellationToken cancellationToken);
}
