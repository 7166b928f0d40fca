package contract

import (
	"regexp"
	"testing"
)

func TestIdempotencyKeysAreFreshLowercaseHex(t *testing.T) {
	pattern := regexp.MustCompile(`^[0-9a-f]{32}$`)
	seen := map[string]bool{}
	for i := 0; i < 100_000; i++ {
		key := string(AppendIdempotencyKey(nil))
		if !pattern.MatchString(key) || seen[key] {
			t.Fatalf("key %d: %q (repeated: %v)", i, key, seen[key])
		}
		seen[key] = true
	}
	if got := AppendIdempotencyKey([]byte("x")); len(got) != 1+IdempotencyKeyLength || got[0] != 'x' {
		t.Fatalf("appends: %q", got)
	}
}

// BenchmarkAppendIdempotencyKey is what a forward's key costs the front-ends: no allocation.
func BenchmarkAppendIdempotencyKey(b *testing.B) {
	var buf [IdempotencyKeyLength]byte
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			AppendIdempotencyKey(buf[:0])
		}
	})
}
