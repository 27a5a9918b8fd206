package harness

import (
	"fmt"
	"github.com/udtc/udtc/schema/pattern"
	"math"
	"strings"
	"time"
)

// Target is a goal from the benchmark issue with what was measured.
type Target struct {
	Name string
	// Goal is the limit in Unit; Higher means the measured value must be at
	// least Goal (throughput), otherwise at most Goal (time, memory).
	Goal   float64
	Unit   string
	Higher bool
	// Value is the measurement, valid when Have.
	Value float64
	Have  bool
	// Why explains a missing measurement ("udtc publish not available").
	Why string
}

// Verdict returns "met", "missed by N%" or "not available".
func (t Target) Verdict() string {
	switch {
	case !t.Have:
		return "not available"
	case t.Higher && t.Value >= t.Goal, !t.Higher && t.Value <= t.Goal:
		return "met"
	case t.Higher:
		return fmt.Sprintf("missed by %.0f%%", math.Ceil((1-t.Value/t.Goal)*100))
	case t.Goal == 0:
		return "missed"
	default:
		return fmt.Sprintf("missed by %.0f%%", math.Ceil((t.Value/t.Goal-1)*100))
	}
}

func (t Target) goal() string {
	op := "≤"
	if t.Higher {
		op = "≥"
	}
	return op + " " + Num(t.Goal) + " " + t.Unit
}

func (t Target) measured() string {
	if !t.Have {
		if t.Why != "" {
			return t.Why
		}
		return "—"
	}
	return Num(t.Value) + " " + t.Unit
}

// Table is one section of the report.
type Table struct {
	Title  string
	Note   string
	Header []string
	Rows   [][]string
}

// Report is the whole of docs/benchmarks.md.
type Report struct {
	Title   string
	Date    time.Time
	Machine Machine
	// Preamble lines (how it was run, the commit).
	Preamble []string
	Targets  []Target
	Tables   []Table
	// Notes are free paragraphs at the end (what limits a missed target).
	Notes []string
}

// Markdown renders the report.
func (r Report) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", r.Title)
	b.WriteString("<!-- Written by `make bench` (go run ./bench/cmd/harness); do not edit by hand. -->\n\n")
	fmt.Fprintf(&b, "- Date: %s\n", r.Date.UTC().Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "- Machine: %s\n", r.Machine)
	for _, p := range r.Preamble {
		fmt.Fprintf(&b, "- %s\n", p)
	}
	b.WriteString("\n")
	if len(r.Targets) > 0 {
		writeTable(&b, Table{Title: "Targets", Header: []string{"Target", "Goal", "Measured", "Verdict"}, Rows: targetRows(r.Targets)})
	}
	for _, t := range r.Tables {
		writeTable(&b, t)
	}
	if len(r.Notes) > 0 {
		b.WriteString("## Notes\n\n")
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "%s\n\n", strings.TrimSpace(n))
		}
	}
	return b.String()
}

func targetRows(ts []Target) [][]string {
	rows := make([][]string, len(ts))
	for i, t := range ts {
		rows[i] = []string{t.Name, t.goal(), t.measured(), t.Verdict()}
	}
	return rows
}

func writeTable(b *strings.Builder, t Table) {
	fmt.Fprintf(b, "## %s\n\n", t.Title)
	if t.Note != "" {
		fmt.Fprintf(b, "%s\n\n", strings.TrimSpace(t.Note))
	}
	if len(t.Rows) == 0 {
		b.WriteString("Nothing measured.\n\n")
		return
	}
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			fmt.Fprintf(b, " %s |", cell(c))
		}
		b.WriteString("\n")
	}
	row(t.Header)
	b.WriteString("|")
	for range t.Header {
		b.WriteString(" --- |")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		row(r)
	}
	b.WriteString("\n")
}

// cell makes s safe inside a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// Num formats a number with three significant digits at most and
// thousands separators ("23,400", "1.25", "0.042").
func Num(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1000:
		return pattern.Thousands(int64(math.Round(v)))
	case a >= 100:
		return fmt.Sprintf("%.0f", v)
	case a >= 10:
		return trim(fmt.Sprintf("%.1f", v))
	case a >= 1:
		return trim(fmt.Sprintf("%.2f", v))
	case a == 0:
		return "0"
	default:
		return trim(fmt.Sprintf("%.3g", v))
	}
}

func trim(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// Seconds formats d in seconds ("1.23 s").
func Seconds(d time.Duration) string { return Num(d.Seconds()) + " s" }

// Millis formats d in milliseconds ("0.42 ms").
func Millis(d time.Duration) string { return Num(float64(d)/float64(time.Millisecond)) + " ms" }

// MB formats a byte count in megabytes (10^6, "23.8 MB").
func MB(n int64) string { return Num(float64(n)/1e6) + " MB" }
