// Command ingest-go is the Go flow on net/http, one binary for both halves:
//
//	ingest-go -role backend  -listen 127.0.0.1:5001
//	ingest-go -role frontend -listen 127.0.0.1:5000 -backends http://127.0.0.1:5001 -client pooled
//
// It prints its configuration, then "Application started." once it listens, and shuts down gracefully
// on SIGTERM or SIGINT. Run with -h for every flag.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"ingest/service"
	"ingest/stdhttp"
)

const program = "ingest-go"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	c, err := service.Parse(program, service.NetHTTP, args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, service.ErrUsage):
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n", program, err)
		return 2
	}

	var handler http.Handler
	if c.Role == service.FrontEnd {
		front := stdhttp.NewFrontEnd(c)
		defer front.Close()
		handler = front
	} else {
		handler = stdhttp.NewBackEnd(c)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := service.Run(ctx, c, stdhttp.NewServer(handler), stdout); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", program, err)
		return 1
	}
	return 0
}
