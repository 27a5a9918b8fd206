package compat

import (
	"strings"

	"github.com/udtc/udtc/generator/diag"
)

// Category separates breaks of the wire API (what clients send and read)
// from breaks of the generated Go client only, as buf separates wire from
// source compatibility.
type Category string

// Categories.
const (
	Wire Category = "wire"
	Go   Category = "go"
)

// CategoryOf returns the category of a rule: Go for the rules named go-*.
func CategoryOf(rule string) Category {
	if strings.HasPrefix(rule, "go-") {
		return Go
	}
	return Wire
}

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
	RuleManualProvisioning       = "manual-provisioning-changed"
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
)

// Rules lists every rule of `udtc breaking`, in the order docs/rules.md
// shows them (generator.Rules joins them into the one rule table). Rule ids
// are stable: tools may match on them. Note is the severity "info".
var Rules = []diag.Rule{
	// Breaks within an existing API version.
	{ID: RuleTypeRemoved, Severity: diag.Error, Doc: "A resource type is removed (every API version of it)."},
	{ID: RuleAPIVersionRemoved, Severity: diag.Error, Doc: "An API version of a resource type is removed."},
	{ID: RulePropertyRemoved, Severity: diag.Error, Doc: "A writable property is removed: requests that set it are rejected."},
	{ID: RuleReadOnlyPropertyRemoved, Severity: diag.Error, Doc: "A read-only property is removed: clients that read it break."},
	{ID: RulePropertyRenamed, Severity: diag.Error, Doc: "A property is removed and another with the same schema is added to the same object: reported once, as a possible rename (still a removal for clients)."},
	{ID: RuleTypeChanged, Severity: diag.Error, Doc: "A property's type changes (string → integer, object → map, ...)."},
	{ID: RuleElementTypeChanged, Severity: diag.Error, Doc: "A map's value type or an array's item type changes."},
	{ID: RuleRequiredPropertyAdded, Severity: diag.Error, Doc: "A new required writable property: existing requests lack it."},
	{ID: RulePropertyBecameRequired, Severity: diag.Error, Doc: "An optional writable property becomes required."},
	{ID: RuleEnumValueRemoved, Severity: diag.Error, Doc: "A value is removed from the enum of a writable property."},
	{ID: RuleEnumAdded, Severity: diag.Error, Doc: "An enum is added to a writable property that accepted any value."},
	{ID: RuleMaxDecreased, Severity: diag.Error, Doc: "maxLength, maximum, maxItems or maxProperties of a writable property is lowered or added (or the maximum made exclusive)."},
	{ID: RuleMinIncreased, Severity: diag.Error, Doc: "minLength, minimum, minItems or minProperties of a writable property is raised or added (or the minimum made exclusive)."},
	{ID: RulePatternChanged, Severity: diag.Error, Doc: "A pattern is added to a writable property, or its pattern changes."},
	{ID: RuleMadeReadOnly, Severity: diag.Error, Doc: "A writable property becomes read-only: requests that set it are rejected."},
	{ID: RuleSensitiveRemoved, Severity: diag.Error, Doc: "`x-radius-sensitive` is removed from a property: Radius stops encrypting its value at rest and returns it in clear text. Refused in preview versions too (`breaking.previews: allow` does not allow it); only `--allow-breaking` does."},
	{ID: RuleDefaultChanged, Severity: diag.Warning, Doc: "A property's default value changes, appears or disappears: resources that omit it behave differently."},
	{ID: RuleDefaultAPIVersionChanged, Severity: diag.Warning, Doc: "The type's default API version changes."},
	{ID: RuleManualProvisioning, Severity: diag.Warning, Doc: "The capability `ManualResourceProvisioning` is added to or removed from a type: what Radius does with its resources changes. Added: recipes stop running, a DELETE removes only Radius's record and orphans what a recipe deployed. Removed: every PUT and DELETE runs the environment's recipe. `udtc publish` reports it too."},
	{ID: RuleFormatChanged, Severity: diag.Warning, Doc: "A property's format changes (int32 → int64, date → date-time, ...)."},
	{ID: RuleEnumValueAddedReadOnly, Severity: diag.Warning, Doc: "A value is added to the enum of a read-only property: clients that switch over the values may not handle it."},
	{ID: RuleReadOnlyPropertyOptional, Severity: diag.Warning, Doc: "A required read-only property becomes optional: clients may find it absent."},

	// Compatible changes and new versions.
	{ID: RuleTypeAdded, Severity: diag.Note, Doc: "A resource type is added."},
	{ID: RuleAPIVersionAdded, Severity: diag.Note, Doc: "An API version is added; the message summarises how it differs from the previous version (a new version is the place to break)."},
	{ID: RulePropertyAdded, Severity: diag.Note, Doc: "An optional property, or a read-only one, is added."},
	{ID: RuleEnumValueAdded, Severity: diag.Note, Doc: "A value is added to the enum of a writable property."},

	// The generated Go client (see go-client.md), within an existing API version.
	{ID: RuleGoTypeRenamed, Severity: diag.Warning, Doc: "The Go struct or enum type of a schema node gets another name (a name collision moved)."},
	{ID: RuleGoFieldRenamed, Severity: diag.Warning, Doc: "The Go field of a property gets another name."},
	{ID: RuleGoConstantRenamed, Severity: diag.Warning, Doc: "The Go constant of an enum value gets another name."},
}

var ruleByID = func() map[string]diag.Rule {
	m := make(map[string]diag.Rule, len(Rules))
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
