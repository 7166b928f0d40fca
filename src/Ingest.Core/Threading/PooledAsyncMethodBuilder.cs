using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading.Tasks.Sources;

namespace Ingest.Core.Threading;

/// <summary>
/// An async method builder for <see cref="ValueTask{TResult}"/> methods on the forward path that keeps the boxes of their
/// suspended state machines for reuse, one cache per thread and method, deep enough for every request in flight.
/// </summary>
/// <remarks>
/// Every layer of an async call chain that suspends boxes its state machine on the heap, once per call: on the fast path
/// that is eight boxes a request, the largest share of what the front-end allocated
/// (docs/notebook/lean-services.md#boxes-kept-for-the-requests-in-flight-2026-11-27). The runtime's
/// <see cref="PoolingAsyncValueTaskMethodBuilder{TResult}"/> keeps one box per thread and one per core, so with fifty
/// requests in flight on a loop thread nearly every call still allocates. This
/// builder keeps up to <see cref="CachedPerThread"/> boxes per thread and state machine type: a box is taken when its
/// method first suspends and given back when its caller reads the result, on the same loop thread when the transport
/// runs inline. A thread's cache grows, by doubling, to the most boxes it has had out at once, so it holds what the
/// thread's peak of requests in flight needed and no more; the limit is the admission limit's default
/// (<c>Forwarding:MaxInFlight</c>), so with the default settings no suspension on the forward path allocates, however the
/// requests in flight are spread over the loops (docs/notebook/fast-path-at-300-connections.md). Semantics are the runtime builder's: the execution context is captured at each suspension and restored
/// for the continuation, a result is read once, a box is reset (its version moves on) before it is reused.
/// </remarks>
[StructLayout(LayoutKind.Auto)]
public struct PooledAsyncMethodBuilder<TResult>
{
    /// <summary>Boxes each thread keeps at most per state machine type; beyond that a suspension allocates as usual.</summary>
    public const int CachedPerThread = 1_024;

    /// <summary>The first size of a thread's cache for one state machine type, doubled as more boxes come back.</summary>
    internal const int InitialCachePerThread = 32;

    private Box? _box;
    private TResult _result;
    private bool _completedSynchronously;

#pragma warning disable CA1000 // The compiler's builder pattern requires a static Create on the generic builder.
    public static PooledAsyncMethodBuilder<TResult> Create() => default;
#pragma warning restore CA1000

    public readonly void Start<TStateMachine>(ref TStateMachine stateMachine)
        where TStateMachine : IAsyncStateMachine =>
        AsyncValueTaskMethodBuilder<TResult>.Create().Start(ref stateMachine);

    /// <summary>Not used: this builder boxes the state machine itself when it first suspends.</summary>
    public readonly void SetStateMachine(IAsyncStateMachine stateMachine) => ArgumentNullException.ThrowIfNull(stateMachine);

    public void SetResult(TResult result)
    {
        if (_box is null)
        {
            _result = result;
            _completedSynchronously = true;
        }
        else
        {
            _box.SetResult(result);
        }
    }

    public void SetException(Exception exception) => (_box ??= new Box()).SetException(exception);

    public ValueTask<TResult> Task
    {
        get
        {
            if (_completedSynchronously)
            {
                return new ValueTask<TResult>(_result);
            }

            var box = _box ??= new Box();
            return new ValueTask<TResult>(box, box.Version);
        }
    }

    public void AwaitOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : INotifyCompletion
        where TStateMachine : IAsyncStateMachine =>
        awaiter.OnCompleted(BoxFor(ref stateMachine).MoveNextAction);

    public void AwaitUnsafeOnCompleted<TAwaiter, TStateMachine>(ref TAwaiter awaiter, ref TStateMachine stateMachine)
        where TAwaiter : ICriticalNotifyCompletion
        where TStateMachine : IAsyncStateMachine =>
        awaiter.UnsafeOnCompleted(BoxFor(ref stateMachine).MoveNextAction);

    private Box<TStateMachine> BoxFor<TStateMachine>(ref TStateMachine stateMachine)
        where TStateMachine : IAsyncStateMachine
    {
        var context = ExecutionContext.Capture();
        if (_box is Box<TStateMachine> boxed)
        {
            // A later suspension: the state machine already runs inside its box.
            boxed.Context = context;
            return boxed;
        }

        var box = Box<TStateMachine>.Rent();
        _box = box; // before the copy below, so that the boxed state machine's builder points at its box
        box.StateMachine = stateMachine;
        box.Context = context;
        return box;
    }

    /// <summary>The value task's source: a result or an exception, read once.</summary>
    private class Box : IValueTaskSource<TResult>
    {
        protected ManualResetValueTaskSourceCore<TResult> Core;

        public short Version => Core.Version;

        public void SetResult(TResult result) => Core.SetResult(result);

        public void SetException(Exception exception) => Core.SetException(exception);

        public ValueTaskSourceStatus GetStatus(short token) => Core.GetStatus(token);

        public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
            Core.OnCompleted(continuation, state, token, flags);

        public virtual TResult GetResult(short token) => Core.GetResult(token);
    }

    /// <summary>A suspended state machine of one type, cached per thread once its result has been read.</summary>
    private sealed class Box<TStateMachine> : Box
        where TStateMachine : IAsyncStateMachine
    {
        [ThreadStatic]
        private static Box<TStateMachine>?[]? t_cache;

        [ThreadStatic]
        private static int t_count;

        private static readonly ContextCallback Run = static box => ((Box<TStateMachine>)box!).StateMachine!.MoveNext();

        private Action? _moveNext;

        public TStateMachine? StateMachine;

        public ExecutionContext? Context;

        public Action MoveNextAction => _moveNext ??= MoveNext;

        public static Box<TStateMachine> Rent()
        {
            var cache = t_cache;
            if (cache is null || t_count == 0)
            {
                return new Box<TStateMachine>();
            }

            var index = --t_count;
            var box = cache[index]!;
            cache[index] = null;
            return box;
        }

        public override TResult GetResult(short token)
        {
            try
            {
                return Core.GetResult(token);
            }
            finally
            {
                Return();
            }
        }

        private void MoveNext()
        {
            var context = Context;
            if (context is null)
            {
                StateMachine!.MoveNext();
            }
            else
            {
                ExecutionContext.Run(context, Run, this);
            }
        }

        private void Return()
        {
            StateMachine = default;
            Context = null;
            Core.Reset();
            var cache = t_cache ??= new Box<TStateMachine>?[InitialCachePerThread];
            if (t_count == cache.Length && cache.Length < CachedPerThread)
            {
                // More boxes out at once than ever before on this thread: keep them all, up to the limit.
                Array.Resize(ref t_cache, Math.Min(cache.Length * 2, CachedPerThread));
                cache = t_cache;
            }

            if (t_count < cache.Length)
            {
                cache[t_count++] = this;
            }
        }
    }
}
