package e2etest

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ingest/service"
)

// AsMainVariable makes a test binary run its package's main() instead of the tests: TestMain checks it,
// so a command's tests can start the real command, flags, signals and all, without building it first.
const AsMainVariable = "INGEST_GO_RUN_MAIN"

// Process is a service started as its own process.
type Process struct {
	// URL is the base URL it printed it listens on.
	URL string
	// Config is the configuration line it printed.
	Config string
	cmd    *exec.Cmd
	lines  chan string
	stderr *lockedBuffer
	exited chan struct{}
}

var listenPattern = regexp.MustCompile(`listen=(http://\S+)`)

// StartProcess runs the current test binary as its command with args, and waits for the configuration
// line and "Application started.". The process is killed when the test ends if it still runs.
func StartProcess(t testing.TB, args ...string) *Process {
	t.Helper()
	return StartBinary(t, os.Args[0], []string{AsMainVariable + "=1"}, args...)
}

// StartBinary runs the program at path with args (and env added to this process's environment) and waits for its
// first line, the configuration naming listen=http://host:port, and its second, "Application started.". The process is
// killed when the test ends if it still runs.
func StartBinary(t testing.TB, path string, env []string, args ...string) *Process {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Env = append(os.Environ(), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &Process{cmd: cmd, lines: make(chan string, 16), stderr: &lockedBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(p.lines)
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			p.lines <- scanner.Text()
		}
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})

	p.Config = p.line(t)
	m := listenPattern.FindStringSubmatch(p.Config)
	if m == nil {
		t.Fatalf("the first line names no listen address: %q (stderr: %s)", p.Config, p.stderr)
	}
	p.URL = m[1]
	if ready := p.line(t); ready != service.ReadyLine {
		t.Fatalf("second line %q; want %q", ready, service.ReadyLine)
	}
	return p
}

func (p *Process) line(t testing.TB) string {
	t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			t.Fatalf("the process ended its output early (stderr: %s)", p.stderr)
		}
		return line
	case <-time.After(10 * time.Second):
		t.Fatalf("no output within 10 s (stderr: %s)", p.stderr)
	}
	return ""
}

// Signal sends sig to the process.
func (p *Process) Signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
}

// Wait waits for the process to exit and returns its exit code and the rest of its output.
func (p *Process) Wait(t testing.TB, within time.Duration) (int, string) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case <-done:
		close(p.exited)
	case <-time.After(within):
		t.Fatalf("the process did not exit within %v", within)
	}
	var rest strings.Builder
	for line := range p.lines {
		rest.WriteString(line + "\n")
	}
	return p.cmd.ProcessState.ExitCode(), rest.String()
}

// RunCommand runs the test binary as its command to completion and returns its exit code and stderr.
func RunCommand(t testing.TB, args ...string) (int, string) {
	t.Helper()
	return RunBinary(t, os.Args[0], []string{AsMainVariable + "=1"}, args...)
}

// RunBinary runs the program at path with args to completion (killed after 5 s) and returns its exit code and stderr.
func RunBinary(t testing.TB, path string, env []string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stderr.String()
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
