package service

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"
)

// ShutdownTimeout is how long in-flight requests may take to finish after SIGTERM or SIGINT.
const ShutdownTimeout = 10 * time.Second

// ReadyLine is what the lab and Crank wait for before they send load.
const ReadyLine = "Application started."

// Server is what Run drives; net/http's *http.Server fits as it is.
type Server interface {
	Serve(net.Listener) error
	Shutdown(context.Context) error
}

// Run listens on c.Listen, prints the configuration line and ReadyLine, serves until ctx is done (the
// caller ties it to SIGTERM and SIGINT) and then shuts down gracefully within ShutdownTimeout.
func Run(ctx context.Context, c *Config, srv Server, stdout io.Writer) error {
	if _, err := StartProfiler(stdout); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		return fmt.Errorf("-listen %s: %w", c.Listen, err)
	}
	fmt.Fprintln(stdout, c.Describe(ln.Addr().String()))
	fmt.Fprintln(stdout, ReadyLine)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serving: %w", err)
	case <-ctx.Done():
	}

	fmt.Fprintln(stdout, "Application is shutting down...")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("graceful shutdown: %w", err)
	}
	<-served // returns as soon as Shutdown closed the listener; its error says only that
	return nil
}
