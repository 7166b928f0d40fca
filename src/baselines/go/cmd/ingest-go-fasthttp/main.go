// Command ingest-go-fasthttp is the Go flow on valyala/fasthttp, one binary for both halves, with the command line of
// ingest-go (less the net/http client's flags):
//
//	ingest-go-fasthttp -role backend  -listen 127.0.0.1:5001
//	ingest-go-fasthttp -role frontend -listen 127.0.0.1:5000 -backends http://127.0.0.1:5001
//
// The role defaults to frontend. It prints its configuration, then "Application started." once it listens, and shuts
// down gracefully on SIGTERM or SIGINT. Run with -h for every flag.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"ingest/fast"
	"ingest/service"
)

const program = "ingest-go-fasthttp"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	c, err := service.Parse(program, service.FastHTTP, args, stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, service.ErrUsage):
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n", program, err)
		return 2
	}

	var srv *fast.Server
	if c.Role == service.FrontEnd {
		srv = fast.NewFrontEnd(c).Server()
	} else {
		srv = fast.NewBackEnd(c).Server()
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := service.Run(ctx, c, srv, stdout); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", program, err)
		return 1
	}
	return 0
}
