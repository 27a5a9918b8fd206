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

func TestEachErrReturnsTheLowestIndexErrorAndStops(t *testing.T) {
	var ran atomic.Int32
	err := EachErr(1000, func(i int) error {
		ran.Add(1)
		if i == 3 || i == 5 {
			return fmt.Errorf("item %d failed", i)
		}
		return nil
	})
	if err == nil || err.Error() != "item 3 failed" {
		t.Errorf("EachErr = %v, want item 3's error", err)
	}
	if n := ran.Load(); n > 100 {
		t.Errorf("%d calls ran; want those after the failure skipped", n)
	}
	if err := EachErr(10, func(int) error { return nil }); err != nil {
		t.Errorf("EachErr with no failure = %v", err)
	}
}
