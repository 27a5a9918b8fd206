package admission_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/udtc/udtc/registry/admission"
)

// FuzzAdmit feeds random bodies to admission against a few fixture schemas:
// it never panics; a body admitted without violations yields valid JSON that
// re-admits unchanged with no violations, and whose secrets split and merge
// back to the same document.
func FuzzAdmit(f *testing.F) {
	var schemas []*admission.Schema
	for _, key := range []string{
		"valid_scalars/Contoso.Scalars/widgets@2025-03-01",
		"valid_collections/Contoso.Collections/queues@2025-01-01",
		"valid_secrets/Contoso.Security/vaults@2025-01-01",
		"valid_basic/MyCompany.Resources/postgresDatabases@2025-01-01-preview",
		"valid_any/Contoso.Platform/extensions@2025-08-01-preview",
		"valid_references/Contoso.Refs/apps@2025-01-01",
	} {
		schemas = append(schemas, schemaOf(f, key))
	}
	schemas = append(schemas, mustCompile(f, depth), mustCompile(f, secretSchema), mustCompile(f, `{}`))
	for _, seed := range []string{
		`{}`, `null`, `[]`, `"x"`, `{"name":"web-01","tier":"free"}`,
		`{"subscriptions":[{"endpoint":"https://a.example"}],"tags":{"a.b":"c"},"matrix":[[1,2.5]]}`,
		`{"adminPassword":"correct horse battery","keys":{"k":"v"}}`,
		`{"required":"x","steps":[{"name":"a"}],"ports":{"web":{"containerPort":80}},"server":{}}`,
		`{"password":"a@b.c","creds":[{"key":"k"},{}],"ref":"/planes/radius/p/resourceGroups/g/providers/Contoso.Data/postgresDatabases/d"}`,
		`{"size":"S","status":{"recipe":{}}}`, `{"weight":1e999}`, `{"a":` + `[[[[[[[[[[1]]]]]]]]]]` + `}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for i, s := range schemas {
			out, vs := s.Admit(body)
			if len(vs) > admission.MaxViolations {
				t.Fatalf("schema %d: %d violations", i, len(vs))
			}
			for _, v := range vs {
				if v.Code == "" || v.Message == "" || v.Target == "" {
					t.Fatalf("schema %d: incomplete violation %+v", i, v)
				}
			}
			s.References(out)
			if len(vs) > 0 {
				continue
			}
			if !json.Valid(out) {
				t.Fatalf("schema %d: admitted %q is not JSON", i, out)
			}
			again, vs := s.Admit(out)
			if len(vs) != 0 {
				t.Fatalf("schema %d: re-admitting %s: %+v", i, out, vs)
			}
			if !bytes.Equal(again, out) {
				t.Fatalf("schema %d: re-admission changed %s to %s", i, out, again)
			}
			public, secrets := s.SplitSecrets(out)
			merged, err := admission.MergeSecrets(public, secrets)
			if err != nil {
				t.Fatalf("schema %d: merge: %v", i, err)
			}
			if !bytes.Equal(merged, out) {
				t.Fatalf("schema %d: split+merge of %s gave %s (public %s, secrets %s)", i, out, merged, public, secrets)
			}
		}
	})
}
