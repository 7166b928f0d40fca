package service

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"ingest/contract"
)

func TestIdempotencyPersistsAKeyOnceAndNoKeyAlways(t *testing.T) {
	g := NewIdempotency(IdempotencyCapacity, IdempotencyWindow)
	runs := 0
	persist := func() error { runs++; return nil }
	key := string(contract.AppendIdempotencyKey(nil))
	for _, k := range []string{key, key, strings.ToUpper(key), "retry-1", "retry-1", "", "", strings.Repeat("k", 129), strings.Repeat("k", 129)} {
		if err := Once(g, k, persist); err != nil {
			t.Fatal(err)
		}
	}
	if err := Once(g, []byte(key), persist); err != nil { // the same key as bytes, as fasthttp hands it over
		t.Fatal(err)
	}
	if runs != 7 || g.Duplicates() != 3 || g.Remembered() != 3 {
		t.Fatalf("persisted %d times, %d duplicates, %d remembered; want 7, 3, 3", runs, g.Duplicates(), g.Remembered())
	}
}

func TestIdempotencyForgetsAKeyWhosePersistFailed(t *testing.T) {
	g := NewIdempotency(IdempotencyCapacity, IdempotencyWindow)
	failure := errors.New("store down")
	if err := Once(g, "k", func() error { return failure }); err != failure {
		t.Fatal(err)
	}
	runs := 0
	_ = Once(g, "k", func() error { runs++; return nil })
	_ = Once(g, "k", func() error { runs++; return nil })
	if runs != 1 {
		t.Fatalf("the retry persisted %d times; want once", runs)
	}
}

func TestIdempotencyARepeatWaitsForTheFirstAttemptsOutcome(t *testing.T) {
	for _, outcome := range []error{nil, errors.New("store down")} {
		g := NewIdempotency(IdempotencyCapacity, IdempotencyWindow)
		started, release := make(chan struct{}), make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = Once(g, "k", func() error { close(started); <-release; return outcome })
		}()
		<-started
		repeat := make(chan error, 1)
		go func() { repeat <- Once(g, "k", func() error { t.Error("the repeat persisted"); return nil }) }()
		time.Sleep(20 * time.Millisecond)
		close(release)
		if err := <-repeat; err != outcome {
			t.Fatalf("the repeat returned %v; want the first attempt's %v", err, outcome)
		}
		wg.Wait()
	}
}

func TestIdempotencyIsBoundedByCapacityAndWindow(t *testing.T) {
	// One key per shard: two keys in the same shard (the same first byte) leave room for the newer only.
	g := NewIdempotency(idempotencyShards, time.Hour)
	first, second := "00"+strings.Repeat("1", 30), "00"+strings.Repeat("2", 30)
	runs := 0
	persist := func() error { runs++; return nil }
	for _, k := range []string{first, second, second, first} {
		_ = Once(g, k, persist)
	}
	if runs != 3 || g.Remembered() != 1 {
		t.Fatalf("persisted %d times, %d remembered; want 3 (the first key was evicted), 1", runs, g.Remembered())
	}

	g = NewIdempotency(IdempotencyCapacity, 20*time.Millisecond)
	_ = Once(g, first, persist)
	time.Sleep(40 * time.Millisecond)
	_ = Once(g, first, persist)
	if runs != 5 {
		t.Fatalf("a key older than the window was still remembered")
	}
}

// BenchmarkIdempotencyOnce is what the guard costs a back-end's forward with a fresh key: the window's lock, its
// maps and ring (allocated once, at a shard's first key).
func BenchmarkIdempotencyOnce(b *testing.B) {
	g := NewIdempotency(IdempotencyCapacity, IdempotencyWindow)
	persist := func() error { return nil }
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		var key [contract.IdempotencyKeyLength]byte
		for pb.Next() {
			_ = Once(g, contract.AppendIdempotencyKey(key[:0]), persist)
		}
	})
}
