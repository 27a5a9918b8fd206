package harness

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Load describes a closed-loop load run: Clients goroutines each issue one
// request at a time until Requests have been started or Duration has passed,
// whichever comes first.
type Load struct {
	Clients  int
	Requests int
	Duration time.Duration
	// Do performs request number i (0 <= i < Requests, each i exactly once)
	// and returns an error when it failed.
	Do func(ctx context.Context, i int) error
	// DoAs, when set, is called instead of Do with the number of the client
	// (0 <= client < Clients) that performs request i, for loads in which
	// each client keeps state of its own.
	DoAs func(ctx context.Context, client, i int) error
}

// LoadResult is what a load run measured. Latencies include failed requests.
type LoadResult struct {
	Requests   int
	Errors     int
	FirstError string
	Elapsed    time.Duration
	P50, P99   time.Duration
	Max        time.Duration
}

// PerSecond returns successful requests per second.
func (r LoadResult) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests-r.Errors) / r.Elapsed.Seconds()
}

// RunLoad runs l and returns its result. It stops early when ctx ends.
func RunLoad(ctx context.Context, l Load) LoadResult {
	clients := max(1, l.Clients)
	ctx, cancel := context.WithTimeout(ctx, l.Duration)
	defer cancel()
	var (
		next     atomic.Int64
		errs     atomic.Int64
		firstErr sync.Once
		first    string
		wg       sync.WaitGroup
	)
	lat := make([][]time.Duration, clients)
	start := time.Now()
	for c := range clients {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= l.Requests {
					return
				}
				t0 := time.Now()
				var err error
				if l.DoAs != nil {
					err = l.DoAs(ctx, c, i)
				} else {
					err = l.Do(ctx, i)
				}
				d := time.Since(t0)
				if err != nil {
					if ctx.Err() != nil {
						return // cut off by the time bound: not a failure
					}
					errs.Add(1)
					firstErr.Do(func() { first = err.Error() })
				}
				lat[c] = append(lat[c], d)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	all := slices.Concat(lat...)
	slices.Sort(all)
	r := LoadResult{Requests: len(all), Errors: int(errs.Load()), FirstError: first, Elapsed: elapsed}
	if len(all) > 0 {
		r.P50, r.P99, r.Max = Percentile(all, 50), Percentile(all, 99), all[len(all)-1]
	}
	return r
}

// Call sends one request and drains the response. It returns an error for a
// transport failure or a status other than the wanted ones (any 2xx when
// want is empty).
func Call(ctx context.Context, c *http.Client, method, url string, body []byte, want ...int) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	_, _ = io.Copy(io.Discard, resp.Body)
	ok := resp.StatusCode/100 == 2
	if len(want) > 0 {
		ok = slices.Contains(want, resp.StatusCode)
	}
	if !ok {
		return fmt.Errorf("%s %s: %s: %s", method, url, resp.Status, bytes.TrimSpace(msg))
	}
	return nil
}
