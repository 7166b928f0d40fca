// Package server is the Go net/http baseline of Ingest: the front-end and back-end of docs/contract.md, and
// the pieces of HTTP the fasthttp front-end shares (configuration, forward body, fixed answers).
package server

import (
	"fmt"
	"strings"
	"time"
)

// Config is what the command-line flags set; the same for both roles and both HTTP stacks.
type Config struct {
	// BackEnds are the back-end base URLs every event is forwarded to (front-end).
	BackEnds []string
	// Client is "pooled" (one shared client, idle connections kept) or "per-request" (a new transport per
	// forward with keep-alive off: the 2016 original's fix, one TCP connection per forward).
	Client string
	// MaxIdlePerHost is the pooled client's idle connections per back-end (Go's default of 2 is a
	// TIME_WAIT trap under load).
	MaxIdlePerHost int
	// Timeout bounds a forward; beyond it the caller gets 504.
	Timeout time.Duration
	// MaxBodyBytes bounds a request body; beyond it 413.
	MaxBodyBytes int
	// MaxBatchEvents bounds the events of one request; beyond it 413.
	MaxBatchEvents int
	// DropOneIn makes the back-end acknowledge but drop one event in N (0 = never): a fault for loss checks.
	DropOneIn int64
	// Delay makes the back-end wait before persisting (honouring the caller's abort).
	Delay time.Duration
}

// Validate returns one message per problem, each naming its flag.
func (c Config) Validate(role string) []string {
	var problems []string
	if role == "frontend" {
		if len(c.BackEnds) == 0 {
			problems = append(problems, "-backends is empty: give at least one back-end URL, e.g. -backends http://127.0.0.1:5001")
		}
		for _, b := range c.BackEnds {
			if !strings.HasPrefix(b, "http://") {
				problems = append(problems, fmt.Sprintf("-backends: '%s' is not an http:// URL", b))
			}
		}
		if c.Client != "pooled" && c.Client != "per-request" {
			problems = append(problems, fmt.Sprintf("-client = '%s': use pooled or per-request", c.Client))
		}
	}
	if c.MaxIdlePerHost < 1 {
		problems = append(problems, "-max-idle-per-host must be at least 1")
	}
	if c.Timeout <= 0 {
		problems = append(problems, "-timeout-ms must be above 0")
	}
	if c.MaxBodyBytes < 1 || c.MaxBatchEvents < 1 {
		problems = append(problems, "-max-body-bytes and -max-batch-events must be at least 1")
	}
	if c.DropOneIn < 0 || c.Delay < 0 {
		problems = append(problems, "-drop-one-in and -delay-ms cannot be negative")
	}
	return problems
}

// Describe is the start-up line's configuration.
func (c Config) Describe(role, stack string) string {
	if role == "frontend" {
		return fmt.Sprintf("role=FrontEnd stack=%s clients=%s max-idle-per-host=%d timeout=%s backends=%s max-body=%d max-batch=%d",
			stack, c.Client, c.MaxIdlePerHost, c.Timeout, strings.Join(c.BackEnds, ","), c.MaxBodyBytes, c.MaxBatchEvents)
	}
	return fmt.Sprintf("role=BackEnd stack=%s sink=count drop-one-in=%d delay=%s max-body=%d", stack, c.DropOneIn, c.Delay, c.MaxBodyBytes)
}
