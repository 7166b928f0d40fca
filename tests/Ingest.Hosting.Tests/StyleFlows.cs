using Ingest.Testing;

namespace Ingest.Hosting.Tests;

/// <summary>One flow (back-end and front-end, default settings) per API style, shared by a test class's cases.</summary>
public sealed class StyleFlows : IAsyncLifetime
{
    private readonly Dictionary<ApiStyle, Flow> _flows = [];

    /// <summary>The base address of <paramref name="role"/>'s service in <paramref name="style"/>.</summary>
    public Uri Address(ApiStyle style, ServiceRole role) => role == ServiceRole.FrontEnd ? _flows[style].FrontEnd.BaseAddress : _flows[style].BackEnd.BaseAddress;

    public async Task InitializeAsync()
    {
        foreach (var style in Enum.GetValues<ApiStyle>())
        {
            _flows[style] = await Flow.StartAsync(new FlowConfiguration(Style: style));
        }
    }

    public async Task DisposeAsync()
    {
        foreach (var flow in _flows.Values)
        {
            await flow.DisposeAsync();
        }
    }
}
