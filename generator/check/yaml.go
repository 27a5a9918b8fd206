package check

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"go.yaml.in/yaml/v3"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/registry/api"
	"github.com/udtc/udtc/schema"
	"github.com/udtc/udtc/schema/pattern"
)

// reporter collects the diagnostics of one file.
type reporter struct {
	file  string
	diags diag.List
	// maxErrors, when positive, stops recording errors after that many;
	// further errors are only counted in dropped (see Schema).
	maxErrors, errors, dropped int
	// patterns, shared by every file of a run, caches compiled patterns:
	// catalogs repeat the same few. Nil compiles every time.
	patterns *Patterns
	// budget bounds the work this file's defaults spend matching patterns
	// (pattern.Budget); made on first use.
	budget *pattern.Budget
	// interned holds the file's descriptions, titles and property names
	// kept in the model: its API versions repeat most of them, and the
	// model stays live through every target of gen (intern).
	interned map[string]string
	// base merges Radius's base resource properties into every API
	// version's schema (Options.NoBase turns it off).
	base bool
	// radius reports what today's Radius refuses (Options.Radius).
	radius bool
	// impliedTypes reads a schema node without `type` as Radius does
	// (schemaChecker.implied): under radius, and in the registry.
	impliedTypes bool
	// outline drops each API version's schema once checked
	// (Options.Outline); refs keeps its references (FileResult.refs),
	// made at the first.
	outline bool
	// noSource writes no API version's Source (Options.NoSource).
	noSource bool
	refs     map[*model.APIVersion][]*model.Schema
}

// intern returns s, or an equal string kept earlier for this file, so
// that the model holds each text once.
func (r *reporter) intern(s string) string {
	if r.outline {
		return s // the model drops the schemas' texts
	}
	if t, ok := r.interned[s]; ok {
		return t
	}
	if r.interned == nil {
		r.interned = map[string]string{}
	}
	r.interned[s] = s
	return s
}

// Patterns caches compiled ECMA-262 patterns (pattern.Compile); it is safe for concurrent use.
// One Compile run shares one, so each distinct pattern is compiled once; a
// server checking schema after schema keeps one with a Max.
type Patterns struct {
	m sync.Map
	// radius holds radiusProblem's answers.
	radius sync.Map
	n      atomic.Int64
	// Max, when positive, is the most patterns kept: past it patterns are
	// compiled each time, so hostile input cannot grow the cache.
	Max int64

	// verdicts keeps the answers of costly matches of defaults
	// (pattern.Verdicts), so that a schema checked again (a server's
	// catalog pages) does not match its defaults again; made on first use.
	verdictsOnce sync.Once
	verdicts     *pattern.Verdicts
}

// maxVerdicts is the most match answers a Patterns keeps, unless its Max
// is larger.
const maxVerdicts = 4096

// Answers returns c's cache of match answers (pattern.Verdicts); nil for a
// nil c.
func (c *Patterns) Answers() *pattern.Verdicts {
	if c == nil {
		return nil
	}
	c.verdictsOnce.Do(func() { c.verdicts = pattern.NewVerdicts(int(max(c.Max, maxVerdicts))) })
	return c.verdicts
}

// radiusProblem is api.RadiusPatternProblem of p, once per run (p may be
// nil: every time).
func (c *Patterns) radiusProblem(p string) string {
	if c == nil {
		return api.RadiusPatternProblem(p)
	}
	if msg, ok := c.radius.Load(p); ok {
		return msg.(string)
	}
	msg := api.RadiusPatternProblem(p)
	if c.Max <= 0 || c.n.Add(1) <= c.Max {
		c.radius.Store(p, msg)
	}
	return msg
}

// pattern compiles an ECMA-262 pattern, once per run.
func (r *reporter) pattern(p string) (*pattern.Pattern, error) {
	if r.patterns != nil {
		if re, ok := r.patterns.m.Load(p); ok {
			return re.(*pattern.Pattern), nil
		}
	}
	re, err := pattern.Compile(p)
	if err != nil {
		return nil, err
	}
	if c := r.patterns; c != nil && (c.Max <= 0 || c.n.Add(1) <= c.Max) {
		c.m.Store(p, re)
	}
	return re, nil
}

// match matches a literal against a compiled pattern under the file's
// budget, reusing the answers the run's Patterns keeps.
func (r *reporter) match(re *pattern.Pattern, s string) (bool, error) {
	if r.budget == nil {
		r.budget = pattern.NewBudget(pattern.DefaultBudget).WithVerdicts(r.patterns.Answers())
	}
	return re.Match(r.budget, s)
}

// span returns the span of a node: its first character to the end of its
// text on the same line (scalars), or the node's position only.
func (r *reporter) span(n *yaml.Node) diag.Span {
	if n == nil {
		return diag.Span{File: r.file, Line: 1, Column: 1, EndLine: 1, EndColumn: 1}
	}
	s := diag.Span{File: r.file, Line: n.Line, Column: n.Column, EndLine: n.Line, EndColumn: n.Column}
	if n.Kind == yaml.ScalarNode && !strings.Contains(n.Value, "\n") {
		width := utf8.RuneCountInString(n.Value)
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
			width += 2
		}
		s.EndColumn = n.Column + width
	}
	return s
}

// pos is span for the schema model (the same fields).
func (r *reporter) pos(n *yaml.Node) schema.Span { return schema.Span(r.span(n)) }

// report adds a diagnostic at n with the rule's severity.
func (r *reporter) report(n *yaml.Node, rule, path, hint, format string, args ...any) {
	r.reportAt(r.span(n), rule, path, hint, format, args...)
}

// radiusRule is rule, a warning that today's Radius would refuse
// something, or RuleRadiusUnsupported, its error, under target: radius.
func (r *reporter) radiusRule(rule string) string {
	if r.radius {
		return RuleRadiusUnsupported
	}
	return rule
}

// reportAt adds a diagnostic at span with the rule's severity.
func (r *reporter) reportAt(span diag.Span, rule, path, hint, format string, args ...any) {
	sev, ok := severityOf[rule]
	if !ok {
		panic("check: unregistered rule " + rule) // a bug in this package, caught by tests
	}
	if sev == diag.Error {
		if r.maxErrors > 0 && r.errors >= r.maxErrors {
			r.dropped++
			return
		}
		r.errors++
	}
	r.diags.Add(diag.Diagnostic{Span: span, Severity: sev, Rule: rule, Path: path,
		Message: fmt.Sprintf(format, args...), Hint: hint})
}

// resolve follows aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// entry is one key/value pair of a mapping.
type entry struct {
	key, value *yaml.Node
	name       string
	parent     string // JSON pointer of the mapping
}

// ptr returns the entry's JSON pointer. It is built on demand: most entries
// never need one, and building them all costs a string per key.
func (e *entry) ptr() string { return pointer(e.parent, e.name) }

// pointer appends a JSON pointer token to path.
func pointer(path, token string) string { return api.AppendPointer(path, token) }

// kindName describes a YAML node for messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!str":
			return "a string"
		case "!!int":
			return "an integer"
		case "!!float":
			return "a number"
		case "!!bool":
			return "a boolean"
		case "!!null":
			return "null"
		}
		return "a scalar"
	}
	return "a value"
}

// mapping returns the entries of a mapping node, reporting duplicate keys
// and non-string keys. It reports value-type and returns ok=false when n is
// not a mapping.
func (r *reporter) mapping(n *yaml.Node, path, what string) ([]entry, bool) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		if n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			r.report(n, RuleValueType, path, "", "%s is empty; expected a mapping", what)
		} else if n != nil {
			r.report(n, RuleValueType, path, "", "%s must be a mapping, not %s", what, kindName(n))
		}
		return nil, false
	}
	entries := make([]entry, 0, len(n.Content)/2)
	// Duplicates are looked up among the entries so far; only a large
	// mapping gets an index (a schema node has a handful of keys).
	var seen map[string]*yaml.Node
	if len(n.Content)/2 > 16 {
		seen = make(map[string]*yaml.Node, len(n.Content)/2)
	}
	first := func(name string) (*yaml.Node, bool) {
		if seen != nil {
			k, ok := seen[name]
			return k, ok
		}
		for _, e := range entries {
			if e.name == name {
				return e.key, true
			}
		}
		return nil, false
	}
	content := n.Content
	if r.radius { // rad reads merge keys, and Radius runs what they make
		var bad *yaml.Node
		if content, bad = mergedPairs(n); bad != nil {
			r.report(bad, RuleValueType, path, "", "a merge key (<<) takes an alias of a mapping, or a list of them")
		}
	}
	for i := 0; i+1 < len(content); i += 2 {
		k, v := content[i], content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			r.report(k, RuleValueType, path, "write the keys out; merge keys hide where a value comes from (the radius profile reads them, as rad does)", "YAML merge keys (<<) are not supported")
			continue
		}
		if k.Kind != yaml.ScalarNode {
			r.report(k, RuleValueType, path, "", "mapping keys must be strings, not %s", kindName(k))
			continue
		}
		if prev, dup := first(k.Value); dup {
			r.report(k, RuleDuplicateKey, pointer(path, k.Value), "",
				"duplicate key %q: first defined at %d:%d", k.Value, prev.Line, prev.Column)
			continue
		}
		if seen != nil {
			seen[k.Value] = k
		}
		entries = append(entries, entry{key: k, value: v, name: k.Value, parent: path})
	}
	return entries, true
}

// mergedPairs returns the key and value nodes of the mapping n as YAML's
// merge key type reads them (yaml.org/type/merge.html): n's own pairs in
// order, then those its merge keys (<<) bring in, an alias of a mapping
// or a list of them, that no own key and no earlier merged mapping names;
// merged mappings are read the same way, to a bounded depth. n.Content is
// returned as it is when n has no merge key. bad is the first merge value
// that is not a mapping (its pairs are left out).
func mergedPairs(n *yaml.Node) (pairs []*yaml.Node, bad *yaml.Node) {
	merges := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		merges = merges || isMerge(n.Content[i])
	}
	if !merges {
		return n.Content, nil
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; !isMerge(k) {
			pairs = append(pairs, k, n.Content[i+1])
			seen[k.Value] = true
		}
	}
	// add merges the value of a merge key; inList: an item of a list.
	var add func(v *yaml.Node, depth int, inList bool)
	add = func(v *yaml.Node, depth int, inList bool) {
		v = resolve(v)
		switch {
		case depth > maxMergeDepth:
			bad = cmp.Or(bad, v)
		case v.Kind == yaml.SequenceNode && !inList:
			for _, c := range v.Content { // earlier mappings win
				add(c, depth, true)
			}
		case v.Kind == yaml.MappingNode:
			// The mapping's own keys win over those it merges in turn.
			for i := 0; i+1 < len(v.Content); i += 2 {
				if k := v.Content[i]; !isMerge(k) && !seen[k.Value] {
					pairs = append(pairs, k, v.Content[i+1])
					seen[k.Value] = true
				}
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				if isMerge(v.Content[i]) {
					add(v.Content[i+1], depth+1, false)
				}
			}
		default:
			bad = cmp.Or(bad, v)
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if isMerge(n.Content[i]) {
			add(n.Content[i+1], 0, false)
		}
	}
	return pairs, bad
}

// maxMergeDepth bounds how deep merged mappings may merge others.
const maxMergeDepth = 16

func isMerge(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.Tag == "!!merge" }

// str returns the value of a string scalar, reporting value-type otherwise.
// An unquoted date (YAML's !!timestamp, e.g. defaultApiVersion: 2025-01-01)
// counts as its text; numbers and booleans do not (the hint says to quote).
// strOf is str of an entry's value; the entry's path, which costs an
// allocation, is made only for a diagnostic (the checker reads a string
// keyword of nearly every schema node).
func (r *reporter) strOf(e *entry, what string) (string, bool) {
	if n := resolve(e.value); isStr(n) {
		return n.Value, true
	}
	return r.str(e.value, e.ptr(), what)
}

func (r *reporter) str(n *yaml.Node, path, what string) (string, bool) {
	n = resolve(n)
	if !isStr(n) {
		hint := ""
		if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
			hint = fmt.Sprintf("quote it: '%s'", n.Value)
		}
		r.report(n, RuleValueType, path, hint, "%s must be a string, not %s", what, kindName(n))
		return "", false
	}
	return n.Value, true
}

// decodeInt is n.Decode into an int64, without a YAML decoder for the
// common plain decimal ("0", "-17", "1024"), which every YAML reading
// gives the same value.
func decodeInt(n *yaml.Node) (int64, error) {
	if plainDecimal(n.Value, false) {
		if i, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
			return i, nil
		}
	}
	var i int64
	err := n.Decode(&i)
	return i, err
}

// decodeFloat is n.Decode into a float64, without a YAML decoder for a
// plain decimal with a fraction or an exponent ("1.5", "-2e3"). (A value
// that reads as an integer, such as `!!float -0`, goes through YAML's
// integer reading first, so it takes the decoder.)
func decodeFloat(n *yaml.Node) (float64, error) {
	if plainDecimal(n.Value, true) && strings.ContainsAny(n.Value, ".eE") {
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return f, nil
		}
	}
	var f float64
	err := n.Decode(&f)
	return f, err
}

// plainBool reads the YAML booleans spelled as JSON's.
func plainBool(s string) (bool, bool) {
	switch s {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// plainDecimal reports whether s is -?(0|[1-9][0-9]*), followed, with
// fraction, by an optional .[0-9]+ and [eE][+-]?[0-9]+.
func plainDecimal(s string, fraction bool) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	switch n := digits(); {
	case n == 0, n > 1 && s[i-n] == '0':
		return false
	}
	if fraction && i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if fraction && i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isStr reports whether str takes the (resolved) node n as a string.
func isStr(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && (n.Tag == "!!str" || n.Tag == "!!timestamp")
}

// indexPointer is the JSON pointer of item i of the list at path.
func indexPointer(path string, i int) string { return path + "/" + strconv.Itoa(i) }

// toJSON converts a YAML node to JSON, keeping mapping key order (so it
// streams tokens to a jsontext.Encoder rather than marshalling a map). It
// fails, with a *jsonError, for values JSON cannot represent (infinities,
// NaN, non-string keys). Strings are escaped as little as JSON allows: <,
// >, & and U+2028 are written as they are, as in the manifest.
func toJSON(n *yaml.Node) (json.RawMessage, error) {
	w := writers.Get().(*jsonWriter)
	defer writers.Put(w)
	w.buf.Reset()
	w.enc.Reset(&w.buf, jsontext.AllowDuplicateNames(true))
	if err := w.node(n, 0); err != nil {
		return nil, err
	}
	return bytes.Clone(bytes.TrimSuffix(w.buf.Bytes(), []byte("\n"))), nil
}

// checkJSON returns the error toJSON would, without writing the JSON: the
// same walk with every conversion, but no encoding, for a run that keeps
// no Source (Options.Outline, Options.NoSource). Where only the encoder
// could tell (a number kept as written, a string that is not UTF-8), it
// converts for real.
func checkJSON(n *yaml.Node) error {
	w := jsonWriter{check: true}
	err := w.node(n, 0)
	if errors.Is(err, errEncoderDecides) {
		_, err = toJSON(n)
	}
	return err
}

// errEncoderDecides is checkJSON's: a value only the encoder can judge.
var errEncoderDecides = errors.New("the encoder decides")

// jsonError is why toJSON could not convert a value: At is the YAML node
// JSON cannot represent, and path the JSON pointer tokens that lead to it
// from the node converted, innermost first (added as the walk unwinds).
type jsonError struct {
	At   *yaml.Node
	path []string
	err  error
}

func (e *jsonError) Error() string { return e.err.Error() }
func (e *jsonError) Unwrap() error { return e.err }

// Pointer is the JSON pointer of At, below the node at base.
func (e *jsonError) Pointer(base string) string {
	for i := len(e.path) - 1; i >= 0; i-- {
		base = pointer(base, e.path[i])
	}
	return base
}

// jsonAt makes err a *jsonError at n, unless it is one already.
func jsonAt(n *yaml.Node, err error) error {
	if err == nil {
		return nil
	}
	if je, ok := err.(*jsonError); ok {
		return je
	}
	return &jsonError{At: n, err: err}
}

// under adds token, the key or index the walk went through, to err's path.
func under(err error, token string) error {
	if je, ok := err.(*jsonError); ok {
		je.path = append(je.path, token)
	}
	return err
}

// jsonWriter is toJSON's encoder and its output, reused across calls and
// goroutines (writers); check walks without writing (checkJSON).
type jsonWriter struct {
	buf   bytes.Buffer
	enc   jsontext.Encoder
	check bool
}

var writers = sync.Pool{New: func() any { return new(jsonWriter) }}

// token writes t, or in check mode leaves it to the encoder when it is a
// string that is not UTF-8.
func (w *jsonWriter) token(t jsontext.Token) error {
	if !w.check {
		return w.enc.WriteToken(t)
	}
	if t.Kind() == '"' && !utf8.ValidString(t.String()) {
		return errEncoderDecides
	}
	return nil
}

// number writes the JSON number text of the scalar n (number's), or in
// check mode leaves it to the encoder when it may not be JSON: strconv
// wrote every other number, but a float can be kept as written.
func (w *jsonWriter) number(n *yaml.Node, text string) error {
	if !w.check {
		return w.enc.WriteValue(jsontext.Value(text))
	}
	if n.Tag == "!!float" && text == n.Value && !jsontext.Value(text).IsValid() {
		return errEncoderDecides
	}
	return nil
}

func (w *jsonWriter) node(n *yaml.Node, depth int) error {
	n = resolve(n)
	if depth > 512 {
		return jsonAt(n, fmt.Errorf("value nests too deeply"))
	}
	switch n.Kind {
	case yaml.MappingNode:
		return w.mapping(n, depth)
	case yaml.SequenceNode:
		if err := w.token(jsontext.BeginArray); err != nil {
			return jsonAt(n, err)
		}
		for i, c := range n.Content {
			if err := w.node(c, depth+1); err != nil {
				return under(err, strconv.Itoa(i))
			}
		}
		return jsonAt(n, w.token(jsontext.EndArray))
	case yaml.ScalarNode:
		return jsonAt(n, w.scalar(n))
	}
	return jsonAt(n, fmt.Errorf("unsupported YAML node"))
}

func (w *jsonWriter) mapping(n *yaml.Node, depth int) error {
	if err := w.token(jsontext.BeginObject); err != nil {
		return jsonAt(n, err)
	}
	content, bad := mergedPairs(n)
	if bad != nil {
		return jsonAt(bad, fmt.Errorf("line %d: a merge key takes mappings", bad.Line))
	}
	for i := 0; i+1 < len(content); i += 2 {
		k := resolve(content[i])
		if k.Kind != yaml.ScalarNode {
			return jsonAt(k, fmt.Errorf("line %d: mapping keys must be strings", k.Line))
		}
		if err := w.token(jsontext.String(k.Value)); err != nil {
			return jsonAt(k, err)
		}
		if err := w.node(content[i+1], depth+1); err != nil {
			return under(err, k.Value)
		}
	}
	return jsonAt(n, w.token(jsontext.EndObject))
}

func (w *jsonWriter) scalar(n *yaml.Node) error {
	switch n.Tag {
	case "!!null":
		return w.token(jsontext.Null)
	case "!!bool":
		b, ok := plainBool(n.Value)
		if !ok {
			if err := n.Decode(&b); err != nil {
				return err
			}
		}
		return w.token(jsontext.Bool(b))
	case "!!int", "!!float":
		num, err := number(n)
		if err != nil {
			return err
		}
		return w.number(n, num)
	}
	return w.token(jsontext.String(n.Value))
}

// number returns the canonical JSON text of an !!int or !!float scalar.
func number(n *yaml.Node) (string, error) {
	if n.Tag == "!!int" {
		i, err := decodeInt(n)
		if err == nil {
			return strconv.FormatInt(i, 10), nil
		}
		var u uint64
		if err := n.Decode(&u); err == nil {
			return strconv.FormatUint(u, 10), nil
		}
		return "", fmt.Errorf("integer %s is out of range", n.Value)
	}
	f, err := decodeFloat(n)
	if err != nil {
		return "", err
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "", fmt.Errorf("%s is not a JSON number", n.Value)
	}
	text := strconv.FormatFloat(f, 'g', -1, 64)
	// A JSON number float64 cannot hold exactly (100.00000000000000001,
	// -1e-400) stays as written, so that bounds and types judge the value
	// the user wrote, not its rounding.
	if c, ok := schema.CompareNumbers(json.Number(n.Value), json.Number(text)); ok && c != 0 {
		return n.Value, nil
	}
	return text, nil
}
