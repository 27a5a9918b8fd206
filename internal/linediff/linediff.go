// Package linediff writes the unified diff (diff -u) of two texts, line by
// line, for `udtc fmt --diff`. The edit script changes the fewest lines (a
// longest common subsequence between the common prefix and suffix), and
// hunks are in the unified format patch(1) applies (ranges always
// "start,len"; a last line without a newline marked "\ No newline at end
// of file").
//
// It is kept rather than taken from a library: github.com/pmezard/go-difflib
// (unmaintained since 2016) groups hunks with Python's SequenceMatcher, which
// does not find the fewest changed lines, writes a one-line range as "3"
// where ours writes "3,1", and has no "No newline at end of file" line;
// github.com/sergi/go-diff diffs characters, and its patches are not
// unified diffs. Either would change the bytes `udtc fmt --diff` prints.
package linediff

import (
	"fmt"
	"strings"
)

// diffContext is the number of unchanged lines around each hunk.
const diffContext = 3

// maxDiffCells bounds the LCS table; past it the changed middle of the
// file is shown as one replacement (still a correct diff, just larger).
const maxDiffCells = 16 << 20

// Unified returns the unified diff (diff -u) from a to b, labelled with
// path, or "" when they are equal.
func Unified(path string, a, b []byte) string {
	x, y := splitLines(string(a)), splitLines(string(b))
	ops := lineOps(x, y)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", path, path)
	hunks := 0
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from diffContext lines before this change to diffContext
		// lines after the last change closer than 2*diffContext.
		start := max(i-diffContext, 0)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*diffContext {
				break
			}
		}
		stop := min(end+diffContext+1, len(ops))
		aStart, bStart := ops[start].ai, ops[start].bi
		var aLen, bLen int
		var body strings.Builder
		for _, op := range ops[start:stop] {
			switch op.kind {
			case ' ':
				aLen++
				bLen++
				body.WriteString(" " + x[op.ai])
			case '-':
				aLen++
				body.WriteString("-" + x[op.ai])
			case '+':
				bLen++
				body.WriteString("+" + y[op.bi])
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		sb.WriteString(body.String())
		hunks++
		i = stop
	}
	if hunks == 0 {
		return ""
	}
	return sb.String()
}

// hunkRange is a hunk header's "start,len" (1-based; a 0-length range
// names the line before it, as diff -u does).
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits s into lines that keep their "\n"; a last line
// without one gets "\n\\ No newline at end of file\n" as diff prints it.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	} else {
		lines[len(lines)-1] += "\n\\ No newline at end of file\n"
	}
	return lines
}

// lineOp is one line of an edit script: ' ' kept, '-' deleted from a,
// '+' inserted from b; ai and bi are the line indexes in a and b.
type lineOp struct {
	kind   byte
	ai, bi int
}

// lineOps is an edit script from x to y with the fewest changed lines (a
// longest common subsequence of the lines between the common prefix and
// suffix).
func lineOps(x, y []string) []lineOp {
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	var ops []lineOp
	for i := range pre {
		ops = append(ops, lineOp{' ', i, i})
	}
	mx, my := x[pre:len(x)-suf], y[pre:len(y)-suf]
	n, m := len(mx), len(my)
	if n*m > maxDiffCells {
		for i := range n {
			ops = append(ops, lineOp{'-', pre + i, pre})
		}
		for j := range m {
			ops = append(ops, lineOp{'+', pre + n, pre + j})
		}
	} else {
		// lcs[i][j] is the LCS length of mx[i:] and my[j:].
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if mx[i] == my[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && mx[i] == my[j]:
				ops = append(ops, lineOp{' ', pre + i, pre + j})
				i++
				j++
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				ops = append(ops, lineOp{'-', pre + i, pre + j})
				i++
			default:
				ops = append(ops, lineOp{'+', pre + i, pre + j})
				j++
			}
		}
	}
	for k := range suf {
		ops = append(ops, lineOp{' ', len(x) - suf + k, len(y) - suf + k})
	}
	return ops
}
