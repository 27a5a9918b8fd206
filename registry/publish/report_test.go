package publish_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/udtc/udtc/registry/publish"
)

// TestWaitingPrinter: a waiting write is shown once past WaitingFirst,
// then every WaitingEvery, each write on its own.
func TestWaitingPrinter(t *testing.T) {
	var stderr bytes.Buffer
	w := publish.WaitingPrinter(&stderr)
	a := publish.Change{Kind: publish.KindProvider, Namespace: "Contoso.Data"}
	b := publish.Change{Kind: publish.KindLocation, Namespace: "Contoso.Data", Location: "global"}
	for _, s := range []struct {
		c       publish.Change
		state   string
		elapsed time.Duration
	}{
		{a, "Accepted", publish.WaitingFirst / 2},
		{a, "Updating", publish.WaitingFirst},
		{a, "Updating", publish.WaitingFirst + publish.WaitingEvery/2},
		{b, "waiting for another write", publish.WaitingFirst + time.Second},
		{a, "Updating", publish.WaitingFirst + publish.WaitingEvery},
	} {
		w(s.c, s.state, s.elapsed)
	}
	want := "  waiting: Contoso.Data Updating (2s)\n" +
		"  waiting: Contoso.Data location global waiting for another write (3s)\n" +
		"  waiting: Contoso.Data Updating (12s)\n"
	if stderr.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", stderr.String(), want)
	}
}
