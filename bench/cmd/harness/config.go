package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/udtc/udtc/bench/synth"
)

// config is the harness's flags.
type config struct {
	args       []string // as given, for the report
	runs       int
	sizes      []int
	versions   int
	namespaces int
	seed       uint64
	out        string
	work       string
	keep       bool
	udtc       string
	radius     string
	timeout    time.Duration
	stepLimit  time.Duration
	slow       time.Duration
	budget     time.Duration

	clients   int
	providers int
	getReqs   int
	putReqs   int
	loadTime  time.Duration

	resourceClients int

	benchCount int
	benchTime  string
	skip       map[string]bool
}

// sections the harness can skip with -skip.
var sections = []string{"check", "gen", "shapes", "gocompile", "registry", "mixed", "resources", "publish", "gobench", "profile"}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	c := &config{args: args}
	fs := flag.NewFlagSet("harness", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&c.runs, "runs", 3, "runs per measurement; the report shows medians")
	sizes := fs.String("sizes", "100,1000,5000", "catalog sizes in types (total across namespaces)")
	fs.IntVar(&c.versions, "versions", synth.Reference.Versions, "API versions per type")
	fs.IntVar(&c.namespaces, "namespaces", synth.Reference.Namespaces, "namespaces per catalog")
	fs.Uint64Var(&c.seed, "seed", synth.Reference.Seed, "catalog seed")
	fs.StringVar(&c.out, "out", "docs/benchmarks.md", "report path (relative to the repository root); - for stdout")
	fs.StringVar(&c.work, "work", "", "work directory (default: a new temporary directory, removed afterwards)")
	fs.BoolVar(&c.keep, "keep", false, "keep the work directory")
	fs.StringVar(&c.udtc, "udtc", "", "udtc binary to measure (default: build ./cmd/udtc)")
	fs.StringVar(&c.radius, "radius", "", "Radius source tree (a clone of github.com/radius-project/radius) to build its validator and manifest-to-bicep from, timed beside udtc check and gen --target bicep (default: ../radius beside the repository when it is one; without one the ratios use recorded times)")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Minute, "limit for any one udtc command")
	fs.DurationVar(&c.stepLimit, "step-limit", 3*time.Minute, "limit for one go build of the generated client and for one package's go test -bench")
	fs.DurationVar(&c.slow, "slow", 20*time.Second, "a command whose run takes longer is not repeated (its noise is small next to its duration)")
	fs.DurationVar(&c.budget, "budget", 3*time.Minute, "skip a size when the run at the previous size predicts (linearly) a single run longer than this")
	fs.IntVar(&c.clients, "clients", 8, "concurrent registry clients")
	fs.IntVar(&c.providers, "providers", 1000, "providers registered before the registry load runs")
	fs.IntVar(&c.getReqs, "get-requests", 60000, "requests per GET load run (also bounded by -load-time)")
	fs.IntVar(&c.putReqs, "put-requests", 10000, "requests per PUT load run (also bounded by -load-time)")
	fs.IntVar(&c.resourceClients, "resource-clients", 16, "concurrent clients of the resources load (the targets are stated for 16)")
	fs.DurationVar(&c.loadTime, "load-time", 5*time.Second, "time bound of one load run")
	fs.IntVar(&c.benchCount, "bench-count", 3, "go test -count for Go benchmarks")
	fs.StringVar(&c.benchTime, "benchtime", "1s", "go test -benchtime for Go benchmarks")
	skip := fs.String("skip", "", "comma-separated sections to skip: "+strings.Join(sections, ","))
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	for f := range strings.SplitSeq(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-sizes: %q is not a positive number", f)
		}
		c.sizes = append(c.sizes, n)
	}
	slices.Sort(c.sizes)
	c.sizes = slices.Compact(c.sizes)
	c.skip = map[string]bool{}
	for s := range strings.SplitSeq(*skip, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if !slices.Contains(sections, s) {
			return nil, fmt.Errorf("-skip: unknown section %q (have %s)", s, strings.Join(sections, ","))
		}
		c.skip[s] = true
	}
	switch {
	case c.runs < 1:
		return nil, fmt.Errorf("-runs must be at least 1")
	case c.clients < 1, c.resourceClients < 1:
		return nil, fmt.Errorf("-clients and -resource-clients must be at least 1")
	case c.providers < 1:
		return nil, fmt.Errorf("-providers must be at least 1")
	}
	return c, nil
}

// reference is the catalog size the targets are stated for.
var reference = synth.Reference.Types
