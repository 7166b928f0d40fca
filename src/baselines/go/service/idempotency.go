package service

import (
	"sync"
	"sync/atomic"
	"time"

	"ingest/contract"
)

// The idempotency window's bounds, the .NET back-end's defaults (src/Ingest.Core/Sinks/IdempotencyOptions.cs): a
// persisted key is remembered for 300 s, and at most 200,000 of them (.NET sizes its window from memory, at most that).
const (
	IdempotencyCapacity = 200_000
	IdempotencyWindow   = 300 * time.Second
)

// idempotencyShards spreads keys over this many locks, so forwards on different cores rarely wait on one another.
const idempotencyShards = 16

// Idempotency persists a forward carrying an Idempotency-Key once, as the .NET back-end's IdempotencyGuard: a repeat
// of a key persisted within the window is acknowledged without persisting again, and a repeat arriving while the
// first attempt is still persisting waits for that attempt's outcome. A key whose persist failed is forgotten, so
// a retry can try again. Memory is bounded: at most IdempotencyCapacity keys, each 40 bytes of ring plus its map
// entry, the ring of a shard allocated at its first key.
type Idempotency struct {
	shards     [idempotencyShards]keyShard
	duplicates atomic.Int64
	window     time.Duration
	start      time.Time // the clock's origin: the time of a key is time.Since(start), monotonic
}

// windowKey is a key as remembered: 32 lowercase hexadecimal digits (what the front-ends send) packed as their 16
// bytes, any other key as its text. Two keys are equal exactly when their texts are: only the lowercase form is
// packed, so "AB…" and "ab…" stay two keys, as in .NET's WindowKey.
type windowKey struct {
	packed [16]byte
	text   string
}

type keyShard struct {
	mu        sync.Mutex
	persisted map[windowKey]struct{}
	inFlight  map[windowKey]*flight // nil value until a repeat waits on the first attempt
	ring      []keyAt               // persisted keys oldest first from head; allocated at the first key, never grown
	head, n   int
	capacity  int
	_         [40]byte // keeps neighbouring shards' locks off one cache line
}

type keyAt struct {
	key windowKey
	at  time.Duration
}

type flight struct {
	done chan struct{}
	err  error
}

// NewIdempotency makes a guard holding at most capacity keys for window each.
func NewIdempotency(capacity int, window time.Duration) *Idempotency {
	g := &Idempotency{window: window, start: time.Now()}
	per := (capacity + idempotencyShards - 1) / idempotencyShards
	for i := range g.shards {
		g.shards[i].capacity = per
		g.shards[i].persisted = map[windowKey]struct{}{}
		g.shards[i].inFlight = map[windowKey]*flight{}
	}
	return g
}

// Duplicates counts the forwards acknowledged again without being persisted again.
func (g *Idempotency) Duplicates() int64 { return g.duplicates.Load() }

// Remembered counts the persisted keys held now.
func (g *Idempotency) Remembered() int {
	total := 0
	for i := range g.shards {
		s := &g.shards[i]
		s.mu.Lock()
		total += s.n
		s.mu.Unlock()
	}
	return total
}

// Once runs persist unless a forward with this key was persisted within the window (or is being persisted: then it
// waits for that outcome and returns its error). A key that is empty or longer than MaxIdempotencyKeyLength is no key:
// persist runs. Once returns persist's error, and forgets the key when persist failed.
func Once[T string | []byte](g *Idempotency, key T, persist func() error) error {
	if len(key) == 0 || len(key) > contract.MaxIdempotencyKeyLength {
		return persist()
	}
	k, home := makeWindowKey(key)
	s := &g.shards[home%idempotencyShards]
	s.mu.Lock()
	now := time.Since(g.start)
	s.evict(now, g.window)
	if _, ok := s.persisted[k]; ok {
		s.mu.Unlock()
		g.duplicates.Add(1)
		return nil
	}
	if f, running := s.inFlight[k]; running {
		// Another attempt of the same forward got here first: its outcome is ours.
		if f == nil {
			f = &flight{done: make(chan struct{})}
			s.inFlight[k] = f
		}
		s.mu.Unlock()
		<-f.done
		if f.err == nil {
			g.duplicates.Add(1)
		}
		return f.err
	}
	s.inFlight[k] = nil
	if s.ring == nil {
		s.ring = make([]keyAt, s.capacity)
	}
	s.mu.Unlock()

	err := persist()

	s.mu.Lock()
	f := s.inFlight[k]
	delete(s.inFlight, k)
	if err == nil {
		now = time.Since(g.start)
		if s.n == len(s.ring) {
			s.removeOldest()
		}
		s.ring[(s.head+s.n)%len(s.ring)] = keyAt{k, now}
		s.n++
		s.persisted[k] = struct{}{}
		s.evict(now, g.window)
	}
	s.mu.Unlock()
	if f != nil {
		f.err = err
		close(f.done)
	}
	return err
}

// evict forgets the persisted keys older than the window. Called under the shard's lock.
func (s *keyShard) evict(now, window time.Duration) {
	for s.n > 0 && now-s.ring[s.head].at > window {
		s.removeOldest()
	}
}

func (s *keyShard) removeOldest() {
	delete(s.persisted, s.ring[s.head].key)
	s.ring[s.head] = keyAt{}
	s.head = (s.head + 1) % len(s.ring)
	s.n--
}

// makeWindowKey packs a key of 32 lowercase hexadecimal digits into its 16 bytes (no allocation); any other key is kept
// as its text. home picks the shard.
func makeWindowKey[T string | []byte](key T) (k windowKey, home int) {
	if len(key) == contract.IdempotencyKeyLength {
		packed := true
		for i := 0; i < len(key) && packed; i += 2 {
			hi, okHi := lowerHexValue(key[i])
			lo, okLo := lowerHexValue(key[i+1])
			k.packed[i/2] = hi<<4 | lo
			packed = okHi && okLo
		}
		if packed {
			return k, int(k.packed[0]) // the front-ends' keys are random: their first byte spreads them
		}
		k.packed = [16]byte{}
	}
	k.text = string(key)
	h := uint32(2166136261) // FNV-1a
	for i := 0; i < len(key); i++ {
		h = (h ^ uint32(key[i])) * 16777619
	}
	return k, int(h % idempotencyShards)
}

func lowerHexValue(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}
