// Command ingest-go is the Go net/http baseline of Ingest: the front-end (-role frontend) or the back-end
// (-role backend) of docs/contract.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"ingest/server"
)

func main() {
	role := flag.String("role", "", "frontend or backend")
	listen := flag.String("listen", "127.0.0.1:5000", "address to listen on (port 0: any free port)")
	config := server.RegisterFlags(flag.CommandLine)
	flag.Parse()
	cfg := config()

	problems := cfg.Validate(*role)
	if *role != "frontend" && *role != "backend" {
		problems = append([]string{fmt.Sprintf("-role = '%s': use frontend or backend", *role)}, problems...)
	}
	if len(problems) > 0 {
		fmt.Fprintln(os.Stderr, strings.Join(problems, "\n"))
		os.Exit(2)
	}

	var handler http.Handler
	if *role == "frontend" {
		handler = server.NewFrontEnd(cfg)
	} else {
		handler, _ = server.NewBackEnd(cfg)
	}
	listener, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot listen on %s: %v\n", *listen, err)
		os.Exit(1)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("Ingest listening on http://%s: %s\n", listener.Addr(), cfg.Describe(*role, "go-net-http"))
	fmt.Println("Application started.")

	done := make(chan struct{})
	go func() {
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
		<-signals
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
		close(done)
	}()
	if err := srv.Serve(listener); err != nil && err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	<-done
}
