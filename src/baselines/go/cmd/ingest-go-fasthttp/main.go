// Command ingest-go-fasthttp is the Go fasthttp front-end of Ingest (docs/contract.md), forwarding with
// fasthttp's pooled client to the back-ends given by -backends.
package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"ingest/fastfront"
	"ingest/server"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:5000", "address to listen on (port 0: any free port)")
	config := server.RegisterFlags(flag.CommandLine)
	flag.Parse()
	cfg := config()
	problems := cfg.Validate("frontend")
	if cfg.Client != "pooled" {
		problems = append(problems, "-client: the fasthttp front-end forwards with fasthttp's pooled client only")
	}
	if len(problems) > 0 {
		fmt.Fprintln(os.Stderr, strings.Join(problems, "\n"))
		os.Exit(2)
	}

	srv := fastfront.NewServer(cfg)
	listener, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot listen on %s: %v\n", *listen, err)
		os.Exit(1)
	}
	fmt.Printf("Ingest listening on http://%s: %s\n", listener.Addr(), cfg.Describe("frontend", "go-fasthttp"))
	fmt.Println("Application started.")

	go func() {
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
		<-signals
		_ = srv.Shutdown()
	}()
	if err := srv.Serve(listener); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
