package admission

import (
	"errors"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/udtc/udtc/schema"
)

// The formats admission validates are those of schema.Formats that
// constrain values: the string formats with a check and the integer
// widths. Other formats (binary, password, float, double and those the
// checker only warns about) constrain nothing. The validators are handed to
// kin-openapi with every validation (WithStringFormatValidators), never
// registered in its package-level maps, and formats without a validator
// are not given to kin-openapi at all, so whatever another part of the
// process registers globally cannot change admission.

var errFormat = errors.New("does not match the format")

// validationOptions are the kin-openapi options of every validation.
func validationOptions() []openapi3.SchemaValidationOption {
	strs := map[string]openapi3.StringFormatValidator{}
	ints := map[string]openapi3.IntegerFormatValidator{}
	for _, f := range schema.Formats() {
		switch {
		case f.Valid != nil:
			valid := f.Valid
			strs[f.Name] = openapi3.NewCallbackValidator(func(s string) error {
				if !valid(s) {
					return errFormat
				}
				return nil
			})
		case f.Kind == schema.Integer:
			ints[f.Name] = openapi3.NewRangeFormatValidator(f.Min, f.Max)
		}
	}
	return []openapi3.SchemaValidationOption{
		openapi3.MultiErrors(),
		openapi3.DisableSchemaErrorDetails(),
		openapi3.DisablePatternValidation(), // patterns are matched here, as ECMA-262
		openapi3.WithStringFormatValidators(strs),
		openapi3.WithIntegerFormatValidators(ints),
		// No number formats are validated: an empty map, so the global one is not consulted
		// for formats given to kin-openapi (none are, for numbers).
		openapi3.WithNumberFormatValidators(map[string]openapi3.NumberFormatValidator{}),
	}
}
