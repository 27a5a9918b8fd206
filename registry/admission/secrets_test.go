package admission_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/registry/admission"
	"github.com/udtc/udtc/registry/api"
)

const secretSchema = `{"type":"object","properties":{
	"password":{"type":"string","x-radius-sensitive":true,"minLength":12,"pattern":"^[^ ]+$","format":"email","enum":["not-this-one@example.com"]},
	"conn":{"type":"object","x-radius-sensitive":true,"properties":{"uri":{"type":"string","format":"uri"},"port":{"type":"integer","maximum":10}}},
	"db":{"type":"object","properties":{"user":{"type":"string"},"pass":{"type":"string","x-radius-sensitive":true}}},
	"creds":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"key":{"type":"string","x-radius-sensitive":true}}}},
	"keys":{"type":"object","x-radius-sensitive":true,"additionalProperties":{"type":"string"}},
	"ref":{"type":"string","x-radius-sensitive":true,"x-resource-type":"Contoso.Data/postgresDatabases"},
	"plain":{"type":"string"}}}`

func TestSplitMergeSecrets(t *testing.T) {
	s := mustCompile(t, secretSchema)
	if !s.HasSensitive() {
		t.Fatal("HasSensitive = false")
	}
	doc := `{"conn":{"port":5,"uri":"https://db.example"},"creds":[{"key":"k0","name":"a"},{"name":"b"},{"key":"k2","name":"c"}],` +
		`"db":{"pass":"p","user":"u"},"keys":{"a":"1"},"password":"not-this-one@example.com","plain":"visible"}`
	admitted, vs := s.Admit(json.RawMessage(doc))
	if len(vs) != 0 {
		t.Fatalf("violations: %+v", vs)
	}
	public, secrets := s.SplitSecrets(admitted)
	wantPublic := `{"conn":null,"creds":[{"key":null,"name":"a"},{"name":"b"},{"key":null,"name":"c"}],"db":{"pass":null,"user":"u"},"keys":null,"password":null,"plain":"visible"}`
	wantSecrets := `{"conn":{"port":5,"uri":"https://db.example"},"creds":[{"key":"k0"},null,{"key":"k2"}],"db":{"pass":"p"},"keys":{"a":"1"},"password":"not-this-one@example.com"}`
	if string(public) != wantPublic {
		t.Errorf("public\n got %s\nwant %s", public, wantPublic)
	}
	if string(secrets) != wantSecrets {
		t.Errorf("secrets\n got %s\nwant %s", secrets, wantSecrets)
	}
	for _, secret := range []string{"k0", "k2", `"p"`, "db.example", "not-this-one"} {
		if strings.Contains(string(public), secret) {
			t.Errorf("public holds %s", secret)
		}
	}
	merged, err := admission.MergeSecrets(public, secrets)
	if err != nil {
		t.Fatal(err)
	}
	if string(merged) != string(admitted) {
		t.Errorf("merged\n got %s\nwant %s", merged, admitted)
	}

	// No sensitive value present: no secrets.
	public, secrets = s.SplitSecrets(json.RawMessage(`{"plain":"x","db":{"user":"u"}}`))
	if secrets != nil || string(public) != `{"db":{"user":"u"},"plain":"x"}` {
		t.Errorf("%s %s", public, secrets)
	}
	if m, err := admission.MergeSecrets(public, nil); err != nil || string(m) != string(public) {
		t.Errorf("merge nil: %s %v", m, err)
	}
	if _, err := admission.MergeSecrets(public, json.RawMessage(`[1]`)); err == nil {
		t.Error("merging an array of secrets: no error")
	}
	// A schema without secrets returns the document as is.
	plain := mustCompile(t, `{"type":"object","properties":{"a":{"type":"string"}}}`)
	if plain.HasSensitive() {
		t.Error("HasSensitive = true")
	}
	if p, sec := plain.SplitSecrets(json.RawMessage(`{"a":"x"}`)); string(p) != `{"a":"x"}` || sec != nil {
		t.Errorf("%s %s", p, sec)
	}
}

func TestSplitSecretsFixture(t *testing.T) {
	s := schemaOf(t, "valid_secrets/Contoso.Security/vaults@2025-01-01")
	admitted, vs := s.Admit(json.RawMessage(`{"environment":"e","adminPassword":"correct horse battery","keys":{"primary":"k1"},"owner":"me","connection":{"uri":"https://x"}}`))
	if len(vs) != 0 {
		t.Fatalf("%+v", vs)
	}
	public, secrets := s.SplitSecrets(admitted)
	if string(public) != `{"adminPassword":null,"environment":"e","keys":null,"owner":"me"}` || string(secrets) != `{"adminPassword":"correct horse battery","keys":{"primary":"k1"}}` {
		t.Errorf("%s %s", public, secrets)
	}
}

// TestSensitiveNeverInMessages: whatever is wrong with a sensitive value,
// no violation message contains it.
func TestSensitiveNeverInMessages(t *testing.T) {
	s := mustCompile(t, secretSchema)
	const secret = "hunter2 SECRET"
	docs := []string{
		`{"password":"hunter2 SECRET"}`,
		`{"password":"hunter2 SECRET","conn":{"uri":"hunter2 SECRET","port":"hunter2 SECRET","x":"hunter2 SECRET"}}`,
		`{"conn":{"uri":"hunter2 SECRET","port":11}}`,
		`{"db":{"pass":["hunter2 SECRET"]},"keys":{"hunter":["hunter2 SECRET"]}}`,
		`{"creds":[{"key":{"k":"hunter2 SECRET"}}]}`,
		`{"ref":"hunter2 SECRET"}`,
		`{"ref":"/planes/radius/local/resourceGroups/hunter2 SECRET/providers/Contoso.Data/postgresDatabases/db"}`,
		`{"ref":"/planes/radius/local/resourceGroups/rg/providers/Contoso.Data/hunter2SECRET/db"}`,
	}
	for _, doc := range docs {
		_, vs := s.Admit(json.RawMessage(doc))
		if len(vs) == 0 {
			t.Errorf("%s: no violation", doc)
		}
		for _, x := range vs {
			if strings.Contains(x.Message, "hunter2") || strings.Contains(x.Target, secret) {
				t.Errorf("%s: violation %+v shows the secret", doc, x)
			}
		}
	}
}

// TestSensitiveKeysNeverInTargets: GET shows a sensitive map (or object)
// as null, so no violation or reference target names a key inside it: the
// key is HiddenKey. Keys of a map whose values only are sensitive are
// shown by GET and named.
func TestSensitiveKeysNeverInTargets(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{
		"keys":{"type":"object","x-radius-sensitive":true,"additionalProperties":{"type":"string"}},
		"conn":{"type":"object","x-radius-sensitive":true,"properties":{"port":{"type":"integer"}}},
		"vault":{"type":"object","x-radius-sensitive":true,"additionalProperties":{"type":"object","properties":{"ref":{"type":"string","x-resource-type":"*"},"n":{"type":"integer"}}}},
		"plain":{"type":"object","additionalProperties":{"type":"string","x-radius-sensitive":true}}}}`)
	_, vs := s.Admit(json.RawMessage(`{"keys":{"prod-db-password":5,"a.b":true},"conn":{"port":"x","prod-extra":1},"vault":{"prod-vault":{"n":"x"}},"plain":{"shown-key":3}}`))
	var got []string
	for _, v := range vs {
		got = append(got, v.Target+" "+v.Code)
	}
	want := []string{
		"properties.conn.port InvalidType",
		"properties.conn.* UnknownProperty",
		"properties.keys.* InvalidType",
		"properties.keys.* InvalidType",
		"properties.plain.shown-key InvalidType",
		"properties.vault.*.n InvalidType",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
	for _, v := range vs {
		if strings.Contains(v.Target+v.Message, "prod-") {
			t.Errorf("violation %+v names a key GET hides", v)
		}
	}
	const rg = "/planes/radius/local/resourceGroups/rg/providers/"
	refs := s.References(json.RawMessage(`{"vault":{"prod-vault":{"ref":"` + rg + `A.B/c/d"}}}`))
	if len(refs) != 1 || refs[0].Target != "properties.vault.*.ref" || !refs[0].Sensitive {
		t.Errorf("references = %+v, want one sensitive at properties.vault.*.ref", refs)
	}
	if segs, err := api.ParseTarget("properties.vault.*.ref"); err != nil || len(segs) != 3 || segs[1] != admission.HiddenKey {
		t.Errorf("ParseTarget of a hidden key = %v, %v", segs, err)
	}
}

func TestReferences(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{
		"db":{"type":"string","x-resource-type":"Contoso.Data/postgresDatabases"},
		"store":{"type":"string","x-resource-type":["Contoso.Data/postgresDatabases","Contoso.Data/redisCaches"]},
		"env":{"type":"string","x-resource-type":"Applications.Core/environments"},
		"any":{"type":"string","x-resource-type":"*"},
		"queues":{"type":"array","items":{"type":"string","x-resource-type":"Contoso.Platform/contosoBuses/queues"}},
		"links":{"type":"object","additionalProperties":{"type":"string","x-resource-type":"*"}},
		"name":{"type":"string"}}}`)
	const rg = "/planes/radius/local/resourceGroups/rg/providers/"
	doc := `{"db":"` + rg + `contoso.data/POSTGRESDATABASES/db1","store":"` + rg + `Contoso.Data/redisCaches/c1",` +
		`"env":"` + rg + `Applications.Core/environments/prod","any":"` + rg + `Other.Things/widgets/w",` +
		`"queues":["` + rg + `Contoso.Platform/contosoBuses/bus1/queues/q1"],"links":{"a.b":"` + rg + `X.Y/z/n"},"name":"not a reference"}`
	admitted, vs := s.Admit(json.RawMessage(doc))
	if len(vs) != 0 {
		t.Fatalf("violations: %+v", vs)
	}
	var got []string
	for _, r := range s.References(admitted) {
		got = append(got, r.Target+" "+r.ID.String()+" "+strings.Join(r.Types, "|"))
	}
	want := []string{
		"properties.any " + rg + "Other.Things/widgets/w ",
		"properties.db " + rg + "contoso.data/POSTGRESDATABASES/db1 Contoso.Data/postgresDatabases",
		"properties.env " + rg + "Applications.Core/environments/prod Applications.Core/environments",
		`properties.links["a.b"] ` + rg + "X.Y/z/n ",
		"properties.queues[0] " + rg + "Contoso.Platform/contosoBuses/bus1/queues/q1 Contoso.Platform/contosoBuses/queues",
		"properties.store " + rg + "Contoso.Data/redisCaches/c1 Contoso.Data/postgresDatabases|Contoso.Data/redisCaches",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("references (-want +got):\n%s", diff)
	}
	refs := s.References(admitted)
	if refs[0].Types != nil {
		t.Errorf("generic reference Types = %v, want nil", refs[0].Types)
	}
	if id, _ := api.ParseResourceID(rg + "Contoso.Data/postgresDatabases/db1"); !refs[1].ID.IsType(id.Type()) {
		t.Errorf("ID type %s", refs[1].ID.Type())
	}

	_, vs = s.Admit(json.RawMessage(`{"db":"` + rg + `Contoso.Data/redisCaches/c1","store":"db1","queues":["` + rg + `Contoso.Platform/contosoBuses/bus1"],"any":"/planes/radius/local"}`))
	wantV := []string{"properties.any InvalidReference", "properties.db InvalidReference", "properties.queues[0] InvalidReference", "properties.store InvalidReference"}
	if diff := cmp.Diff(wantV, codes(vs)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
	for _, x := range vs {
		if x.Target == "properties.db" && !strings.Contains(x.Message, "Contoso.Data/postgresDatabases") {
			t.Errorf("message %q does not name the allowed type", x.Message)
		}
	}
	if refs := mustCompile(t, `{"type":"object","properties":{"a":{"type":"string"}}}`).References(json.RawMessage(`{"a":"x"}`)); refs != nil {
		t.Errorf("references of a schema without any: %v", refs)
	}
}

// TestAdmitSplitSameAsSteps: AdmitSplit returns what Admit, References and
// SplitSecrets return one after the other, and the violations of Admit.
func TestAdmitSplitSameAsSteps(t *testing.T) {
	const rg = "/planes/radius/local/resourceGroups/rg/providers/"
	refSchema := `{"type":"object","properties":{
		"db":{"type":"string","x-resource-type":"Contoso.Data/postgresDatabases"},
		"secretRef":{"type":"string","x-radius-sensitive":true,"x-resource-type":"*"},
		"opts":{"type":"object","properties":{"size":{"type":"string","default":"M"},"key":{"type":"string","x-radius-sensitive":true}}},
		"links":{"type":"array","items":{"type":"string","x-resource-type":"*"}},
		"ro":{"type":"string","readOnly":true}}}`
	s25, doc25 := schema25(t)
	for _, tc := range []struct {
		schema *admission.Schema
		docs   []string
	}{
		{mustCompile(t, secretSchema), []string{
			`{"conn":{"port":5,"uri":"https://db.example"},"creds":[{"key":"k0","name":"a"},{"name":"b"}],"db":{"pass":"p","user":"u"},"keys":{"a":"1"},"plain":"visible"}`,
			`{"plain":"x"}`, `{}`, ``, `null`, `{"password":"short"}`, `[1]`, `{"plain":`,
		}},
		{mustCompile(t, refSchema), []string{
			`{"db":"` + rg + `Contoso.Data/postgresDatabases/d1","secretRef":"` + rg + `X.Y/z/n","opts":{"key":"k"},"links":["` + rg + `A.B/c/d"],"ro":"dropped"}`,
			`{"opts":{}}`, `{"db":"not an ID"}`,
		}},
		{s25, []string{string(doc25), `{"name0":"Bad Name"}`}},
		{mustCompile(t, `{"type":"object","properties":{"a":{"type":"string"}}}`), []string{`{"a":"x"}`, `{"a":1}`}},
	} {
		for _, doc := range tc.docs {
			got, gotVs := tc.schema.AdmitSplit(json.RawMessage(doc))
			admitted, vs := tc.schema.Admit(json.RawMessage(doc))
			if diff := cmp.Diff(vs, gotVs); diff != "" {
				t.Errorf("%s: violations (-Admit +AdmitSplit):\n%s", doc, diff)
			}
			if len(vs) > 0 {
				if got.Doc != nil || got.Public != nil || got.Secrets != nil || got.References != nil {
					t.Errorf("%s: violations and an admission %+v", doc, got)
				}
				continue
			}
			refs := tc.schema.References(admitted)
			public, secrets := tc.schema.SplitSecrets(admitted)
			want := admission.Admission{Doc: admitted, References: refs, Public: public, Secrets: secrets}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: (-steps +AdmitSplit):\n%s", doc, diff)
			}
		}
	}
}
