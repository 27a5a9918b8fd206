package example_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/schema"
	"github.com/udtc/udtc/schema/example"
)

// hard is a schema with every constraint the examples must satisfy.
const hard = `{
  "type": "object",
  "properties": {
    "environment": {"type": "string", "x-resource-type": "Applications.Core/environments"},
    "database": {"type": "string", "x-resource-type": ["Contoso.Data/postgresDatabases", "Contoso.Data/mySqlDatabases"]},
    "anything": {"type": "string", "x-resource-type": "*"},
    "password": {"type": "string", "minLength": 12, "x-radius-sensitive": true},
    "size": {"type": "string", "enum": ["M", "L", "S"], "default": "S"},
    "name": {"type": "string", "minLength": 3, "maxLength": 24, "pattern": "^[a-z][a-z0-9-]*$"},
    "code": {"type": "string", "pattern": "^(?=[A-Z])[A-Z0-9]{2,8}$"},
    "short": {"type": "string", "maxLength": 3},
    "id": {"type": "string", "format": "uuid"},
    "when": {"type": "string", "format": "date-time"},
    "mail": {"type": "string", "format": "email"},
    "site": {"type": "string", "format": "uri"},
    "address": {"type": "string", "format": "ipv4"},
    "replicas": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 10},
    "port": {"type": "integer", "minimum": 1024, "exclusiveMinimum": true, "maximum": 65536, "exclusiveMaximum": true},
    "ratio": {"type": "number", "minimum": 0.1, "maximum": 1, "multipleOf": 0.25},
    "cold": {"type": "number", "maximum": -40},
    "even": {"type": "integer", "minimum": 3, "multipleOf": 2},
    "count": {"type": "integer", "format": "int32"},
    "plain": {"type": "integer"},
    "flag": {"type": "boolean"},
    "hosts": {"type": "array", "minItems": 2, "uniqueItems": true, "items": {"type": "string", "format": "hostname"}},
    "ports": {"type": "array", "minItems": 3, "uniqueItems": true, "items": {"type": "integer", "minimum": 80}},
    "labels": {"type": "object", "minProperties": 1, "additionalProperties": {"type": "string", "minLength": 2}},
    "status": {"type": "object", "readOnly": true, "properties": {"ready": {"type": "boolean"}}, "required": ["ready"]},
    "tls": {
      "type": "object",
      "properties": {
        "mode": {"type": "string", "enum": ["strict", "off"]},
        "certificate": {"type": "string", "format": "byte"},
        "optional": {"type": "string"}
      },
      "required": ["mode", "certificate"]
    },
    "notRequired": {"type": "string", "x-resource-type": "Contoso.Data/caches"}
  },
  "required": ["environment", "database", "anything", "password", "size", "name", "code", "short", "id", "when",
    "mail", "site", "address", "replicas", "port", "ratio", "cold", "even", "count", "plain", "flag", "hosts", "ports", "labels", "status", "tls"]
}`

func TestOfIsAdmitted(t *testing.T) {
	s, err := schema.Decode(json.RawMessage(hard))
	if err != nil {
		t.Fatal(err)
	}
	ex := example.Of(s)
	if len(ex.Needs) > 0 {
		t.Errorf("needs %q", ex.Needs)
	}
	doc := ex.Properties.JSON(0)
	adm, err := admission.Compile(json.RawMessage(hard))
	if err != nil {
		t.Fatal(err)
	}
	if _, vs := adm.Admit(json.RawMessage(doc)); len(vs) > 0 {
		t.Errorf("the example is refused: %v\n%s", vs, doc)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(doc), &got); err != nil {
		t.Fatalf("%v\n%s", err, doc)
	}
	for k, want := range map[string]any{
		"environment": "/planes/radius/local/resourceGroups/default/providers/Applications.Core/environments/example",
		"database":    "/planes/radius/local/resourceGroups/default/providers/Contoso.Data/postgresDatabases/example",
		"size":        "M", // the first enum value, not the default nor sorted
		"replicas":    1.0,
		"port":        1025.0,
		"ratio":       0.25,
		"cold":        -40.0,
		"even":        4.0,
		"count":       0.0, // not the least int32
		"plain":       0.0,
	} {
		if got[k] != want {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
	for _, absent := range []string{"status", "notRequired"} {
		if _, ok := got[absent]; ok {
			t.Errorf("the example sets %s", absent)
		}
	}
	if want := []string{"Applications.Core/environments", "Contoso.Data/postgresDatabases"}; strings.Join(ex.References, " ") != strings.Join(want, " ") {
		t.Errorf("References = %q, want %q", ex.References, want)
	}
	bicep := ex.Properties.Bicep(1)
	for _, want := range []string{"password: 'example-secret-value' // sensitive", "anything: '/planes/radius/local/resourceGroups/default/providers/Applications.Core/environments/example' // the ID of any resource", "ratio: json('0.25')"} {
		if !strings.Contains(bicep, want) {
			t.Errorf("Bicep lacks %q:\n%s", want, bicep)
		}
	}
}

func TestPattern(t *testing.T) {
	for _, c := range []struct {
		expr   string
		lo, hi int64
	}{
		{`^[a-z][a-z0-9-]*$`, 3, 24},
		{`^[a-z_][a-z0-9_]{0,62}$`, 0, -1},
		{`^/`, 2, -1},
		{`^[a-z]+("[a-z]+")?$`, 0, -1},
		{`^(?=[A-Z])[A-Z0-9]{2,8}$`, 0, -1},
		{`^(?!admin).*$`, 1, 5},
		{`^\d{3}-\d{4}$`, 0, -1},
		{`^(dev|test|prod)$`, 0, -1},
		{`^[^\s]+@[^\s]+$`, 0, -1},
		// ECMA-262 that is not Go syntax as written: sampled from the
		// pattern as RE2 runs it.
		{`^\u0041[^]\cJ?$`, 2, 3},
		{`^x[^]{2}\x2d$`, 0, -1},
	} {
		got, ok := example.Pattern(c.expr, c.lo, c.hi, 0)
		if !ok {
			t.Errorf("Pattern(%q, %d, %d): none found", c.expr, c.lo, c.hi)
			continue
		}
		if n := schema.Length(got); n < c.lo || c.hi >= 0 && n > c.hi {
			t.Errorf("Pattern(%q) = %q: %d characters, want %d to %d", c.expr, got, n, c.lo, c.hi)
		}
		if other, ok := example.Pattern(c.expr, c.lo, -1, 1); ok && other == got && strings.Contains(c.expr, "*") {
			t.Errorf("variant 1 of %q is variant 0's %q", c.expr, got)
		}
	}
	if got, ok := example.Pattern(`^a{3}$`, 4, -1, 0); ok {
		t.Errorf("Pattern found %q, longer than the expression allows", got)
	}
}

// TestNeedsInput: a value no derived candidate satisfies is reported, with
// what it needs, and shown as a comment in Bicep.
func TestNeedsInput(t *testing.T) {
	s, err := schema.Decode(json.RawMessage(`{"type": "object", "properties": {"code": {"type": "string", "pattern": "^(?!x)(?=y)z$"}}, "required": ["code"]}`))
	if err != nil {
		t.Fatal(err)
	}
	ex := example.Of(s)
	if len(ex.Needs) != 1 || !strings.HasPrefix(ex.Needs[0], "properties.code: a value matching ^(?!x)") {
		t.Fatalf("Needs = %q", ex.Needs)
	}
	if b := ex.Properties.Bicep(0); !strings.Contains(b, "code: 'example' // needs a value matching") {
		t.Errorf("Bicep:\n%s", b)
	}
}

func TestID(t *testing.T) {
	if got, want := example.ID("Contoso.Messaging", "buses/queues"), "/planes/radius/local/resourceGroups/default/providers/Contoso.Messaging/buses/example/queues/example"; got != want {
		t.Errorf("ID = %q, want %q", got, want)
	}
	if got := example.ResourceName("buses/queues"); got != "example/example" {
		t.Errorf("ResourceName = %q", got)
	}
}

// TestHugeBoundsAreNeeds: what would make a huge example is reported as a
// need instead of written (a registered schema may ask for anything).
func TestHugeBoundsAreNeeds(t *testing.T) {
	s, err := schema.Decode(json.RawMessage(`{"type": "object", "properties": {
		"same": {"type": "array", "minItems": 3, "uniqueItems": true, "items": {"type": "boolean"}},
		"long": {"type": "string", "minLength": 1000000000},
		"many": {"type": "array", "minItems": 1000000000, "items": {"type": "string"}},
		"wide": {"type": "object", "minProperties": 1000000000, "additionalProperties": {"type": "string"}},
		"nested": {"type": "array", "minItems": 60, "items": {"type": "array", "minItems": 60, "items": {"type": "array", "minItems": 60, "items": {"type": "string"}}}}},
		"required": ["long", "many", "wide", "nested", "same"]}`))
	if err != nil {
		t.Fatal(err)
	}
	ex := example.Of(s)
	want := []string{"properties.long: a value of at least 1000000000 characters", "properties.many: 1000000000 items", "properties.wide: 1000000000 entries",
		"the example stops after 4096 values", "properties.same[2]: a value different from the other items"}
	got := strings.Join(ex.Needs, "\n")
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("Needs lack %q:\n%s", w, got)
		}
	}
	if n := len(ex.Properties.JSON(0)); n > 1<<20 {
		t.Errorf("the example is %d bytes", n)
	}
}
