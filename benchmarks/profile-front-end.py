"""The two halves of benchmarks/profile-front-end.sh's report.

`counters BEFORE AFTER RPS SECONDS`: the runtime's counters (two /metrics snapshots) over the measured window,
per request where that is what a reader compares.

`memory PID [GC_COMMITTED_MB]`: the process's resident memory (/proc/PID/smaps) accounted by what holds it: the
program image, native libraries and managed assemblies mapped from disk; and anonymous memory by the shape of its
mappings — the GC's reserved range (one contiguous run of hundreds of MB or more), thread stacks (a guard page and
up to 8.5 MB), glibc's malloc arenas (64 MB runs) and the main heap, and the rest (JIT-compiled code, the runtime's
loader heaps and data). Shapes, not labels: the kernel does not name these mappings, so each line is an estimate.

`samples`: groups a process's on-CPU samples (`perf script -F ip,sym,dso` on stdin) by where they landed.

Each sample is one leaf function: the share of samples is the share of the process's CPU time. Buckets: the kernel
(system calls, network stack), the garbage collector, the JIT compiler, the rest of the native runtime, and
managed code by namespace (JIT-compiled code is named through the runtime's perf map, DOTNET_PerfMapEnabled=1;
Native AOT code through the binary's own symbols).
"""
import collections
import re
import json
import os
import sys

SAMPLE = re.compile(r"^\s*(?:[0-9a-f]+\s+)?(?P<sym>.*?)\s*\((?P<dso>[^()]*)\)\s*$")
GC = re.compile(r"(WKS|SVR)::|gc_heap|GCHeap|GCToEEInterface|_gc_|RhpGcAlloc|RhpNewFast|GcAlloc", re.IGNORECASE)


AREAS = (("Microsoft.AspNetCore.Server.Kestrel", "Kestrel"),
         ("Microsoft.AspNetCore", "ASP.NET Core (routing, hosting, middleware)"),
         ("System.Net.Http", "HttpClient (forwarding)"),
         ("System.Net.Sockets", "sockets"),
         ("System.Text.Json", "System.Text.Json"),
         ("System.IO.Pipelines", "pipelines"),
         ("System.Threading", "threading and thread pool"),
         ("System.Runtime.CompilerServices", "async state machines"),
         ("Ingest.Hosting.Metrics", "Ingest metrics (Prometheus)"),
         ("Ingest", "Ingest (our code)"),
         ("Polly", "Polly (resilience)"))


def managed_area(symbol):
    # Perf map: "instance void [Module] Namespace.Type::Method(...)[Tier]"; the type is the name before "::".
    match = re.search(r"\[[\w.]+\] (\S+?)::", symbol) or re.search(r"(\S+?)::", symbol)
    name = match.group(1) if match else symbol.strip()
    if "." not in name:
        # Native AOT: Module_Namespace_Type__Method, the module prefix first (S_P_CoreLib_System_Threading_Monitor__Enter).
        if name.startswith("Rhp") or name.startswith("Rhu"):
            return "runtime helpers (write barriers, interface dispatch, locks)"
        for prefix, area in AREAS:
            if prefix.replace(".", "_") + "_" in name:
                return area
        return "other managed (" + "_".join(name.removeprefix("S_P_CoreLib_").split("_")[:2]) + ")"
    for prefix, area in AREAS:
        if name.startswith(prefix):
            return area
    return "other managed (" + ".".join(name.split(".")[:2]) + ")"


def bucket(symbol, dso):
    if "kernel" in dso or dso.startswith("["):
        return "kernel (system calls, TCP/IP, scheduling)"
    if GC.search(symbol):
        return "garbage collector and allocation"
    if "libclrjit" in dso:
        return "JIT compiler"
    if dso.endswith(".dll") and symbol == "[unknown]":
        # ReadyToRun code the runtime has not rejitted: perf cannot name it, its assembly tells the area.
        return "managed: " + managed_area(dso.rsplit("/", 1)[-1][:-4])
    if dso.endswith(".map") or dso.endswith(".dll") or not dso.endswith(".so") and "/lib" not in dso:
        return "managed: " + managed_area(symbol)
    if "libcoreclr" in dso or "libSystem" in dso:
        return "runtime (native, not GC)"
    return "native libraries (" + dso.rsplit("/", 1)[-1] + ")"


def counters(before_path, after_path, rps, seconds):
    def read(path):
        return {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1]) for line in open(path) if " " in line}

    before, after = read(before_path), read(after_path)

    def delta(name):
        return after.get(name, 0.0) - before.get(name, 0.0)

    def collections(generation):
        return delta('dotnet_gc_collections_total{gc_heap_generation="' + generation + '"}')

    requests = rps * seconds
    committed = after.get("dotnet_gc_last_collection_memory_committed_size_bytes", 0.0) / 1048576
    print(f"  GC committed after the load: {committed:.1f} MB")
    print(f"  over the {seconds:.0f} s measured: "
          f"{delta('dotnet_gc_heap_total_allocated_bytes_total') / requests / 1024:.1f} KB allocated per request; "
          f"collections gen0 {collections('gen0'):.0f}, gen1 {collections('gen1'):.0f}, gen2 {collections('gen2'):.0f}; "
          f"GC pauses {100 * delta('dotnet_gc_pause_time_seconds_total') / seconds:.1f}% of the time; "
          f"JIT {1000 * delta('dotnet_jit_compilation_time_seconds_total'):.0f} ms; "
          f"{delta('dotnet_thread_pool_work_item_count_total') / requests:.1f} thread-pool work items per request")


def proc(pids):
    """CPU time (user, system, in clock ticks) and context switches of each process, as JSON on stdout."""
    readings = {}
    for name, pid in zip(["front-end", "back-end"], pids):
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        # The process's status counts its main thread's switches only: add up every thread's.
        switches = 0
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                for line in open(f"/proc/{pid}/task/{task}/status"):
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        switches += int(line.split()[1])
            except FileNotFoundError:
                pass  # a thread that ended meanwhile
        readings[name] = {"user": int(fields[11]), "system": int(fields[12]), "switches": switches}
    print(json.dumps(readings))


def usage(before_path, after_path, rps):
    """Per process over the measured window: CPU µs per request, the kernel's share of it, context switches per request."""
    before, after = json.load(open(before_path)), json.load(open(after_path))
    ticks = os.sysconf("SC_CLK_TCK")
    requests = rps * 14
    print("  per request (measured window):")
    for name in after:
        user = (after[name]["user"] - before[name]["user"]) / ticks
        system = (after[name]["system"] - before[name]["system"]) / ticks
        switches = after[name]["switches"] - before[name]["switches"]
        total = user + system
        print(f"     {name:10} {total * 1e6 / requests:6.1f} µs CPU, {100 * system / max(total, 1e-9):4.1f}% in the kernel, "
              f"{switches / requests:5.2f} context switches")
MAPPING = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \d+\s*(.*)$")
GC_RESERVE_KB = 256 * 1024
ARENA_KB = 64 * 1024
MAX_STACK_KB = 8704


def memory(pid, gc_committed_mb=None):
    mappings = []
    current = None
    for line in open(f"/proc/{pid}/smaps"):
        match = MAPPING.match(line)
        if match:
            current = {"start": int(match.group(1), 16), "end": int(match.group(2), 16), "perms": match.group(3),
                       "path": match.group(4).strip(), "rss": 0}
            mappings.append(current)
        elif line.startswith("Rss:") and current is not None:
            current["rss"] = int(line.split()[1])
    account = collections.Counter()
    run = []

    def close(run):
        if not run:
            return
        size = (run[-1]["end"] - run[0]["start"]) // 1024
        rss = sum(m["rss"] for m in run)
        if size >= GC_RESERVE_KB:
            account["GC heap (the GC's reserved range, committed part)"] += rss
        elif run[0]["perms"] == "---p" and run[0]["end"] - run[0]["start"] == 4096 and size <= MAX_STACK_KB:
            account["thread stacks (guard page + stack)"] += rss
        elif size == ARENA_KB or (len(run) == 2 and size == ARENA_KB):
            account["native heap (malloc arenas of other threads)"] += rss
        else:
            account["other anonymous (JIT code, loader heaps, runtime data)"] += rss

    for m in mappings:
        path = m["path"]
        if path and not path.startswith("["):
            close(run)
            run = []
            name = path.rsplit("/", 1)[-1]
            if ".so" in name:
                account["native libraries mapped from disk (" + ("runtime" if re.search(r"coreclr|clrjit|System\.|hostfxr|hostpolicy", name) else "other") + ")"] += m["rss"]
            elif name.endswith(".dll"):
                account["managed assemblies mapped from disk"] += m["rss"]
            elif "memfd:doublemapper" in path:
                account["other anonymous (JIT code, loader heaps, runtime data)"] += m["rss"]
            else:
                account["the program's own image (" + name + ")"] += m["rss"]
            continue
        if path == "[heap]":
            account["native heap (malloc, main arena)"] += m["rss"]
            continue
        if path.startswith("["):
            account[path] += m["rss"]
            continue
        guard = m["perms"] == "---p" and m["end"] - m["start"] == 4096
        if run and (run[-1]["end"] != m["start"] or guard):
            close(run)
            run = []
        run.append(m)
    close(run)
    total = sum(account.values())
    print(f"  resident memory of pid {pid} by what holds it: {total / 1024:.1f} MB")
    for name, kb in account.most_common():
        if kb >= 512:
            print(f"    {kb / 1024:6.1f} MB  {name}")
    if gc_committed_mb is not None:
        print(f"    (the GC itself reports {gc_committed_mb:.1f} MB committed)")


def samples():
    buckets, functions = collections.Counter(), collections.Counter()
    for line in sys.stdin:
        match = SAMPLE.match(line)
        if not match:
            continue
        symbol, dso = match.group("sym"), match.group("dso")
        symbol = re.sub(r"\+0x[0-9a-f]+$", "", symbol) or "[unknown]"
        buckets[bucket(symbol, dso)] += 1
        functions[re.sub(r"^.*?(?=\[[\w.]+\] \S+::)", "", symbol)[:110]] += 1
    total = sum(buckets.values())
    if total == 0:
        print("  no samples (perf could not attach?)")
        return
    print(f"  time profile: {total} samples of the front-end during the load")
    for name, count in buckets.most_common():
        if count * 200 >= total:
            print(f"    {100 * count / total:5.1f}%  {name}")
    print("  top functions:")
    for name, count in functions.most_common(15):
        print(f"    {100 * count / total:5.1f}%  {name}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["proc"]:
        proc(sys.argv[2:])
    elif sys.argv[1:2] == ["usage"]:
        usage(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    elif sys.argv[1:2] == ["memory"]:
        memory(sys.argv[2], float(sys.argv[3]) if len(sys.argv) > 3 else None)
    elif sys.argv[1:2] == ["counters"]:
        counters(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]))
    else:
        samples()
