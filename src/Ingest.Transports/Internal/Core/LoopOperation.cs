using System.Threading.Tasks.Sources;

namespace Ingest.Transports.Internal.Core;

/// <summary>
/// One reusable asynchronous socket operation (a receive, a wait for data or a send) of a connection. It is
/// completed on the transport thread and runs the awaiting pump inline there, so the next receive or send is
/// issued without a thread hop and without allocating: one instance per direction per connection.
/// </summary>
internal sealed class LoopOperation : IValueTaskSource<int>, IValueTaskSource
{
    private ManualResetValueTaskSourceCore<int> _core;

    public ValueTask<int> AsValueTaskOfInt() => new(this, _core.Version);

    public ValueTask AsValueTask() => new(this, _core.Version);

    public void Complete(int result) => _core.SetResult(result);

    public void Fail(Exception error) => _core.SetException(error);

    public int GetResult(short token)
    {
        try
        {
            return _core.GetResult(token);
        }
        finally
        {
            _core.Reset();
        }
    }

    void IValueTaskSource.GetResult(short token) => GetResult(token);

    public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);
}
