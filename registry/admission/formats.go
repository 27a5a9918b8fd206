package admission

import (
	"errors"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/udtc/udtc/schema"
)

// The formats admission validates are those of schema.Formats that
// constrain values: the string formats with a check, here, and the integer
// widths, checked exactly by admitter.number (schema.IntegerWidth), not by
// kin-openapi's float64 comparison. Other formats (binary, password, float,
// double and those the checker only warns about) constrain nothing. The
// validators are handed to kin-openapi with every validation
// (WithStringFormatValidators), never registered in its package-level
// maps, and formats without a validator are not given to kin-openapi at
// all, so whatever another part of the process registers globally cannot
// change admission.

var errFormat = errors.New("does not match the format")

// validationOptions are the kin-openapi options of every validation.
func validationOptions() []openapi3.SchemaValidationOption {
	strs := map[string]openapi3.StringFormatValidator{}
	for _, f := range schema.Formats() {
		if valid := f.Valid; valid != nil {
			strs[f.Name] = openapi3.NewCallbackValidator(func(s string) error {
				if !valid(s) {
					return errFormat
				}
				return nil
			})
		}
	}
	return []openapi3.SchemaValidationOption{
		openapi3.MultiErrors(),
		openapi3.DisableSchemaErrorDetails(),
		openapi3.DisablePatternValidation(), // patterns are matched here, as ECMA-262
		openapi3.WithStringFormatValidators(strs),
		// No number formats are given to kin-openapi: empty maps, so the
		// global ones are never consulted.
		openapi3.WithIntegerFormatValidators(map[string]openapi3.IntegerFormatValidator{}),
		openapi3.WithNumberFormatValidators(map[string]openapi3.NumberFormatValidator{}),
	}
}
