package contract

import (
	"crypto/rand"
	"encoding/binary"
	"sync/atomic"
)

// IdempotencyKeyHeader carries the forward's key: a back-end persists a forward whose key it has persisted already
// only once (IETF draft-ietf-httpapi-idempotency-key-header), as the .NET front-end sends it on every forward
// (src/Ingest.Core/Forwarding/BackEndForwarder.cs) and its back-end honours it (src/Ingest.Core/Sinks/IdempotencyGuard.cs).
const IdempotencyKeyHeader = "Idempotency-Key"

// IdempotencyKeyLength is the length of the keys the front-ends send: 32 lowercase hexadecimal digits, the .NET
// front-end's Guid formatted "N".
const IdempotencyKeyLength = 32

// MaxIdempotencyKeyLength is the longest key a back-end honours; a longer one is ignored (the forward is persisted as
// is), as in the .NET back-end.
const MaxIdempotencyKeyLength = 128

// The key source: a per-process random seed and a counter. Each half of a key is the counter's value run through a
// bijective 64-bit mix (splitmix64's finaliser) keyed by its own seed word, so no two keys of a process are equal (for
// 2^64 forwards) and keys of two processes collide no more often than random ones. One atomic add, no lock, no
// allocation: a forward is on the measured hot path (a Guid in .NET: 16 random bytes from a per-thread source).
var (
	keySeed    [2]uint64
	keyCounter atomic.Uint64
)

func init() {
	var seed [16]byte
	if _, err := rand.Read(seed[:]); err != nil {
		panic("contract: no random seed for Idempotency-Key: " + err.Error())
	}
	keySeed[0], keySeed[1] = binary.LittleEndian.Uint64(seed[:8]), binary.LittleEndian.Uint64(seed[8:])
}

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

const lowerHex = "0123456789abcdef"

// AppendIdempotencyKey appends a fresh key of IdempotencyKeyLength lowercase hexadecimal digits: one per forward,
// shared by every back-end the forward goes to.
func AppendIdempotencyKey(dst []byte) []byte {
	n := keyCounter.Add(1)
	var key [IdempotencyKeyLength]byte
	putHex64(key[:16], mix64(keySeed[0]+n*0x9e3779b97f4a7c15))
	putHex64(key[16:], mix64(keySeed[1]^n))
	return append(dst, key[:]...)
}

func putHex64(dst []byte, v uint64) {
	_ = dst[15]
	for i := 15; i >= 0; i-- {
		dst[i] = lowerHex[v&0xf]
		v >>= 4
	}
}
