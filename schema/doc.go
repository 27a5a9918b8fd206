// Package schema is the supported JSON Schema subset, spelled out once: the
// kinds a node can have (and the `type` names that give them), the formats,
// the built-in `$ref` schemas, which keyword applies to which kind, the
// sentences that state a node's constraints, the value checks (lengths in
// characters, bounds, the one multipleOf rule), the schema model itself
// (Schema, Property, Value), its reading from JSON (Decode) and the one
// comparison of two schemas (Diff).
//
// Everything else reads this package: the checker (generator/check)
// produces a Schema from YAML, with source spans and its diagnostics;
// the registry reads the JSON it stores with Decode; admission compiles the
// model and converts it to kin-openapi through schema/kin; the catalog,
// the docs, compat, publish's plan and the Go emitter read the model. It
// imports the standard library only, so both the generator and the
// registry may import it (internal/depcheck).
package schema
