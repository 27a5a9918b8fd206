package check

import (
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/manifest"
)

// Rule is one rule of the checker: a stable id, its severity and the line
// that documents it (docs/rules.md is generated from this table).
type Rule struct {
	ID       string
	Severity diag.Severity
	Doc      string
}

// Rules lists every rule the checker and the loader report, in the order
// docs/rules.md shows them. Rule ids are stable: tools may match on them.
var Rules = []Rule{
	// Files and YAML.
	{manifest.RuleFileTooLarge, diag.Error, "A manifest file is at most 10 MiB."},
	{manifest.RuleYAMLSyntax, diag.Error, "The file is valid UTF-8 text and valid YAML (or JSON)."},
	{manifest.RuleMultipleDocuments, diag.Error, "A file holds exactly one YAML document (no `---` separators between documents)."},
	{manifest.RuleYAMLLimit, diag.Error, "A document nests at most 256 levels and expands to at most 1,000,000 nodes, aliases included."},
	{RuleEmptyFile, diag.Error, "A manifest file is not empty."},
	{manifest.RuleNotManifest, diag.Note, "A `.yaml`, `.yml` or `.json` file found by walking a directory whose top level is not a mapping with `namespace`, `name` or `types` (bicepconfig.json, package.json) is not a manifest: it is skipped with this note. A file named on the command line is always checked. Directories holding `.udtc-generated` (udtc gen output) are never read."},

	// Manifest structure.
	{RuleValueType, diag.Error, "Every manifest key holds the kind of value it takes (a mapping, a list, a string)."},
	{RuleUnknownKey, diag.Error, "Only the keys of the manifest format are allowed; the hint names the closest one."},
	{RuleDuplicateKey, diag.Error, "No mapping repeats a key, at any depth."},
	{RuleMissingKey, diag.Error, "Required keys are present: namespace (or name), types, apiVersions, schema."},
	{RuleNamespaceConflict, diag.Error, "A file gives `namespace` or `name`, not both."},
	{RuleEmpty, diag.Error, "`types` and every type's `apiVersions` declare at least one entry."},

	// Names.
	{RuleNamespaceName, diag.Error, "A namespace is two segments joined by `.`; each starts with a letter, continues with letters, digits or hyphens, and does not end with a hyphen; at most 63 characters in all."},
	{RuleTypeName, diag.Error, "Each segment of a type name starts with a letter, continues with letters, digits or hyphens, does not end with a hyphen, and is at most 63 characters."},
	{RuleLocationName, diag.Error, "A location name follows the type-name rule."},
	{RuleLocationAddress, diag.Error, "A location address is an absolute http or https URL."},
	{RuleAPIVersion, diag.Error, "An API version is YYYY-MM-DD or YYYY-MM-DD-preview, and the date exists in the calendar."},
	{RuleCapability, diag.Error, "A capability is a PascalCase name, listed once."},
	{RuleRadiusName, diag.Warning, "Radius's rad CLI would reject the name: it wants PascalCase namespace segments and camelCase type names."},

	// Types across files.
	{RuleDuplicateType, diag.Error, "A type is declared once per namespace, across all files; names that differ only in case collide (the registry looks names up case-insensitively)."},
	{RuleNamespaceCase, diag.Error, "Every file spells a namespace with the same casing."},
	{RuleLocationConflict, diag.Error, "Files that declare the same location of a namespace agree on its address."},
	{RuleParentMissing, diag.Error, "The parent of a child type (`parent/child`) is declared in the same namespace."},
	{RuleDefaultAPIVersion, diag.Error, "`defaultApiVersion` names one of the type's API versions."},

	// Schemas.
	{RuleSchemaUndeclared, diag.Warning, "`schema: {}` declares no schema: accepted (built-in Radius types use it), but nothing is validated or typed."},
	{RuleSchemaRoot, diag.Error, "The root of a schema is `type: object` with declared properties, or a map."},
	{RuleTypeMissing, diag.Error, "Every schema node declares its `type`: each property, `items` and `additionalProperties`."},
	{RuleTypeInvalid, diag.Error, "`type` is one of string, integer, number, boolean, object, array, any; type lists such as [string, 'null'] are not allowed (use `nullable`)."},
	{RuleItemsMissing, diag.Error, "An array declares `items`."},
	{RuleMapWithProperties, diag.Error, "An object declares `properties` or a typed `additionalProperties` (a map), not both."},
	{RuleAdditionalTrue, diag.Error, "`additionalProperties: true` is not allowed: give the value schema (`additionalProperties: {type: string}`); `false` means the default closed object."},
	{RulePolymorphism, diag.Error, "`allOf`, `anyOf`, `oneOf`, `not` and `discriminator` are not supported at any depth."},
	{RuleRef, diag.Error, "`$ref` names a built-in schema (`https://radapp.io/schemas/v1#RecipeStatus`); other references are not allowed."},
	{RuleRefSiblings, diag.Warning, "Keywords beside `$ref` other than `description` are ignored (OpenAPI 3.0)."},
	{RuleRequired, diag.Error, "`required` lists declared properties, each once."},
	{RuleKeywordValue, diag.Error, "A keyword's value has the right kind: lengths and counts are non-negative integers, bounds are numbers (whole numbers on integers), flags are booleans, text is a string."},
	{RuleKeywordType, diag.Error, "A keyword applies to the node's type (minLength on strings, minimum on numbers, items on arrays, properties on objects, ...)."},
	{RuleEnum, diag.Error, "`enum` is a non-empty list of unique values, each of the declared type."},
	{RuleDefault, diag.Error, "`default` is of the declared type, a member of the enum, within the bounds and lengths, and matches the pattern."},
	{RuleRange, diag.Error, "Bounds are consistent: minLength ≤ maxLength, minimum ≤ maximum (and not an empty exclusive range), minItems ≤ maxItems, minProperties ≤ maxProperties, multipleOf > 0."},
	{RulePattern, diag.Error, "`pattern` compiles as an ECMA-262 regular expression."},
	{RulePatternBicep, diag.Warning, "`pattern` uses lookaround or backreferences, which Bicep does not check."},
	{RuleFormat, diag.Error, "`format` fits the type: int32/int64 on integer; float/double on number; date, date-time, email, uuid, uri, hostname, ipv4, ipv6, byte, binary, password on string."},
	{RuleFormatUnknown, diag.Warning, "`format` is one of the known formats."},
	{RuleReadWriteOnly, diag.Error, "A property is not both `readOnly` and `writeOnly`."},
	{RuleSensitive, diag.Error, "`x-radius-sensitive` is a boolean on a string or an object."},
	{RuleUnknownKeyword, diag.Warning, "Unknown schema keywords are ignored; the hint names the closest supported one. `x-` extensions are allowed."},
	{RuleSchemaDepth, diag.Error, "A schema nests at most 32 levels."},
}

// Rule ids.
const (
	RuleEmptyFile         = "empty-file"
	RuleValueType         = "value-type"
	RuleUnknownKey        = "unknown-key"
	RuleDuplicateKey      = "duplicate-key"
	RuleMissingKey        = "missing-key"
	RuleNamespaceConflict = "namespace-conflict"
	RuleEmpty             = "empty"
	RuleNamespaceName     = "namespace-name"
	RuleTypeName          = "type-name"
	RuleLocationName      = "location-name"
	RuleLocationAddress   = "location-address"
	RuleAPIVersion        = "api-version"
	RuleCapability        = "capability"
	RuleRadiusName        = "radius-name"
	RuleDuplicateType     = "duplicate-type"
	RuleNamespaceCase     = "namespace-case"
	RuleLocationConflict  = "location-conflict"
	RuleParentMissing     = "parent-missing"
	RuleDefaultAPIVersion = "default-api-version"
	RuleSchemaUndeclared  = "schema-undeclared"
	RuleSchemaRoot        = "schema-root"
	RuleTypeMissing       = "type-missing"
	RuleTypeInvalid       = "type-invalid"
	RuleItemsMissing      = "items-missing"
	RuleMapWithProperties = "map-with-properties"
	RuleAdditionalTrue    = "additional-properties-true"
	RulePolymorphism      = "polymorphism"
	RuleRef               = "ref"
	RuleRefSiblings       = "ref-siblings"
	RuleRequired          = "required"
	RuleKeywordValue      = "keyword-value"
	RuleKeywordType       = "keyword-type"
	RuleEnum              = "enum"
	RuleDefault           = "default"
	RuleRange             = "range"
	RulePattern           = "pattern"
	RulePatternBicep      = "pattern-bicep"
	RuleFormat            = "format"
	RuleFormatUnknown     = "format-unknown"
	RuleReadWriteOnly     = "read-write-only"
	RuleSensitive         = "sensitive"
	RuleUnknownKeyword    = "unknown-keyword"
	RuleSchemaDepth       = "schema-depth"
)

// MaxSchemaDepth is the deepest schema nesting accepted.
const MaxSchemaDepth = 32

var severityOf = func() map[string]diag.Severity {
	m := make(map[string]diag.Severity, len(Rules))
	for _, r := range Rules {
		m[r.ID] = r.Severity
	}
	return m
}()
