package server

import (
	"flag"
	"strings"
	"time"
)

// RegisterFlags declares the flags both binaries share on fs and returns a function that builds the
// Config once fs is parsed.
func RegisterFlags(fs *flag.FlagSet) func() Config {
	var c Config
	backEnds := fs.String("backends", "", "comma-separated back-end base URLs (front-end)")
	fs.StringVar(&c.Client, "client", "pooled", "pooled or per-request (front-end)")
	fs.IntVar(&c.MaxIdlePerHost, "max-idle-per-host", 100, "pooled client's idle connections per back-end")
	timeoutMs := fs.Int("timeout-ms", 5000, "forward timeout in ms; beyond it 504")
	fs.IntVar(&c.MaxBodyBytes, "max-body-bytes", 1<<20, "largest request body; beyond it 413")
	fs.IntVar(&c.MaxBatchEvents, "max-batch-events", 1000, "most events per request; beyond it 413")
	fs.Int64Var(&c.DropOneIn, "drop-one-in", 0, "back-end fault: acknowledge but drop one event in N (0 = never)")
	delayMs := fs.Int("delay-ms", 0, "back-end fault: wait this long before persisting")
	return func() Config {
		for _, b := range strings.Split(*backEnds, ",") {
			if b = strings.TrimSpace(b); b != "" {
				c.BackEnds = append(c.BackEnds, b)
			}
		}
		c.Timeout = time.Duration(*timeoutMs) * time.Millisecond
		c.Delay = time.Duration(*delayMs) * time.Millisecond
		return c
	}
}
