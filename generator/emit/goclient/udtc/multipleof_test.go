package udtc

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"github.com/udtc/udtc/schema"
)

// The runtime is copied into generated code, which imports nothing of
// udtc's, so it carries its own multipleOf: it must decide as the subset's
// one rule (schema.MultipleOf) does, for integer and float fields alike.
func TestMultipleOfIsTheSchemaRule(t *testing.T) {
	ints := []int64{0, 1, 2, 3, 10, 15, -15, 1 << 53, 1<<53 + 1, 1<<53 + 2, 999999999}
	floats := []float64{0, 0.3, 0.1 + 0.2, 0.33, 0.7, 1.5, -1.5, 2.5, 123456789.1, 1000000000.25, 1e300, 5e-324}
	ms := []string{"1", "2", "3", "5", "0.1", "0.05", "0.5", "1e-300"}
	for _, m := range ms {
		for _, x := range ints {
			want := schema.MultipleOf(json.Number(strconv.FormatInt(x, 10)), json.Number(m))
			if got := multipleOf(reflect.ValueOf(x), m); got != want {
				t.Errorf("multipleOf(int64 %d, %s) = %t; schema.MultipleOf says %t", x, m, got, want)
			}
		}
		for _, x := range floats {
			want := schema.MultipleOf(json.Number(strconv.FormatFloat(x, 'g', -1, 64)), json.Number(m))
			if got := multipleOf(reflect.ValueOf(x), m); got != want {
				t.Errorf("multipleOf(float64 %v, %s) = %t; schema.MultipleOf says %t", x, m, got, want)
			}
		}
	}
}
