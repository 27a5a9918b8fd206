// Package admission checks resource documents against the schema registered
// for an API version of a user-defined resource type.
//
// The registry stores an API version's schema as the raw JSON the manifest
// declared: an OpenAPI 3.0 subset describing a resource's `properties`
// (docs/schema-subset.md). Compile turns it once into a Schema (the server
// caches it per registration change); Admit then checks a PUT's `properties`
// against it, drops the read-only properties the client sent, applies the
// schema's defaults at every depth, and returns the document to store with
// every violation, each with an ARM target path ("properties.steps[0].name").
// References lists the reference-valued properties (x-resource-type) whose
// targets the server looks up; SplitSecrets and MergeSecrets separate the
// x-radius-sensitive values that are encrypted at rest from the rest.
//
// The keyword constraints (enum, string formats, item and property
// counts) are evaluated by kin-openapi's openapi3 validator on a per-node
// schema. Numbers are checked here, exactly, by the rules of package
// schema (never as float64): bounds, multipleOf, and for integers whole
// values within the format's width (int32, else int64), stored in plain
// integer form (1e2 and 1.0 become 100 and 1). The structure (closed objects, required and unknown
// properties, types, read-only properties, defaults, paths) is walked here,
// so that every violation gets its own target and the walk can stop after
// MaxViolations. String lengths count characters (Unicode code points) and
// patterns are ECMA-262 regular expressions compiled by schema/pattern, as
// in `udtc check`: RE2 where it has the same meaning, else the backtracking
// engine, every match charged to one PatternBudget of steps per Admit, and
// only for a value its lengths, enum and format accept. kin-openapi's global format
// registries and pattern cache are never used: format validators are
// passed with every validation.
//
// The package is used by the registry server and by the CLI alike, so it
// imports neither the generator nor net/http.
package admission
