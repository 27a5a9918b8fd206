package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/diag"
)

// Input limits. Over a limit, Load reports one clear diagnostic and stops.
const (
	// MaxFileSize is the largest manifest file accepted.
	MaxFileSize = 10 << 20
	// MaxNodes bounds the number of YAML nodes visited, counting every
	// expansion of an alias, so alias bombs fail fast.
	MaxNodes = 1_000_000
	// MaxNesting bounds the YAML nesting depth of a document.
	MaxNesting = 256
)

// Rule ids reported by Load.
const (
	RuleFileTooLarge      = "file-too-large"
	RuleYAMLSyntax        = "yaml-syntax"
	RuleMultipleDocuments = "multiple-documents"
	RuleYAMLLimit         = "yaml-limit"
)

// Document is one loaded manifest file.
type Document struct {
	File string
	// Root is the document's top-level node (never a DocumentNode), or nil
	// when the file is empty.
	Root *yaml.Node
	// Rest holds the top-level nodes of the documents after the first, in
	// a file Load refused with multiple-documents: enough for IsManifest
	// to tell a Kubernetes file in a walked tree from a manifest.
	Rest []*yaml.Node
}

var yamlLine = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// Load parses one manifest file strictly: one YAML (or JSON) document, valid
// UTF-8, at most MaxFileSize bytes, bounded nesting and alias expansion. On
// any problem it returns a nil Document and the diagnostics, but for a file
// of several documents: that one it returns with the multiple-documents
// error and every document's top level (Root, Rest), unchecked, so that a
// directory walk can skip it when no document looks like a manifest.
func Load(file string, data []byte) (*Document, diag.List) {
	var diags diag.List
	if len(data) > MaxFileSize {
		diags.Add(diag.Diagnostic{Span: point(file, 1, 1), Rule: RuleFileTooLarge,
			Message: fmt.Sprintf("file is larger than the %d-byte (10 MiB) limit for a manifest", MaxFileSize),
			Hint:    "split the namespace across several files: files that declare the same namespace are merged"})
		return nil, diags
	}
	if !utf8.Valid(data) {
		line, col := invalidUTF8(data)
		diags.Add(diag.Diagnostic{Span: point(file, line, col), Rule: RuleYAMLSyntax,
			Message: "file is not valid UTF-8", Hint: "save the file as UTF-8"})
		return nil, diags
	}
	if bytes.IndexByte(data, 0) >= 0 {
		line, col := position(data, bytes.IndexByte(data, 0))
		diags.Add(diag.Diagnostic{Span: point(file, line, col), Rule: RuleYAMLSyntax,
			Message: "file contains a NUL byte: not a text manifest"})
		return nil, diags
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := decode(dec, &doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &Document{File: file}, nil
		}
		diags.Add(syntaxDiagnostic(file, data, err))
		return nil, diags
	}
	var second yaml.Node
	switch err := decode(dec, &second); {
	case err == nil:
		line := separatorLine(data, second.Line)
		sp := point(file, line, 1)
		sp.EndColumn = 4 // the "---"
		diags.Add(diag.Diagnostic{Span: sp, Rule: RuleMultipleDocuments,
			Message: "file holds more than one YAML document",
			Hint:    "put each namespace in its own file, or remove the `---` separator"})
		multi := &Document{File: file, Root: docRoot(&doc), Rest: []*yaml.Node{docRoot(&second)}}
		for {
			var next yaml.Node
			if decode(dec, &next) != nil {
				break // the end, or a syntax error the first error stands for
			}
			multi.Rest = append(multi.Rest, docRoot(&next))
		}
		return multi, diags
	case !errors.Is(err, io.EOF):
		diags.Add(syntaxDiagnostic(file, data, err))
		return nil, diags
	}
	root := docRoot(&doc)
	if root == nil {
		return &Document{File: file}, nil
	}
	if d, ok := checkLimits(file, root); !ok {
		diags.Add(d)
		return nil, diags
	}
	return &Document{File: file, Root: root}, nil
}

// docRoot is the top-level node of a decoded document, or nil when it is
// empty.
func docRoot(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil
		}
		return n.Content[0]
	}
	return n
}

// decode runs the YAML decoder, turning a panic inside it into an error.
func decode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return dec.Decode(n)
}

// syntaxDiagnostic turns a YAML error into a diagnostic. The YAML library
// reports the line where the enclosing block starts; the line that breaks
// the document is found by parsing ever longer prefixes of it.
func syntaxDiagnostic(file string, data []byte, err error) diag.Diagnostic {
	msg := err.Error()
	line := 1
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		if m[1] != "" {
			line, _ = strconv.Atoi(m[1])
		}
		msg = m[2]
	}
	if bad := firstBadLine(data); bad > line {
		msg = fmt.Sprintf("%s (in the block that starts on line %d)", msg, line)
		line = bad
	}
	d := diag.Diagnostic{
		Span: diag.Span{File: file, Line: line, Column: 1, EndLine: line, EndColumn: 1},
		Rule: RuleYAMLSyntax, Message: "invalid YAML: " + msg,
	}
	// A tab where YAML wants indentation is the most common cause, and the
	// library's message does not say so.
	if text := lineText(data, line); strings.Contains(text, "\t") {
		indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
		if i := strings.IndexByte(indent, '\t'); i >= 0 || strings.Contains(msg, "tab") {
			if i < 0 {
				i = strings.IndexByte(text, '\t')
			}
			d.Span.Column, d.Span.EndColumn = i+1, i+2
			d.Hint = "YAML forbids tabs for indentation: indent with spaces"
		}
	}
	return d
}

// lineText returns line n (1-based) of data without its newline.
func lineText(data []byte, n int) string {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(data, '\n')
		if j < 0 {
			return ""
		}
		data = data[j+1:]
	}
	if j := bytes.IndexByte(data, '\n'); j >= 0 {
		data = data[:j]
	}
	return strings.TrimSuffix(string(data), "\r")
}

// separatorLine returns the line of the "---" that starts the document whose
// content begins on line content: the nearest such line at or above it.
func separatorLine(data []byte, content int) int {
	for n := content; n >= 1; n-- {
		t := lineText(data, n)
		if t == "---" || strings.HasPrefix(t, "--- ") || strings.HasPrefix(t, "---\t") {
			return n
		}
	}
	return max(content-1, 1)
}

// firstBadLine returns the smallest n such that the first n lines of data
// do not parse, by binary search (0 when the whole of data parses, or when
// the file is too large to search).
func firstBadLine(data []byte) int {
	if len(data) > 1<<20 {
		return 0
	}
	var starts []int // byte offset just past each line
	for i, b := range data {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	starts = append(starts, len(data))
	parses := func(n int) bool {
		dec := yaml.NewDecoder(bytes.NewReader(data[:starts[n-1]]))
		for {
			var node yaml.Node
			err := decode(dec, &node)
			if errors.Is(err, io.EOF) {
				return true
			}
			if err != nil {
				return false
			}
		}
	}
	lo, hi := 1, len(starts)
	if parses(hi) {
		return 0
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if parses(mid) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// checkLimits walks the tree once, counting nodes through aliases and
// measuring depth, and reports the first limit exceeded.
func checkLimits(file string, root *yaml.Node) (diag.Diagnostic, bool) {
	type frame struct {
		n     *yaml.Node
		depth int
	}
	count := 0
	stack := []frame{{root, 1}}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		count++
		span := diag.Span{File: file, Line: f.n.Line, Column: f.n.Column, EndLine: f.n.Line, EndColumn: f.n.Column}
		if count > MaxNodes {
			return diag.Diagnostic{Span: span, Rule: RuleYAMLLimit,
				Message: fmt.Sprintf("document expands to more than %d YAML nodes (alias expansion counted)", MaxNodes),
				Hint:    "avoid deeply nested anchors and aliases"}, false
		}
		if f.depth > MaxNesting {
			return diag.Diagnostic{Span: span, Rule: RuleYAMLLimit,
				Message: fmt.Sprintf("document nests deeper than %d levels", MaxNesting)}, false
		}
		if f.n.Kind == yaml.AliasNode {
			if f.n.Alias != nil {
				stack = append(stack, frame{f.n.Alias, f.depth + 1})
			}
			continue
		}
		for _, c := range f.n.Content {
			stack = append(stack, frame{c, f.depth + 1})
		}
	}
	return diag.Diagnostic{}, true
}

// invalidUTF8 returns the 1-based line and column of the first invalid byte.
func invalidUTF8(data []byte) (int, int) {
	i := 0
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	return position(data, i)
}

// position converts a byte offset to a 1-based line and rune column.
func position(data []byte, off int) (int, int) {
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	return line, utf8.RuneCount(before[start:]) + 1
}

// RuleNotManifest is the note on a file that a directory walk found but
// that is clearly not a manifest (see IsManifest); the file is skipped.
const RuleNotManifest = "not-a-manifest"

// IsManifest reports whether doc may be a manifest and is to be checked as
// one: it is empty (reported as an empty manifest), or its top level is a
// mapping with at least one of the keys `namespace`, `name` and `types`. Any
// other document (a list, a scalar, or a mapping without those keys, such as
// bicepconfig.json or package.json) is clearly something else. A file of
// several documents (Rest) is a manifest, and gets the multiple-documents
// error, when one of its documents looks like one; one of Kubernetes
// objects or resource documents is something else. Only files found by
// walking a directory are judged; a file named on the command line is
// always checked.
func IsManifest(doc *Document) bool {
	if len(doc.Rest) > 0 {
		return slices.ContainsFunc(append([]*yaml.Node{doc.Root}, doc.Rest...), looksLikeManifest)
	}
	return doc.Root == nil || looksLikeManifest(doc.Root)
}

// looksLikeManifest reports whether root, one document's top level, is a
// mapping with a key only a manifest has at its top.
func looksLikeManifest(root *yaml.Node) bool {
	if root == nil || root.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Kind == yaml.ScalarNode {
			switch k.Value {
			case "namespace", "name", "types":
				return true
			}
		}
	}
	return false
}

// ProjectFileName is the name of the udtc project file (generator/project
// reads it).
const ProjectFileName = "udtc.yaml"

// IsProjectFile reports whether the file at path is one a udtc project keeps
// beside its manifests (`udtc init` writes them): the project file and
// Bicep's bicepconfig.json. A directory walk skips such a file without the
// not-a-manifest note when it is not a manifest.
func IsProjectFile(path string) bool {
	switch filepath.Base(path) {
	case ProjectFileName, "bicepconfig.json":
		return true
	}
	return false
}

// point is the span of one position of file.
func point(file string, line, col int) diag.Span {
	return diag.Span{File: file, Line: line, Column: col, EndLine: line, EndColumn: col}
}

// NotManifest is the note reported for a document IsManifest rejects.
func NotManifest(doc *Document) diag.Diagnostic {
	what := "skipped: not a manifest (its top level is not a mapping with `namespace`, `name` or `types`)"
	if len(doc.Rest) > 0 {
		what = fmt.Sprintf("skipped: not a manifest (none of its %d YAML documents is a mapping with `namespace`, `name` or `types`)", len(doc.Rest)+1)
	}
	line, col := 1, 1
	if doc.Root != nil {
		line, col = doc.Root.Line, doc.Root.Column
	}
	return diag.Diagnostic{
		Span:     point(doc.File, line, col),
		Severity: diag.Note, Rule: RuleNotManifest,
		Message: what,
		Hint:    "name the file on the command line to check it as a manifest anyway",
	}
}
