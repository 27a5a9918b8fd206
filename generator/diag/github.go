package diag

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// WriteGitHub prints diagnostics as GitHub Actions workflow commands
// (`::error file=F,line=L,col=C,title=RULE::message`), which the Actions
// runner turns into annotations on the pull request. Notes are notices. A
// diagnostic without a file is an annotation without one.
func WriteGitHub(w io.Writer, l List) error {
	bw := bufio.NewWriter(w)
	for _, d := range l {
		cmd := "error"
		switch d.Severity {
		case Warning:
			cmd = "warning"
		case Note:
			cmd = "notice"
		}
		var props []string // no file: an annotation of the run, not of a line
		if d.Span.File != "" {
			props = append(props, "file="+ghProperty(filepath.ToSlash(d.Span.File)))
		}
		if d.Span.File != "" && d.Span.Line > 0 {
			props = append(props, fmt.Sprintf("line=%d", d.Span.Line), fmt.Sprintf("col=%d", max(1, d.Span.Column)))
			if d.Span.EndLine >= d.Span.Line && d.Span.EndColumn > d.Span.Column {
				props = append(props, fmt.Sprintf("endLine=%d", d.Span.EndLine), fmt.Sprintf("endColumn=%d", d.Span.EndColumn))
			}
		}
		props = append(props, "title="+ghProperty(d.Rule))
		msg := d.Message
		if d.Hint != "" {
			msg += " (hint: " + d.Hint + ")"
		}
		fmt.Fprintf(bw, "::%s %s::%s\n", cmd, strings.Join(props, ","), ghData(msg))
	}
	return bw.Flush()
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
