using System.Buffers;
using Microsoft.AspNetCore.Connections.Features;
using Microsoft.AspNetCore.Http.Features;

namespace Ingest.Transports.Internal.Core;

/// <summary>The connection features Kestrel looks up, all served by the connection itself.</summary>
internal sealed partial class TransportConnection :
    IConnectionIdFeature,
    IConnectionTransportFeature,
    IConnectionItemsFeature,
    IConnectionLifetimeFeature,
    IConnectionEndPointFeature,
    IMemoryPoolFeature
{
    public MemoryPool<byte> MemoryPool => _loop.MemoryPool;

    private FeatureCollection CreateFeatures()
    {
        var features = new FeatureCollection();
        features.Set<IConnectionIdFeature>(this);
        features.Set<IConnectionTransportFeature>(this);
        features.Set<IConnectionItemsFeature>(this);
        features.Set<IConnectionLifetimeFeature>(this);
        features.Set<IConnectionEndPointFeature>(this);
        features.Set<IMemoryPoolFeature>(this);
        return features;
    }
}
