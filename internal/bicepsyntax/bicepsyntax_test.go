package bicepsyntax

import "testing"

func TestJSON(t *testing.T) {
	for raw, want := range map[string]string{
		`"a'b\\c${x}"`:                  `'a\'b\\c\${x}'`,
		`"line\nbreak\ttab"`:            `'line\nbreak\ttab'`,
		`1`:                             `1`,
		`1.5`:                           `json('1.5')`,
		`true`:                          `true`,
		`null`:                          `null`,
		`[1, "x"]`:                      `[1, 'x']`,
		`{"b": 1, "a-b": 2, "": 3}`:     `{ '': 3, 'a-b': 2, b: 1 }`,
		`{"_x1": {"y": [false]}}`:       `{ _x1: { y: [false] } }`,
		`not json`:                      `null`,
		`{"1a": 1}`:                     `{ '1a': 1 }`,
		`12345678901234567890123456789`: `json('12345678901234567890123456789')`,
	} {
		if got := JSON([]byte(raw)); got != want {
			t.Errorf("JSON(%s) = %s, want %s", raw, got, want)
		}
	}
}
