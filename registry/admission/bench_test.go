package admission_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/udtc/udtc/registry/admission"
)

// schema25 is a 25-property schema of every kind of constraint, and a
// valid document for it.
func schema25(tb testing.TB) (*admission.Schema, json.RawMessage) {
	var props, values []string
	for i := range 5 {
		props = append(props,
			fmt.Sprintf(`"name%d":{"type":"string","minLength":1,"maxLength":63,"pattern":"^[a-z][a-z0-9-]*$"}`, i),
			fmt.Sprintf(`"size%d":{"type":"string","enum":["S","M","L"],"default":"M"}`, i),
			fmt.Sprintf(`"count%d":{"type":"integer","minimum":0,"maximum":100,"multipleOf":1}`, i),
			fmt.Sprintf(`"email%d":{"type":"string","format":"email"}`, i),
			fmt.Sprintf(`"tags%d":{"type":"object","additionalProperties":{"type":"string"},"maxProperties":8}`, i))
		values = append(values,
			fmt.Sprintf(`"name%d":"web-%d"`, i, i), fmt.Sprintf(`"count%d":%d`, i, i*10),
			fmt.Sprintf(`"email%d":"a%d@example.com"`, i, i), fmt.Sprintf(`"tags%d":{"team":"a","env":"prod"}`, i))
	}
	s := mustCompile(tb, `{"type":"object","properties":{`+strings.Join(props, ",")+`},"required":["name0"]}`)
	return s, json.RawMessage(`{` + strings.Join(values, ",") + `}`)
}

func BenchmarkAdmit25(b *testing.B) {
	s, doc := schema25(b)
	if _, vs := s.Admit(doc); len(vs) != 0 {
		b.Fatalf("violations: %+v", vs)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Admit(doc)
	}
}

func BenchmarkCompile25(b *testing.B) {
	_, _ = schema25(b)
	var props []string
	for i := range 25 {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"string","pattern":"^[a-z]+$","maxLength":10}`, i))
	}
	raw := json.RawMessage(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := admission.Compile(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// TestConcurrentAdmit: a Schema is shared by concurrent requests (run with -race).
func TestConcurrentAdmit(t *testing.T) {
	s, doc := schema25(t)
	want, _ := s.Admit(doc)
	bad := json.RawMessage(`{"name0":"X","count1":101,"email2":"no","size3":"XL","extra":1}`)
	_, wantBad := s.Admit(bad)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if got, vs := s.Admit(doc); string(got) != string(want) || len(vs) != 0 {
					t.Errorf("got %s %+v", got, vs)
					return
				}
				if _, vs := s.Admit(bad); len(vs) != len(wantBad) {
					t.Errorf("got %d violations, want %d", len(vs), len(wantBad))
					return
				}
			}
		})
	}
	wg.Wait()
	if len(wantBad) != 5 {
		t.Errorf("violations of the bad document: %+v", wantBad)
	}
}
