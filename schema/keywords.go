package schema

import "slices"

// polymorphic are the keywords of polymorphism: recognised and refused at
// any depth.
var polymorphic = []string{"allOf", "anyOf", "oneOf", "not", "discriminator"}

// Polymorphic returns the keywords of polymorphism, which the subset
// refuses.
func Polymorphic() []string { return slices.Clone(polymorphic) }

// IsPolymorphic reports whether k is a keyword of polymorphism.
func IsPolymorphic(k string) bool { return slices.Contains(polymorphic, k) }

// applies lists the keywords that only make sense for some kinds; keywords
// not listed apply to every kind. An object's keywords apply to a Map too.
var applies = map[string][]Kind{
	"minLength": {String}, "maxLength": {String}, "pattern": {String},
	"format":  {String, Integer, Number},
	"minimum": {Integer, Number}, "maximum": {Integer, Number},
	"exclusiveMinimum": {Integer, Number}, "exclusiveMaximum": {Integer, Number},
	"multipleOf": {Integer, Number},
	"enum":       {String, Integer, Number, Boolean},
	"items":      {Array}, "minItems": {Array}, "maxItems": {Array}, "uniqueItems": {Array},
	"properties": {Object}, "required": {Object}, "additionalProperties": {Object},
	"minProperties": {Object}, "maxProperties": {Object},
}

// AppliesTo reports whether keyword k applies to a node of kind kind.
func AppliesTo(k string, kind Kind) bool {
	kinds, ok := applies[k]
	return !ok || slices.Contains(kinds, kind) || kind == Map && slices.Contains(kinds, Object)
}

// constraintKeywords are the validation keywords, in the order the catalog
// lists a property's constraints.
var constraintKeywords = []string{
	"minLength", "maxLength", "pattern", "format",
	"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
	"minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
}

// ConstraintKeywords returns the validation keywords in display order:
// lengths, pattern, format, bounds, multipleOf, item counts, uniqueItems,
// property counts.
func ConstraintKeywords() []string { return slices.Clone(constraintKeywords) }
