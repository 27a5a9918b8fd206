package project

import (
	"context"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/udtc/udtc/generator"
)

// Fingerprint is the list of the input files of paths (generator.Expand)
// with their sizes and modification times, and those of the project file
// found from the working directory: it changes when a file is added,
// removed or written (`udtc check --watch`, `udtc gen --watch`).
// Unreadable inputs are part of it too (as an error).
func Fingerprint(paths []string) string {
	var b strings.Builder
	inputs, err := generator.Expand(paths)
	if err != nil {
		b.WriteString(err.Error())
	}
	files := make([]string, 0, len(inputs)+1)
	for _, in := range inputs {
		files = append(files, in.Path)
	}
	if wd, err := os.Getwd(); err == nil {
		if p, _ := Find(wd); p != "" {
			files = append(files, p)
		}
	}
	for _, p := range files {
		b.WriteString(p)
		if st, err := os.Stat(p); err == nil {
			b.WriteString(" " + strconv.FormatInt(st.Size(), 10) + " " + strconv.FormatInt(st.ModTime().UnixNano(), 10))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Watch calls run, then calls it again whenever the Fingerprint of paths()
// changes, looking every interval, until ctx is done or SIGINT or SIGTERM
// arrives (`udtc check --watch`, `udtc gen --watch`).
func Watch(ctx context.Context, interval time.Duration, paths func() []string, run func()) {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	last := ""
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		if fp := Fingerprint(paths()); fp != last {
			last = fp
			run()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
