"""One process's half of benchmarks/profile-go.sh's report.

`profile-go.py NAME RPS SECONDS CPU_BEFORE CPU_AFTER MEM_BEFORE MEM_AFTER PERF_STAT TRACES`: CPU per request from
/proc (clock ticks), context switches per request from `perf stat` (when it ran), allocations per request and
collections from two runtime MemStats snapshots, and the CPU profile's samples (`go tool pprof -traces`) split into
stages; the stop-the-world pauses are the last 256 the runtime keeps. Each sample goes to the first stage whose function is on its stack, in the order of STAGES, so the shares add
up to 100%; "in system calls" is the share whose innermost function is a system call (the kernel's time: Go's
profiler counts a thread's system time, and it lands on the call that entered the kernel).
"""
import re
import sys

STAGES = (
    ("GC: background mark, sweep, assists", ("runtime.gcBgMarkWorker", "runtime.bgsweep", "runtime.bgscavenge", "runtime.gcAssistAlloc", "runtime.gcStart", "runtime.markroot")),
    ("allocation (mallocgc)", ("runtime.mallocgc", "runtime.newobject", "runtime.makeslice", "runtime.growslice")),
    ("contract: parse and validate", ("ingest/contract.RequestReader.Read", "ingest/contract.ReadForwarded")),
    ("contract: forward body and answers", ("ingest/contract.AppendEvents", "ingest/contract.AppendAccepted", "ingest/contract.AppendPersisted")),
    ("forward: the client (write request, read answer, its goroutines)", (
        "ingest/stdhttp.(*forwarder).send", "net/http.(*persistConn).writeLoop", "net/http.(*persistConn).readLoop",
        "ingest/fast.(*FrontEnd).send", "github.com/valyala/fasthttp.clientDoDeadline", "github.com/valyala/fasthttp.(*HostClient)")),
    ("HTTP server: read request, route, write answer", ("net/http.(*conn).serve", "github.com/valyala/fasthttp.(*Server).serveConn", "github.com/valyala/fasthttp.(*workerPool)")),
    ("scheduler, network poller, timers", ("runtime.mcall", "runtime.schedule", "runtime.findRunnable", "runtime.netpoll", "runtime.sysmon", "runtime.checkTimers", "runtime.morestack")),
)
SYSCALL = re.compile(r"^(runtime/internal/syscall\.Syscall6|syscall\.(Raw)?Syscall6?|runtime\.(futex|epollwait|usleep|write1|read|nanosleep|madvise|mmap|osyield|sched_yield))$")
DURATION = re.compile(r"^\s*([\d.]+)(ns|us|µs|ms|s)\s+(\S.*)$")
UNIT = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}


def read_number(path):
    try:
        return float(open(path).read().split()[0])
    except (OSError, IndexError, ValueError):
        return None


def memstats(path):
    values = {}
    try:
        for line in open(path):
            key, _, value = line.partition(" = ")
            if value.startswith("["):  # PauseNs: the last 256 stop-the-world pauses, a ring
                values[key.strip()] = sorted(float(v) for v in value.strip("[] \n").split() if v != "0")
            else:
                values[key.strip()] = float(value.split()[0])
    except OSError:
        pass
    return values


def pauses(ring):
    if not ring:
        return ""
    return f", stop-the-world pauses median {ring[len(ring) // 2] / 1000:.0f} µs, max {ring[-1] / 1000:.0f} µs (last {len(ring)})"


def context_switches(path):
    try:
        for line in open(path):
            fields = line.split()
            if len(fields) >= 2 and fields[1] == "context-switches":
                return float(fields[0].replace(",", ""))
    except OSError:
        pass
    return None


def traces(path):
    """Yields (seconds, [functions, innermost first]) per sample stack."""
    value, stack = None, []
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return
    for line in lines:
        if line.startswith("-----------+"):
            if value is not None:
                yield value, stack
            value, stack = None, []
            continue
        match = DURATION.match(line)
        if match and value is None:
            value = float(match.group(1)) * UNIT[match.group(2)]
            stack = [match.group(3).strip()]
        elif value is not None and line.strip():
            stack.append(line.strip())
    if value is not None:
        yield value, stack


def main(name, rps, seconds, cpu_before, cpu_after, mem_before, mem_after, perf_stat, traces_path):
    rps, seconds = float(rps), float(seconds)
    requests = rps * seconds
    before, after = read_number(cpu_before), read_number(cpu_after)
    cpu_us = (after - before) / 100 / requests * 1e6 if before is not None and after is not None and requests else float("nan")
    m0, m1 = memstats(mem_before), memstats(mem_after)

    def delta(key):
        return m1.get(key, 0.0) - m0.get(key, 0.0)

    switches = context_switches(perf_stat)
    print(f"  {name}: {cpu_us:.1f} µs CPU per request"
          + (f", {switches / requests:.2f} context switches per request" if switches is not None and requests else "")
          + f"; {delta('TotalAlloc') / requests / 1024:.2f} KB and {delta('Mallocs') / requests:.1f} objects allocated per request;"
          + f" {delta('NumGC') / seconds:.0f} collections a second" + pauses(m1.get("PauseNs", [])))
    totals, in_syscalls, total = {}, 0.0, 0.0
    for value, stack in traces(traces_path):
        total += value
        if SYSCALL.match(stack[0]):
            in_syscalls += value
        stage = next((label for label, functions in STAGES if any(f in frame for frame in stack for f in functions)), "other")
        totals[stage] = totals.get(stage, 0.0) + value
    if total == 0:
        print("    (no CPU profile)")
        return
    print(f"    CPU profile, {total:.1f} s of samples; in system calls (kernel): {100 * in_syscalls / total:.1f}%")
    for label, value in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"    {100 * value / total:5.1f}%  {value / total * cpu_us:5.1f} µs  {label}")


if __name__ == "__main__":
    main(*sys.argv[1:10])
