package par

import (
	"fmt"
	"sync/atomic"
	"testing"
)

func TestEachOn(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 64} {
		var running, most atomic.Int64
		done := make([]int, 100)
		EachOn(workers, len(done), func(i int) {
			n := running.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			done[i]++
			running.Add(-1)
		})
		for i, d := range done {
			if d != 1 {
				t.Fatalf("workers %d: index %d done %d times", workers, i, d)
			}
		}
		if limit := int64(max(1, workers)); most.Load() > limit {
			t.Errorf("workers %d: %d calls ran at once", workers, most.Load())
		}
	}
	Each(0, func(int) { t.Error("called for n = 0") })
}

func TestEachErrReturnsTheLowestIndexError(t *testing.T) {
	// Whatever the schedule, the error is the one a loop from 0 meets
	// first: run it often, with every index failing or only some.
	for run := range 200 {
		err := EachErr(100, func(i int) error {
			if run%2 == 0 || i == 3 || i == 5 || i > 50 {
				return fmt.Errorf("item %d failed", i)
			}
			return nil
		})
		want := "item 3 failed"
		if run%2 == 0 {
			want = "item 0 failed"
		}
		if err == nil || err.Error() != want {
			t.Fatalf("run %d: EachErr = %v, want %s", run, err, want)
		}
	}
	var ran atomic.Int32
	if err := EachErr(10, func(int) error { ran.Add(1); return nil }); err != nil || ran.Load() != 10 {
		t.Errorf("EachErr with no failure = %v after %d calls; want nil after 10", err, ran.Load())
	}
}
