package compat

import "github.com/udtc/udtc/generator/diag"

// Rule is one rule of `udtc breaking`: a stable id, its severity (Note is
// shown as "info"), its category and the line that documents it
// (docs/rules.md is generated from this table).
type Rule struct {
	ID       string
	Severity diag.Severity
	Category Category
	Doc      string
}

// Category separates breaks of the wire API (what clients send and read)
// from breaks of the generated Go client only, as buf separates wire from
// source compatibility.
type Category string

// Categories.
const (
	Wire Category = "wire"
	Go   Category = "go"
)

// Rule ids.
const (
	RuleTypeRemoved              = "type-removed"
	RuleAPIVersionRemoved        = "api-version-removed"
	RulePropertyRemoved          = "property-removed"
	RuleReadOnlyPropertyRemoved  = "read-only-property-removed"
	RulePropertyRenamed          = "property-possibly-renamed"
	RuleTypeChanged              = "type-changed"
	RuleElementTypeChanged       = "element-type-changed"
	RuleRequiredPropertyAdded    = "required-property-added"
	RulePropertyBecameRequired   = "property-became-required"
	RuleEnumValueRemoved         = "enum-value-removed"
	RuleEnumAdded                = "enum-added"
	RuleMaxDecreased             = "max-decreased"
	RuleMinIncreased             = "min-increased"
	RulePatternChanged           = "pattern-changed"
	RuleMadeReadOnly             = "made-read-only"
	RuleDefaultChanged           = "default-changed"
	RuleSensitiveRemoved         = "sensitive-removed"
	RuleDefaultAPIVersionChanged = "default-api-version-changed"
	RuleFormatChanged            = "format-changed"
	RuleEnumValueAddedReadOnly   = "read-only-enum-value-added"
	RuleReadOnlyPropertyOptional = "read-only-property-became-optional"
	RuleTypeAdded                = "type-added"
	RuleAPIVersionAdded          = "api-version-added"
	RulePropertyAdded            = "property-added"
	RuleEnumValueAdded           = "enum-value-added"
	RuleGoTypeRenamed            = "go-type-renamed"
	RuleGoFieldRenamed           = "go-field-renamed"
	RuleGoConstantRenamed        = "go-constant-renamed"
	RuleGoPointerChanged         = "go-pointer-changed"
)

// Rules lists every rule of `udtc breaking`, in the order docs/rules.md
// shows them. Rule ids are stable: tools may match on them.
var Rules = []Rule{
	// Breaks within an existing API version.
	{RuleTypeRemoved, diag.Error, Wire, "A resource type is removed (every API version of it)."},
	{RuleAPIVersionRemoved, diag.Error, Wire, "An API version of a resource type is removed."},
	{RulePropertyRemoved, diag.Error, Wire, "A writable property is removed: requests that set it are rejected."},
	{RuleReadOnlyPropertyRemoved, diag.Error, Wire, "A read-only property is removed: clients that read it break."},
	{RulePropertyRenamed, diag.Error, Wire, "A property is removed and another with the same schema is added to the same object: reported once, as a possible rename (still a removal for clients)."},
	{RuleTypeChanged, diag.Error, Wire, "A property's type changes (string → integer, object → map, ...)."},
	{RuleElementTypeChanged, diag.Error, Wire, "A map's value type or an array's item type changes."},
	{RuleRequiredPropertyAdded, diag.Error, Wire, "A new required writable property: existing requests lack it."},
	{RulePropertyBecameRequired, diag.Error, Wire, "An optional writable property becomes required."},
	{RuleEnumValueRemoved, diag.Error, Wire, "A value is removed from the enum of a writable property."},
	{RuleEnumAdded, diag.Error, Wire, "An enum is added to a writable property that accepted any value."},
	{RuleMaxDecreased, diag.Error, Wire, "maxLength, maximum, maxItems or maxProperties of a writable property is lowered or added (or the maximum made exclusive)."},
	{RuleMinIncreased, diag.Error, Wire, "minLength, minimum, minItems or minProperties of a writable property is raised or added (or the minimum made exclusive)."},
	{RulePatternChanged, diag.Error, Wire, "A pattern is added to a writable property, or its pattern changes."},
	{RuleMadeReadOnly, diag.Error, Wire, "A writable property becomes read-only: requests that set it are rejected."},
	{RuleDefaultChanged, diag.Warning, Wire, "A property's default value changes, appears or disappears: resources that omit it behave differently."},
	{RuleSensitiveRemoved, diag.Warning, Wire, "`x-radius-sensitive` is removed: the value is no longer redacted."},
	{RuleDefaultAPIVersionChanged, diag.Warning, Wire, "The type's default API version changes."},
	{RuleFormatChanged, diag.Warning, Wire, "A property's format changes (int32 → int64, date → date-time, ...)."},
	{RuleEnumValueAddedReadOnly, diag.Warning, Wire, "A value is added to the enum of a read-only property: clients that switch over the values may not handle it."},
	{RuleReadOnlyPropertyOptional, diag.Warning, Wire, "A required read-only property becomes optional: clients may find it absent."},

	// Compatible changes and new versions.
	{RuleTypeAdded, diag.Note, Wire, "A resource type is added."},
	{RuleAPIVersionAdded, diag.Note, Wire, "An API version is added; the message summarises how it differs from the previous version (a new version is the place to break)."},
	{RulePropertyAdded, diag.Note, Wire, "An optional property, or a read-only one, is added."},
	{RuleEnumValueAdded, diag.Note, Wire, "A value is added to the enum of a writable property."},

	// The generated Go client (see go-client.md), within an existing API version.
	{RuleGoTypeRenamed, diag.Warning, Go, "The Go struct or enum type of a schema node gets another name (a name collision moved)."},
	{RuleGoFieldRenamed, diag.Warning, Go, "The Go field of a property gets another name."},
	{RuleGoConstantRenamed, diag.Warning, Go, "The Go constant of an enum value gets another name."},
	{RuleGoPointerChanged, diag.Warning, Go, "A Go field changes between pointer and value (a property became required or optional)."},
}

var ruleByID = func() map[string]Rule {
	m := make(map[string]Rule, len(Rules))
	for _, r := range Rules {
		m[r.ID] = r
	}
	return m
}()

// SeverityName is "error", "warning" or "info".
func SeverityName(s diag.Severity) string {
	if s == diag.Note {
		return "info"
	}
	return s.String()
}
