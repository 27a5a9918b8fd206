package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// udtcLine finds a udtc invocation in a line of a code block: at its start,
// after a prompt, or after `&&`, `;`, `(` or `$(`.
var udtcLine = regexp.MustCompile(`(?:^|\$ |&& |; |\(|\$\(|\./bin/)udtc ([^&;|)#]*)`)

// TestDocumentedCommandsExist checks every udtc command line in the README
// and docs/: its command (and subcommand) exists and every flag it passes
// is one of that command's flags. Running them is the end-to-end tests' job;
// this catches a renamed command or flag that the docs still show.
func TestDocumentedCommandsExist(t *testing.T) {
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	cmds := commands(&env{})
	checked := 0
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		var lines []string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			lines = append(lines, sc.Text())
		}
		inBlock, lang := false, ""
		for n, line := range lines {
			n++
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inBlock, lang = !inBlock, strings.TrimPrefix(strings.TrimSpace(line), "```")
				continue
			}
			if !inBlock || (lang != "sh" && lang != "console" && lang != "bash" && lang != "") {
				continue
			}
			if lang == "console" && !strings.HasPrefix(line, "$ ") {
				continue // output
			}
			if lang == "console" && n < len(lines) && strings.HasPrefix(lines[n], "udtc: ") &&
				(strings.Contains(lines[n], "is not a udtc command") || strings.Contains(lines[n], "unknown flag")) {
				continue // a deliberate mistake, shown with its usage error
			}
			for _, m := range udtcLine.FindAllStringSubmatch(line, -1) {
				checked++
				if msg := checkInvocation(cmds, strings.Fields(m[1])); msg != "" {
					t.Errorf("%s:%d: udtc %s: %s", file, n, m[1], msg)
				}
			}
		}
		f.Close()
	}
	if checked < 30 {
		t.Errorf("checked %d documented udtc command lines, want at least 30", checked)
	}
}

func checkInvocation(cmds []*cli.Command, words []string) string {
	var cmd *cli.Command
	i := 0
	for list := cmds; i < len(words); i++ {
		next := find(list, words[i])
		if next == nil {
			break
		}
		cmd, list = next, next.Subcommands
	}
	if cmd == nil {
		if len(words) > 0 && (words[0] == "--version" || words[0] == "--help") {
			return ""
		}
		return "no such command"
	}
	for _, w := range words[i:] {
		if !strings.HasPrefix(w, "-") || w == "-" || w == "--" {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(w, "-"), "=")
		if name == "help" || name == "h" || strings.ContainsAny(name, "*.[") {
			continue
		}
		known := false
		for _, f := range cmd.Flags {
			for _, n := range f.Names() {
				known = known || n == name
			}
		}
		if !known {
			return "unknown flag " + w
		}
	}
	return ""
}

// TestHelpExamplesExist checks the examples --help shows the same way.
func TestHelpExamplesExist(t *testing.T) {
	cmds := commands(&env{})
	for path, list := range examples {
		for _, ex := range list {
			for _, m := range udtcLine.FindAllStringSubmatch(ex, -1) {
				if msg := checkInvocation(cmds, strings.Fields(m[1])); msg != "" {
					t.Errorf("example of %s: %s: %s", path, ex, msg)
				}
			}
		}
	}
}
