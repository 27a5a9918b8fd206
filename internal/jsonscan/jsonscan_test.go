package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestSkipValueEndsWhereTheValueEnds(t *testing.T) {
	for _, v := range []string{
		`"a"`, `"a\"b\\"`, `"\u00e9 \/ }]"`, `123`, `-1.5e+10`, `true`, `false`, `null`,
		`{}`, `[]`, `{"a":[1,{"b":"}"}],"c":null}`, `[ "]" , { "x" : [ ] } ]`, `{"\"":"\\"}`,
	} {
		for _, tail := range []string{"", ",", " ]", "}"} {
			b := []byte(v + tail)
			if got := SkipValue(b, 0); got != len(v) {
				t.Errorf("SkipValue(%q) = %d, want %d", b, got, len(v))
			}
		}
	}
	if got := SkipSpace([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("SkipSpace = %d, want 5", got)
	}
}

// On valid JSON, SkipValue from the first byte reaches the end; on any
// input it stays in bounds.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x\"",{}]}`, `"\\"`, `[`, `"`, `tru`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		end := SkipValue(b, SkipSpace(b, 0))
		if end < 0 || end > len(b) {
			t.Fatalf("SkipValue(%q) = %d, out of bounds", b, end)
		}
		if json.Valid(b) {
			if got := SkipSpace(b, end); got != len(b) {
				t.Fatalf("SkipValue(%q) stopped at %d, before the end of the value", b, end)
			}
			// Every member and element of valid JSON is valid JSON.
			Members(b, func(_, v []byte) bool {
				if !json.Valid(v) {
					t.Fatalf("Members(%q) gave the value %q", b, v)
				}
				return true
			})
			Elements(b, func(v []byte) bool {
				if !json.Valid(v) {
					t.Fatalf("Elements(%q) gave %q", b, v)
				}
				return true
			})
		}
	})
}

func TestMembersAndElements(t *testing.T) {
	var keys, vals []string
	ok := Members([]byte(` { "a" : 1 , "b\"c": {"x":[1,2]}, "d":"}" } `), func(k, v []byte) bool {
		keys, vals = append(keys, Unquote(k)), append(vals, string(v))
		return true
	})
	if !ok || strings.Join(keys, "|") != `a|b"c|d` || strings.Join(vals, "|") != `1|{"x":[1,2]}|"}"` {
		t.Errorf("Members = %v: keys %q, values %q", ok, keys, vals)
	}
	var elems []string
	if !Elements([]byte(`[ 1, "]", [2, 3], {} ]`), func(v []byte) bool { elems = append(elems, string(v)); return true }) ||
		strings.Join(elems, "|") != `1|"]"|[2, 3]|{}` {
		t.Errorf("Elements: %q", elems)
	}
	for _, empty := range []string{`{}`, ` { } `} {
		if !Members([]byte(empty), func(_, _ []byte) bool { t.Error("called for", empty); return true }) {
			t.Errorf("Members(%s) = false", empty)
		}
	}
	if Members([]byte(`[1]`), func(_, _ []byte) bool { return true }) || Elements([]byte(`{}`), func([]byte) bool { return true }) {
		t.Error("an array is not an object, nor an object an array")
	}
	if Members([]byte(`{"a":1,"b":2}`), func(k, _ []byte) bool { return string(k) != "b" }) {
		t.Error("Members returned true after member returned false")
	}
	if got := Unquote([]byte(`caf\u00e9 \/`)); got != "café /" {
		t.Errorf("Unquote = %q", got)
	}
}

// Compact says true exactly when json.Compact would copy a valid JSON
// value unchanged.
func TestCompact(t *testing.T) {
	for _, s := range []string{`{}`, `{"a":1}`, `{ "a":1}`, `{"a b":"c\"d e"}`, `{"a":"\\"}`, `{"a":"\\" ,"b":1}`,
		"{\"a\":\n1}", `["x\\\" y"]`, `{"a":"\u0020"}`, "[1,\t2]", `"\\\\"`} {
		checkCompact(t, s)
	}
}

func FuzzCompact(f *testing.F) {
	for _, s := range []string{`{"a":"b c"}`, `{ }`, `["\\\"",1]`} {
		f.Add(s)
	}
	f.Fuzz(checkCompact)
}

func checkCompact(t *testing.T, s string) {
	if !json.Valid([]byte(s)) {
		return
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		t.Fatal(err)
	}
	if want := buf.String() == s; Compact([]byte(s)) != want {
		t.Errorf("Compact(%s) = %v, want %v", s, !want, want)
	}
}
