package admission_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry/admission"
)

// depth is a schema with defaults at every depth: in nested objects, array
// items, map values and inside a default object.
const depth = `{"type":"object","properties":{
	"mode":{"type":"string","default":"fast"},
	"server":{"type":"object","properties":{
		"port":{"type":"integer","default":8080},
		"tls":{"type":"object","default":{},"properties":{"enabled":{"type":"boolean","default":true}}}}},
	"steps":{"type":"array","items":{"type":"object","properties":{
		"name":{"type":"string"},
		"retries":{"type":"integer","default":3},
		"status":{"type":"string","readOnly":true,"default":"Pending"}},"required":["name"]}},
	"ports":{"type":"object","additionalProperties":{"type":"object","properties":{
		"containerPort":{"type":"integer","minimum":1},
		"protocol":{"type":"string","enum":["TCP","UDP"],"default":"TCP"}},"required":["containerPort"]}},
	"id":{"type":"string","readOnly":true},
	"required":{"type":"string","default":"never used"}},
	"required":["required"]}`

func TestDefaultsAtDepth(t *testing.T) {
	s := mustCompile(t, depth)
	got, vs := s.Admit(json.RawMessage(`{"required":"x","server":{},"steps":[{"name":"a"},{"name":"b","retries":0,"status":"Done"}],` +
		`"ports":{"web":{"containerPort":80},"dns":{"containerPort":53,"protocol":"UDP"}},"id":"client-sent"}`))
	if len(vs) != 0 {
		t.Fatalf("violations: %+v", vs)
	}
	want := `{"mode":"fast","ports":{"dns":{"containerPort":53,"protocol":"UDP"},"web":{"containerPort":80,"protocol":"TCP"}},` +
		`"required":"x","server":{"port":8080,"tls":{"enabled":true}},"steps":[{"name":"a","retries":3},{"name":"b","retries":0}]}`
	if string(got) != want {
		t.Errorf("admitted\n got %s\nwant %s", got, want)
	}
	// Admitting the admitted document changes nothing.
	again, vs := s.Admit(got)
	if len(vs) != 0 || string(again) != string(got) {
		t.Errorf("re-admission: %s %+v", again, vs)
	}
	// A required property gets no default; null or absent properties are {}.
	_, vs = s.Admit(nil)
	if diff := cmp.Diff([]string{"properties.required MissingProperty"}, codes(vs)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	_, vs = s.Admit(json.RawMessage(`{"required":"x","ports":{"web":{"protocol":"SCTP"}},"steps":[{}]}`))
	want2 := []string{"properties.ports.web.protocol InvalidEnum", "properties.ports.web.containerPort MissingProperty", "properties.steps[0].name MissingProperty"}
	if diff := cmp.Diff(want2, codes(vs)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestCollections(t *testing.T) {
	s := schemaOf(t, "valid_collections/Contoso.Collections/queues@2025-01-01")
	tags := make([]string, 17)
	for i := range tags {
		tags[i] = `"t` + string(rune('a'+i)) + `":"v"`
	}
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"valid", `{"environment":"e","subscriptions":[{"endpoint":"https://a.example/x"}]}`, nil},
		{"minItems", `{"environment":"e","subscriptions":[]}`, []string{"properties.subscriptions InvalidItemCount"}},
		{"maxItems", `{"environment":"e","subscriptions":[` + strings.Repeat(`{"endpoint":"https://a.example"},`, 10) + `{"endpoint":"https://b.example"}]}`,
			[]string{"properties.subscriptions InvalidItemCount", "properties.subscriptions DuplicateItems"}},
		{"uniqueItems", `{"environment":"e","subscriptions":[{"endpoint":"https://a.example"},{"endpoint":"https://a.example"}]}`, []string{"properties.subscriptions DuplicateItems"}},
		{"maxProperties", `{"environment":"e","subscriptions":[{"endpoint":"https://a.example"}],"tags":{` + strings.Join(tags, ",") + `}}`, []string{"properties.tags InvalidPropertyCount"}},
		{"map value length", `{"environment":"e","subscriptions":[{"endpoint":"https://a.example"}],"tags":{"x":"` + strings.Repeat("é", 257) + `"}}`, []string{"properties.tags.x InvalidLength"}},
		{"closed nested object", `{"environment":"e","subscriptions":[{"endpoint":"https://a.example","extra":true}],"closed":{"flag":true,"other":1}}`,
			[]string{"properties.closed.other UnknownProperty", "properties.subscriptions[0].extra UnknownProperty"}},
		{"empty object is closed", `{"environment":"e","subscriptions":[{"endpoint":"https://a.example"}],"empty":{"a":1}}`, []string{"properties.empty.a UnknownProperty"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, vs := admit(t, s, tc.doc)
			if diff := cmp.Diff(tc.want, codes(vs)); diff != "" {
				t.Errorf("violations (-want +got):\n%s\n%+v", diff, vs)
			}
		})
	}
}

// TestLengthInCharacters: lengths count code points, not bytes or UTF-16 units.
func TestLengthInCharacters(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":2}}}`)
	for doc, want := range map[string]int{`{"s":"éé"}`: 0, `{"s":"😀😀"}`: 0, `{"s":"😀"}`: 1, `{"s":"abc"}`: 1} {
		if _, vs := admit(t, s, doc); len(vs) != want {
			t.Errorf("%s: %+v, want %d violations", doc, vs, want)
		}
	}
}

func TestFormats(t *testing.T) {
	tests := []struct {
		format  string
		ok, bad []string
	}{
		{"email", []string{"a@example.com", "first.last+tag@sub.example.org"}, []string{"nope", "a@", "Name <a@example.com>", ""}},
		{"uuid", []string{"123e4567-e89b-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000"}, []string{"123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"}},
		{"date-time", []string{"2025-01-31T12:00:00Z", "2025-01-31T12:00:00.123+02:00"}, []string{"2025-01-31", "2025-02-30T12:00:00Z", "2025-01-31 12:00:00Z"}},
		{"date", []string{"2025-01-31", "2024-02-29"}, []string{"2025-02-29", "2025-1-31", "2025-01-31T00:00:00Z"}},
		{"uri", []string{"https://example.com/a?b=c", "urn:isbn:0451450523"}, []string{"/relative/path", "example.com", "http://exa mple.com"}},
		{"hostname", []string{"example.com", "a-b.c", "localhost"}, []string{"-bad.com", "a..b", "under_score.com", strings.Repeat("a", 64) + ".com"}},
		{"ipv4", []string{"10.0.0.1", "255.255.255.255"}, []string{"256.0.0.1", "::1", "10.0.0"}},
		{"ipv6", []string{"::1", "2001:db8::8a2e:370:7334"}, []string{"10.0.0.1", "fe80::1%eth0", "2001:db8:::1"}},
		{"byte", []string{"U3dhZ2dlciByb2Nrcw==", ""}, []string{"not base64!", "U3dhZ2dlciByb2Nrcw="}},
	}
	for _, tc := range tests {
		s := mustCompile(t, `{"type":"object","properties":{"v":{"type":"string","format":"`+tc.format+`"}}}`)
		check := func(value string, want []string) {
			b, _ := json.Marshal(map[string]string{"v": value})
			_, vs := s.Admit(b)
			if diff := cmp.Diff(want, codes(vs)); diff != "" {
				t.Errorf("%s %q (-want +got):\n%s", tc.format, value, diff)
			}
		}
		for _, v := range tc.ok {
			check(v, nil)
		}
		for _, v := range tc.bad {
			check(v, []string{"properties.v InvalidFormat"})
		}
	}
	// Integer widths; formats that constrain nothing.
	s := mustCompile(t, `{"type":"object","properties":{"i":{"type":"integer","format":"int32"},"p":{"type":"string","format":"password"},"u":{"type":"string","format":"made-up"}}}`)
	_, vs := s.Admit(json.RawMessage(`{"i":2147483648,"p":"x","u":"y"}`))
	if diff := cmp.Diff([]string{"properties.i InvalidFormat"}, codes(vs)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestExclusiveNumericForm: like the checker, only the boolean OpenAPI 3.0
// form of exclusive bounds is accepted; the OpenAPI 3.1 numeric form is a
// compile error that says how to write it.
func TestExclusiveNumericForm(t *testing.T) {
	_, err := admission.Compile(json.RawMessage(`{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0}}}`))
	if err == nil || !strings.Contains(err.Error(), "`minimum: N` and `exclusiveMinimum: true`") {
		t.Errorf("err = %v", err)
	}
}

func TestMaxViolations(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"list":{"type":"array","items":{"type":"string"}}}}`)
	doc := `{"list":[` + strings.TrimSuffix(strings.Repeat("1,", 5000), ",") + `]}`
	_, vs := s.Admit(json.RawMessage(doc))
	if len(vs) != admission.MaxViolations {
		t.Fatalf("%d violations, want %d", len(vs), admission.MaxViolations)
	}
	if vs[999].Target != "properties.list[999]" {
		t.Errorf("last violation %+v", vs[999])
	}
}

func TestUndeclaredSchemaAcceptsAnything(t *testing.T) {
	for _, raw := range []string{``, `null`, `{}`} {
		s := mustCompile(t, raw)
		out, vs := s.Admit(json.RawMessage(`{"anything":[1,{"x":null}],"goes":"here"}`))
		if len(vs) != 0 || string(out) != `{"anything":[1,{"x":null}],"goes":"here"}` {
			t.Errorf("%q: %s %+v", raw, out, vs)
		}
	}
}

// TestReadOnlyDropped: read-only properties are dropped at every depth,
// including a built-in $ref (RecipeStatus is read-only), without violations.
func TestReadOnlyDropped(t *testing.T) {
	s := schemaOf(t, "valid_basic/MyCompany.Resources/postgresDatabases@2025-01-01-preview")
	out, vs := s.Admit(json.RawMessage(`{"environment":"e","size":"S","status":{"binding":{"hostname":"h"},"recipe":{"templateKind":"bicep"}}}`))
	if len(vs) != 0 || string(out) != `{"environment":"e","size":"S"}` {
		t.Errorf("%s %+v", out, vs)
	}
	s = mustCompile(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","readOnly":true}}},
		"list":{"type":"array","items":{"type":"object","properties":{"c":{"type":"integer","readOnly":true}}}}}}`)
	out, vs = s.Admit(json.RawMessage(`{"spec":{"a":"x","b":"y"},"list":[{"c":1},{}]}`))
	if len(vs) != 0 || string(out) != `{"list":[{},{}],"spec":{"a":"x"}}` {
		t.Errorf("%s %+v", out, vs)
	}
}

// TestNoGlobalFormats: kin-openapi's package-level format registries do not
// change admission: a format registered there is neither used in place of
// admission's own validators nor applied to formats admission leaves
// unchecked.
func TestNoGlobalFormats(t *testing.T) {
	reject := openapi3.NewCallbackValidator(func(string) error { return errors.New("rejected by the global registry") })
	saved, had := openapi3.SchemaStringFormats["email"]
	openapi3.DefineStringFormatValidator("email", reject)
	openapi3.DefineStringFormatValidator("made-up", reject)
	t.Cleanup(func() {
		delete(openapi3.SchemaStringFormats, "made-up")
		if had {
			openapi3.SchemaStringFormats["email"] = saved
		} else {
			delete(openapi3.SchemaStringFormats, "email")
		}
	})
	s := mustCompile(t, `{"type":"object","properties":{"e":{"type":"string","format":"email"},"m":{"type":"string","format":"made-up"}}}`)
	if _, vs := s.Admit(json.RawMessage(`{"e":"a@example.com","m":"anything"}`)); len(vs) != 0 {
		t.Errorf("violations: %+v", vs)
	}
	if _, vs := s.Admit(json.RawMessage(`{"e":"not an email"}`)); len(vs) != 1 {
		t.Errorf("violations: %+v", vs)
	}
}

// TestNoGlobalPatternCache: compiling a schema leaves kin-openapi's
// process-wide pattern cache alone: a later kin-openapi validation with its
// default (RE2) engine still fails to compile a lookahead, instead of
// finding admission's ECMA-262 matcher in the cache.
func TestNoGlobalPatternCache(t *testing.T) {
	const pattern = `^(?!udtc-admission-cache-probe$)[a-z-]+$`
	s := mustCompile(t, `{"type":"object","properties":{"p":{"type":"string","pattern":"`+pattern+`"}}}`)
	if _, vs := s.Admit(json.RawMessage(`{"p":"udtc-admission-cache-probe"}`)); len(vs) != 1 {
		t.Fatalf("violations: %+v", vs)
	}
	err := (&openapi3.Schema{Type: &openapi3.Types{"string"}, Pattern: pattern}).VisitJSON("abc")
	if err == nil {
		t.Errorf("kin-openapi's default engine found a cached matcher: err = %v", err)
	}
}

// TestMultipleOfRule: multipleOf is the subset's one rule
// (schema.MultipleOf): integers exactly, even past float64's 2^53, and
// fractions up to floating-point rounding of the value.
func TestMultipleOfRule(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"i":{"type":"integer","multipleOf":2},"f":{"type":"number","multipleOf":0.1}}}`)
	for doc, want := range map[string][]string{
		`{"i":9007199254740994}`:    nil,
		`{"i":9007199254740993}`:    {"properties.i NotMultipleOf"},
		`{"f":0.30000000000000004}`: nil,
		`{"f":123456789.1}`:         nil,
		`{"f":0.33}`:                {"properties.f NotMultipleOf"},
	} {
		if _, vs := admit(t, s, doc); !cmp.Equal(codes(vs), want) {
			t.Errorf("%s: %v, want %v", doc, codes(vs), want)
		}
	}
}
