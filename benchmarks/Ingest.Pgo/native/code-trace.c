/*
 * code-trace.so: which pages of a program's code run, page by page.
 *
 * Preloaded into a Native AOT service (LD_PRELOAD, with INGEST_CODE_TRACE=<file>) during the lab's layout training.
 * Before the program's own code runs, this constructor takes every access right off the executable's code mapping;
 * the first access to each page then faults, the handler below gives that page its rights back and appends its
 * index to the file. What the file lists is exact to the page, which the resident-memory view of the same run is not:
 * the kernel maps 64 KB around every fault on a file ("fault-around"), so a page counts as resident whenever a
 * neighbour ran. benchmarks/Ingest.Pgo (CodeLayout) turns the pages into the functions laid on them, the order the
 * Native AOT compiler is given (--order) so that the code that runs sits together.
 *
 * The runtime installs its own SIGSEGV handler (null references, stack overflow); the sigaction below keeps this
 * handler first and hands every fault that is not a first touch of a traced page to the runtime's.
 *
 * File: three 64-bit words (the mapping's start and end address, its file offset), then one 32-bit page index for
 * each page as it is first touched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096u

static uintptr_t code_start, code_end;
static int trace_fd = -1;
static struct sigaction runtime_handler;
static int runtime_has_handler;
static int (*next_sigaction)(int, const struct sigaction *, struct sigaction *);

static void hand_on(int sig, siginfo_t *info, void *context)
{
    if (runtime_has_handler)
    {
        if (runtime_handler.sa_flags & SA_SIGINFO)
        {
            runtime_handler.sa_sigaction(sig, info, context);
            return;
        }
        if (runtime_handler.sa_handler != SIG_DFL && runtime_handler.sa_handler != SIG_IGN)
        {
            runtime_handler.sa_handler(sig);
            return;
        }
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    next_sigaction(SIGSEGV, &fallback, NULL);
    raise(SIGSEGV);
}

static void on_fault(int sig, siginfo_t *info, void *context)
{
    uintptr_t address = (uintptr_t)info->si_addr;
    if (address >= code_start && address < code_end)
    {
        uintptr_t page = address & ~(uintptr_t)(PAGE - 1);
        if (mprotect((void *)page, PAGE, PROT_READ | PROT_EXEC) == 0)
        {
            uint32_t index = (uint32_t)((page - code_start) / PAGE);
            if (write(trace_fd, &index, sizeof index) != sizeof index)
            {
                /* A short trace only lays out less; the program goes on. */
            }
            return;
        }
    }
    hand_on(sig, info, context);
}

/* The runtime's handler is remembered, not installed: faults reach it through on_fault. */
int sigaction(int sig, const struct sigaction *action, struct sigaction *previous)
{
    if (next_sigaction == NULL)
        next_sigaction = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
    if (sig != SIGSEGV || trace_fd < 0)
        return next_sigaction(sig, action, previous);
    if (previous != NULL)
    {
        memset(previous, 0, sizeof *previous);
        if (runtime_has_handler)
            *previous = runtime_handler;
    }
    if (action != NULL)
    {
        runtime_handler = *action;
        runtime_has_handler = 1;
    }
    return 0;
}

__attribute__((constructor)) static void start_tracing(void)
{
    const char *file = getenv("INGEST_CODE_TRACE");
    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (file == NULL || length <= 0)
        return;
    executable[length] = 0;
    /* The program's children are not traced. */
    unsetenv("LD_PRELOAD");

    uint64_t header[3] = {0, 0, 0};
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[PATH_MAX + 256], path[PATH_MAX], rights[8];
    unsigned long start, end, offset;
    while (maps != NULL && fgets(line, sizeof line, maps) != NULL)
    {
        if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &start, &end, rights, &offset, path) == 5
            && rights[2] == 'x' && strcmp(path, executable) == 0)
        {
            header[0] = start;
            header[1] = end;
            header[2] = offset;
        }
    }
    if (maps != NULL)
        fclose(maps);
    if (header[0] == 0)
        return;

    trace_fd = open(file, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (trace_fd < 0 || write(trace_fd, header, sizeof header) != sizeof header)
    {
        trace_fd = -1;
        return;
    }

    next_sigaction = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
    struct sigaction ours;
    memset(&ours, 0, sizeof ours);
    ours.sa_sigaction = on_fault;
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&ours.sa_mask);
    next_sigaction(SIGSEGV, &ours, NULL);

    code_start = (uintptr_t)header[0];
    code_end = (uintptr_t)header[1];
    mprotect((void *)code_start, code_end - code_start, PROT_NONE);
}
