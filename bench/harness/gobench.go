package harness

import (
	"bufio"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Bench is one Go benchmark summarised over its -count runs.
type Bench struct {
	// Package is the import path from the "pkg:" line before it.
	Package string
	// Name without the -GOMAXPROCS suffix, e.g. "BenchmarkGet/parallel".
	Name string
	Runs int
	// Metrics maps a unit ("ns/op", "B/op", "allocs/op", "MB/s" or a
	// custom b.ReportMetric unit) to its median over the runs.
	Metrics map[string]float64
}

var benchLine = regexp.MustCompile(`^(Benchmark\S*?)(-\d+)?\s+(\d+)\s+(.*)$`)

// ParseGoBench reads `go test -bench` output and returns one Bench per
// package and name, in order of first appearance, with medians over repeated
// runs (-count). Lines that are not results are ignored.
func ParseGoBench(r io.Reader) ([]Bench, error) {
	type key struct{ pkg, name string }
	var order []key
	samples := map[key]map[string][]float64{}
	runs := map[key]int{}
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimSpace(p)
			continue
		}
		m := benchLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		fields := strings.Fields(m[4])
		if len(fields) < 2 || len(fields)%2 != 0 {
			continue
		}
		k := key{pkg, m[1]}
		if _, seen := samples[k]; !seen {
			order = append(order, k)
			samples[k] = map[string][]float64{}
		}
		runs[k]++
		for i := 0; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				continue
			}
			samples[k][fields[i+1]] = append(samples[k][fields[i+1]], v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	out := make([]Bench, 0, len(order))
	for _, k := range order {
		b := Bench{Package: k.pkg, Name: k.name, Runs: runs[k], Metrics: map[string]float64{}}
		for unit, vs := range samples[k] {
			b.Metrics[unit] = Median(vs)
		}
		out = append(out, b)
	}
	return out, nil
}

// Units returns the metric units of b, the standard ones first.
func (b Bench) Units() []string {
	std := []string{"ns/op", "MB/s", "B/op", "allocs/op"}
	var out, rest []string
	for _, u := range std {
		if _, ok := b.Metrics[u]; ok {
			out = append(out, u)
		}
	}
	for u := range b.Metrics {
		if !slices.Contains(std, u) {
			rest = append(rest, u)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}
