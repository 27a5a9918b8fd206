package check

import (
	"strings"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/generator/model"
)

// Rules lists every rule the checker and the loader report, in the order
// docs/rules.md shows them (generator.Rules adds the emitters' rules).
// Rule ids are stable: tools may match on them.
var Rules = []diag.Rule{
	// Files and YAML.
	{ID: manifest.RuleFileTooLarge, Severity: diag.Error, Doc: "A manifest file is at most 10 MiB."},
	{ID: manifest.RuleYAMLSyntax, Severity: diag.Error, Doc: "The file is valid UTF-8 text and valid YAML (or JSON)."},
	{ID: manifest.RuleJSONSyntax, Severity: diag.Error, Doc: "A schema sent to the registry is valid UTF-8 text and valid JSON (read as JSON, not YAML)."},
	{ID: manifest.RuleMultipleDocuments, Severity: diag.Error, Doc: "A manifest file holds exactly one YAML document (no `---` separators between documents). A file found by walking a directory gets this error only when one of its documents looks like a manifest; a file of Kubernetes objects or resource documents is not-a-manifest."},
	{ID: manifest.RuleYAMLLimit, Severity: diag.Error, Doc: "A document nests at most 256 levels and expands to at most 1,000,000 nodes, aliases included."},
	{ID: RuleEmptyFile, Severity: diag.Error, Doc: "A manifest file is not empty."},
	{ID: manifest.RuleNotManifest, Severity: diag.Note, Doc: "A `.yaml`, `.yml` or `.json` file found by walking a directory whose top level is not a mapping with `namespace`, `name` or `types` (tsconfig.json, a list), or none of whose several documents has such a top level (Kubernetes objects), is not a manifest: it is skipped with this note; a project's own `udtc.yaml` and `bicepconfig.json` are skipped without it. A file named on the command line is always checked. Directories holding `.udtc-generated` (udtc gen output) are never read."},

	// Manifest structure.
	{ID: RuleValueType, Severity: diag.Error, Doc: "Every manifest key holds the kind of value it takes (a mapping, a list, a string)."},
	{ID: RuleUnknownKey, Severity: diag.Error, Doc: "Only the keys of the manifest format are allowed; the hint names the closest one."},
	{ID: RuleDuplicateKey, Severity: diag.Error, Doc: "No mapping repeats a key, at any depth."},
	{ID: RuleMissingKey, Severity: diag.Error, Doc: "Required keys are present: namespace (or name), types, apiVersions, schema."},
	{ID: RuleNamespaceConflict, Severity: diag.Error, Doc: "A file gives `namespace` or `name`, not both."},
	{ID: RuleEmpty, Severity: diag.Error, Doc: "`types` and every type's `apiVersions` declare at least one entry."},

	// Names.
	{ID: RuleNamespaceName, Severity: diag.Error, Doc: "A namespace is two segments joined by `.`; each starts with a letter, continues with letters, digits or hyphens, and does not end with a hyphen; at most 63 characters in all."},
	{ID: RuleTypeName, Severity: diag.Error, Doc: "Each segment of a type name starts with a letter, continues with letters, digits or hyphens, does not end with a hyphen, and is at most 63 characters."},
	{ID: RuleLocationName, Severity: diag.Error, Doc: "A location name follows the type-name rule."},
	{ID: RuleLocationAddress, Severity: diag.Error, Doc: "A location address is an absolute http or https URL."},
	{ID: RuleAPIVersion, Severity: diag.Error, Doc: "An API version is YYYY-MM-DD or YYYY-MM-DD-preview, and the date exists in the calendar."},
	{ID: RuleCapability, Severity: diag.Error, Doc: "A capability is a PascalCase name, listed once."},
	{ID: RuleRadiusName, Severity: diag.Warning, Doc: "Radius's rad CLI would reject the name: it wants PascalCase namespace segments and camelCase type names (an error, radius-unsupported, under `target: radius`)."},
	{ID: RuleRadiusUnsupported, Severity: diag.Error, Doc: "Under `target: radius` (the default; docs/radius.md), what today's Radius refuses at registration or cannot deploy: child types, capabilities UCP does not know, the `name` key, names rad refuses, and in schemas a `$ref`, `type: any` outside platformOptions' additionalProperties, a pattern Go's regexp does not compile, the reserved properties status and recipe. `target: udtc` allows them (udtc serve alone)."},

	// Types across files.
	{ID: RuleDuplicateType, Severity: diag.Error, Doc: "A type is declared once per namespace, across all files; names that differ only in case collide (the registry looks names up case-insensitively)."},
	{ID: RuleNamespaceCase, Severity: diag.Error, Doc: "Every file spells a namespace with the same casing."},
	{ID: RuleLocationConflict, Severity: diag.Error, Doc: "Files that declare the same location of a namespace agree on its address."},
	{ID: RuleParentMissing, Severity: diag.Error, Doc: "The parent of a child type (`parent/child`) is declared in the same namespace."},
	{ID: RuleDefaultAPIVersion, Severity: diag.Error, Doc: "`defaultApiVersion` names one of the type's API versions."},
	{ID: RuleLifecycle, Severity: diag.Error, Doc: "An entry of udtc.yaml's `lifecycle` (docs/lifecycle.md) names a declared API version as `Namespace/type@version`, one entry per version; `deprecated` is a date YYYY-MM-DD, `sunset` a date not before it, and `replacement` a newer API version of the same type. Reported at the entry's key in udtc.yaml."},

	// Schemas.
	{ID: RuleSchemaUndeclared, Severity: diag.Warning, Doc: "`schema: {}` declares no schema of its own: accepted (built-in Radius types use it); resources then have only Radius's base properties (or, with `baseProperties: false`, anything goes, unvalidated and untyped)."},
	{ID: RuleBaseProperty, Severity: diag.Error, Doc: "Radius merges its base resource properties into every schema (`application`, `environment` and `codeReference` strings, `connections` a map; docs/radius.md): a schema declaring one of them declares it as Radius does, and the root is not a map. Off with `baseProperties: false`."},
	{ID: RuleSchemaRoot, Severity: diag.Error, Doc: "The root of a schema is `type: object` with declared properties, or a map."},
	{ID: RuleTooManyErrors, Severity: diag.Error, Doc: "A schema sent to the registry is checked up to 1,000 errors; past that the rest are counted, not listed."},
	{ID: RuleTypeMissing, Severity: diag.Error, Doc: "Every schema node declares its `type`: each property, `items` and `additionalProperties` (under `target: udtc`; `target: radius` reads a node without `type` as Radius does, see type-implied)."},
	{ID: RuleTypeImplied, Severity: diag.Warning, Doc: "Under `target: radius` (and in the registry) a schema node without `type` is read as Radius reads it: an object when it has `properties` or `additionalProperties`, an array when it has `items`, silently; otherwise any value, unchecked, typed `any` in Bicep and Go, which this warns about."},
	{ID: RuleTypeInvalid, Severity: diag.Error, Doc: "`type` is one of " + strings.Join(model.TypeNames(), ", ") + "; type lists such as [string, 'null'] are not allowed (use `nullable`)."},
	{ID: RuleItemsMissing, Severity: diag.Error, Doc: "An array declares `items`."},
	{ID: RuleMapWithProperties, Severity: diag.Error, Doc: "An object declares `properties` or a typed `additionalProperties` (a map), not both."},
	{ID: RuleAdditionalTrue, Severity: diag.Error, Doc: "`additionalProperties: true` is not allowed: give the value schema (`additionalProperties: {type: string}`); `false` means the default closed object."},
	{ID: RulePolymorphism, Severity: diag.Error, Doc: "`allOf`, `anyOf`, `oneOf`, `not` and `discriminator` are not supported at any depth."},
	{ID: RuleRef, Severity: diag.Error, Doc: "`$ref` names a built-in schema (`https://radapp.io/schemas/v1#RecipeStatus`); other references are not allowed."},
	{ID: RuleRefSiblings, Severity: diag.Warning, Doc: "Keywords beside `$ref` other than `description` are ignored (OpenAPI 3.0)."},
	{ID: RuleRequired, Severity: diag.Error, Doc: "`required` lists declared properties, each once."},
	{ID: RuleRequiredDefault, Severity: diag.Warning, Doc: "A required property has no `default`: a client must always send it, so the default never applies."},
	{ID: RuleKeywordValue, Severity: diag.Error, Doc: "A keyword's value has the right kind: lengths and counts are non-negative integers, bounds are numbers (whole numbers on integers), flags are booleans, text is a string. Every value, under any keyword, is one JSON can hold (not `.inf`, `.nan` or a mapping key that is not a string): it is reported at the value, once."},
	{ID: RuleKeywordType, Severity: diag.Error, Doc: "A keyword applies to the node's type (minLength on strings, minimum on numbers, items on arrays, properties on objects, ...)."},
	{ID: RuleEnum, Severity: diag.Error, Doc: "`enum` is a non-empty list of unique values, each of the declared type."},
	{ID: RuleDefault, Severity: diag.Error, Doc: "`default` is of the declared type, a member of the enum, within the bounds and lengths, and matches the pattern."},
	{ID: RuleRange, Severity: diag.Error, Doc: "Bounds are consistent: minLength ≤ maxLength, minimum ≤ maximum (and not an empty exclusive range), minItems ≤ maxItems, minProperties ≤ maxProperties, multipleOf > 0."},
	{ID: RulePattern, Severity: diag.Error, Doc: "`pattern` compiles as an ECMA-262 regular expression."},
	{ID: RulePatternBicep, Severity: diag.Warning, Doc: "`pattern` uses lookaround or backreferences, which Bicep does not check."},
	{ID: RulePatternLetterEscape, Severity: diag.Warning, Doc: "`pattern` escapes a letter ECMA-262 gives no meaning to (`\\A`, `\\z`, `\\e`): it matches the letter itself, where other dialects read an anchor or an escape, and validators that use the `u` flag refuse it."},
	{ID: RulePatternBacktracking, Severity: diag.Warning, Doc: "`pattern` needs the backtracking engine (lookaround, backreferences, escapes Go's RE2 cannot run with the same meaning): the registry matches it under a time backstop per request and refuses a value it cannot match in time."},
	{ID: RulePatternCost, Severity: diag.Warning, Doc: "`pattern` has a bounded repetition (`{n,m}`) that makes matching cost many steps per character: RE2 compiles it as that many copies. The registry charges each match (characters + 1) × those steps against a budget of 100,000,000 steps per request and refuses a value that costs more; the warning names the repetition and the cost, when values under 1 MiB would be refused and `maxLength` does not keep them out."},
	{ID: RuleFormat, Severity: diag.Error, Doc: "`format` fits the type: int32/int64 on integer; float/double on number; date, date-time, email, uuid, uri, hostname, ipv4, ipv6, byte, binary, password on string."},
	{ID: RuleFormatUnknown, Severity: diag.Warning, Doc: "`format` is one of the known formats."},
	{ID: RuleReadWriteOnly, Severity: diag.Error, Doc: "A property is not both `readOnly` and `writeOnly`."},
	{ID: RuleSensitive, Severity: diag.Error, Doc: "`x-radius-sensitive` is a boolean on a string or an object."},
	{ID: RuleResourceReference, Severity: diag.Error, Doc: "`x-resource-type` names what a reference points at: a full resource type name `Namespace/type` (a child type as `Namespace/parent/child`), a non-empty list of them, each once, or `\"*\"` for any type."},
	{ID: RuleResourceReferenceType, Severity: diag.Error, Doc: "`x-resource-type` applies to `type: string` only: a reference holds a resource ID."},
	{ID: RuleResourceReferenceUnknown, Severity: diag.Warning, Doc: "A reference names a type of a namespace the manifests declare, but that namespace declares no such type (likely a typo; check all files of the namespace together)."},
	{ID: RuleSecurityKeywordTypo, Severity: diag.Error, Doc: "A keyword at most two typos (or only letter case) away from a keyword that protects a secret (`x-radius-sensitve` for `x-radius-sensitive`) is an error, with the keyword as the hint: kept as written, the secret would be stored in clear, returned by GET and not `@secure` in Bicep. Another vendor's extension (`x-ms-sensitive`) is not taken for one."},
	{ID: RuleUnknownKeyword, Severity: diag.Warning, Doc: "Unknown schema keywords are ignored; the hint names the closest supported one. `x-` extensions are allowed; one close to a known extension (`x-resource-types`) warns with the known one as the hint."},
	{ID: RuleSchemaDepth, Severity: diag.Error, Doc: "A schema nests at most 32 levels."},
}

// Rule ids.
const (
	RuleEmptyFile           = "empty-file"
	RuleValueType           = "value-type"
	RuleUnknownKey          = "unknown-key"
	RuleDuplicateKey        = "duplicate-key"
	RuleMissingKey          = "missing-key"
	RuleNamespaceConflict   = "namespace-conflict"
	RuleEmpty               = "empty"
	RuleNamespaceName       = "namespace-name"
	RuleTypeName            = "type-name"
	RuleLocationName        = "location-name"
	RuleLocationAddress     = "location-address"
	RuleAPIVersion          = "api-version"
	RuleCapability          = "capability"
	RuleRadiusName          = "radius-name"
	RuleRadiusUnsupported   = "radius-unsupported"
	RuleDuplicateType       = "duplicate-type"
	RuleNamespaceCase       = "namespace-case"
	RuleLocationConflict    = "location-conflict"
	RuleParentMissing       = "parent-missing"
	RuleDefaultAPIVersion   = "default-api-version"
	RuleSchemaUndeclared    = "schema-undeclared"
	RuleBaseProperty        = "base-property"
	RuleSchemaRoot          = "schema-root"
	RuleTooManyErrors       = "too-many-errors"
	RuleTypeMissing         = "type-missing"
	RuleTypeImplied         = "type-implied"
	RuleTypeInvalid         = "type-invalid"
	RuleItemsMissing        = "items-missing"
	RuleMapWithProperties   = "map-with-properties"
	RuleAdditionalTrue      = "additional-properties-true"
	RulePolymorphism        = "polymorphism"
	RuleRef                 = "ref"
	RuleRefSiblings         = "ref-siblings"
	RuleRequired            = "required"
	RuleRequiredDefault     = "required-default"
	RuleKeywordValue        = "keyword-value"
	RuleKeywordType         = "keyword-type"
	RuleEnum                = "enum"
	RuleDefault             = "default"
	RuleRange               = "range"
	RulePattern             = "pattern"
	RulePatternBicep        = "pattern-bicep"
	RulePatternBacktracking = "pattern-backtracking"
	RulePatternLetterEscape = "pattern-letter-escape"
	RulePatternCost         = "pattern-cost"
	RuleFormat              = "format"
	RuleFormatUnknown       = "format-unknown"
	RuleReadWriteOnly       = "read-write-only"
	RuleSensitive           = "sensitive"
	RuleSecurityKeywordTypo = "security-keyword-typo"
	RuleUnknownKeyword      = "unknown-keyword"
	RuleSchemaDepth         = "schema-depth"
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
