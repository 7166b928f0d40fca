package service

import (
	"sync"

	"ingest/contract"
)

// EveryBackEnd runs send for each of n back-ends at once and returns the first back-end's problem in the order of
// -backends, or nil once all answered 2xx: both front-ends' fan-out (each sends to a single back-end itself).
func EveryBackEnd(n int, send func(i int) *contract.Problem) *contract.Problem {
	problems := make([]*contract.Problem, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			problems[i] = send(i)
		}(i)
	}
	wg.Wait()
	for _, p := range problems {
		if p != nil {
			return p
		}
	}
	return nil
}
