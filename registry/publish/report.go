package publish

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Report is the --output json document of `udtc publish`.
type Report struct {
	Server  string         `json:"server"`
	Plane   string         `json:"plane"`
	DryRun  bool           `json:"dryRun"`
	Plan    []Change       `json:"plan"`
	Summary map[string]int `json:"summary"`
	Applied []Change       `json:"applied"`
	Failed  []FailedChange `json:"failed"`
	// Refused lists what a Radius UCP target cannot hold, one problem a
	// line; those namespaces are not published.
	Refused []string `json:"refused,omitempty"`
}

// FailedChange is a change Apply could not make, with its error's text.
type FailedChange struct {
	Change
	Error string `json:"error"`
}

// NewReport starts the report of plan, made for server and plane; refused
// is what ForUCP refused.
func NewReport(server, plane string, dryRun bool, plan *Plan, refused []string) Report {
	r := Report{Server: server, Plane: plane, DryRun: dryRun, Plan: plan.Changes,
		Summary: map[string]int{}, Applied: []Change{}, Failed: []FailedChange{}, Refused: refused}
	for _, a := range []Action{Create, Update, Unchanged, Delete} {
		r.Summary[string(a)] = plan.Count(a)
	}
	return r
}

// AddResult adds what Apply did to the report.
func (r *Report) AddResult(res Result) {
	r.Applied = append(r.Applied, res.Applied...)
	for _, f := range res.Failed {
		r.Failed = append(r.Failed, FailedChange{f.Change, f.Err.Error()})
	}
}

// ProgressPrinter returns ApplyOptions.Progress for a terminal w: it shows
// progress on one line, for runs of at least 20 writes (nil otherwise).
func ProgressPrinter(w io.Writer, total int) func(done, total int) {
	if total < 20 {
		return nil
	}
	var mu sync.Mutex
	return func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(w, "\r  applying %d/%d", done, total)
		if done == total {
			fmt.Fprintln(w)
		}
	}
}

// Waits worth a line: a write still waiting after WaitingFirst, then every
// WaitingEvery.
const (
	WaitingFirst = 2 * time.Second
	WaitingEvery = 10 * time.Second
)

// WaitingPrinter returns ApplyOptions.Waiting printing on w the writes
// that wait for a server's asynchronous operation (or for another write of
// the same resource) longer than WaitingFirst, then every WaitingEvery.
func WaitingPrinter(w io.Writer) func(c Change, state string, elapsed time.Duration) {
	var mu sync.Mutex
	printed := map[string]time.Duration{}
	return func(c Change, state string, elapsed time.Duration) {
		mu.Lock()
		defer mu.Unlock()
		last, seen := printed[c.Name()]
		if elapsed < WaitingFirst || (seen && elapsed-last < WaitingEvery) {
			return
		}
		printed[c.Name()] = elapsed
		fmt.Fprintf(w, "  waiting: %s %s (%s)\n", c.Name(), state, elapsed.Round(time.Second))
	}
}
