package bicep

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
)

func TestQuoteLikeJSONStringify(t *testing.T) {
	for in, want := range map[string]string{
		"plain":               `"plain"`,
		`<a href="x">&</a>`:   `"<a href=\"x\">&</a>"`,
		"tab\tnl\ncr\r\\":     `"tab\tnl\ncr\r\\"`,
		"\x00\x1f\x7f":        `"\u0000\u001f` + "\x7f" + `"`,
		"\b\f":                `"\b\f"`,
		"line\u2028sep\u2029": "\"line\u2028sep\u2029\"",
		"é€😀":                 `"é€😀"`,
		"bad\xffbyte":         "\"bad\uFFFDbyte\"",
	} {
		var b bytes.Buffer
		quote(&b, in)
		if b.String() != want {
			t.Errorf("quote(%q) = %s, want %s", in, b.String(), want)
		}
	}
}

func TestWriteJSONOrdersIndexKeysFirst(t *testing.T) {
	o := obj{{"b", num(1)}, {"10", num(2)}, {"2", num(3)}, {"01", num(4)}, {"a", arr{}}, {"4294967295", obj{}}}
	var b bytes.Buffer
	writeJSON(&b, o, 0)
	want := "{\n  \"2\": 3,\n  \"10\": 2,\n  \"b\": 1,\n  \"01\": 4,\n  \"a\": [],\n  \"4294967295\": {}\n}"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWriteCompactIsUnindentedStringify(t *testing.T) {
	o := obj{{"b", num(1)}, {"10", arr{str("x"), boolean(true), obj{}}}, {"a", arr{}}, {"c", obj{{"d", str("é\n")}}}}
	var b bytes.Buffer
	writeCompact(&b, o)
	want := `{"10":["x",true,{}],"b":1,"a":[],"c":{"d":"é\n"}}`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestTypesJSONHasOneTypePerLine: types.json is a JSON array whose every
// element is alone on its line, without whitespace.
func TestTypesJSONHasOneTypePerLine(t *testing.T) {
	data := emitSample(t, Options{})["bicep/contosoplatform/types.json"]
	types := typesOf(t, data)
	lines := strings.Split(string(data), "\n")
	if len(lines) != len(types)+2 || lines[0] != "[" || lines[len(lines)-1] != "]" {
		t.Fatalf("%d lines for %d types:\n%s", len(lines), len(types), data)
	}
	for i, l := range lines[1 : len(lines)-1] {
		l = strings.TrimSuffix(l, ",")
		var c bytes.Buffer
		if err := json.Compact(&c, []byte(l)); err != nil || c.String() != l {
			t.Errorf("line %d is not one compact type (%v): %s", i+2, err, l)
		}
	}
	if got := (&table{index: map[string]ref{}}).json(); string(got) != "[]" {
		t.Errorf("no types: %s", got)
	}
}

func emitSample(t *testing.T, opts Options) map[string][]byte {
	t.Helper()
	files, diags, err := Emit(sampleCatalog(), opts)
	if err != nil || len(diags) > 0 {
		t.Fatalf("Emit: %v %v", err, diags)
	}
	m := map[string][]byte{}
	for _, f := range files {
		m[f.Path] = f.Data
	}
	return m
}

// typesOf decodes a types.json into generic elements.
func typesOf(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	var ts []map[string]any
	if err := json.Unmarshal(data, &ts); err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestEmitFilesAndDeterminism(t *testing.T) {
	a := emitSample(t, Options{})
	var paths []string
	for p := range a {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	want := []string{
		"bicep/contosoplatform.tgz", "bicep/contosoplatform/index.json", "bicep/contosoplatform/index.md",
		"bicep/contosoplatform/types.json", "bicep/contosoplatform/types.md",
		"bicep/fabrikamthings.tgz", "bicep/fabrikamthings/index.json", "bicep/fabrikamthings/index.md",
		"bicep/fabrikamthings/types.json", "bicep/fabrikamthings/types.md",
	}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Fatalf("paths (-want +got):\n%s", diff)
	}
	b := emitSample(t, Options{})
	for p := range a {
		if !bytes.Equal(a[p], b[p]) {
			t.Errorf("%s differs between two runs", p)
		}
	}
}

func TestOneNamedExtension(t *testing.T) {
	files := emitSample(t, Options{ExtensionName: "contoso", ExtensionVersion: "1.0.0"})
	if len(files) != 5 {
		t.Fatalf("got %d files, want one extension's 5", len(files))
	}
	var index struct {
		Resources map[string]struct {
			Ref string `json:"$ref"`
		}
		Settings struct {
			Name, Version string
			IsSingleton   bool
		}
	}
	if err := json.Unmarshal(files["bicep/contoso/index.json"], &index); err != nil {
		t.Fatal(err)
	}
	if index.Settings.Name != "radiuscontoso" || index.Settings.Version != "1.0.0" || index.Settings.IsSingleton {
		t.Errorf("settings = %+v", index.Settings)
	}
	types := typesOf(t, files["bicep/contoso/types.json"])
	var keys []string
	for k, r := range index.Resources {
		keys = append(keys, k)
		var n int
		if _, err := fmtSscanf(r.Ref, &n); err != nil || types[n]["$type"] != "ResourceType" || types[n]["name"] != k {
			t.Errorf("%s: %s does not name its ResourceType", k, r.Ref)
		}
	}
	slices.Sort(keys)
	want := []string{
		"Contoso.Platform/buses/queues@2025-01-01",
		"Contoso.Platform/buses@2025-01-01",
		"Contoso.Platform/postgresDatabases@2025-01-01-preview",
		"Contoso.Platform/postgresDatabases@2025-06-01",
		"Fabrikam.Things/things@2024-01-01",
	}
	if diff := cmp.Diff(want, keys); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}

func fmtSscanf(ref string, n *int) (int, error) {
	s, ok := strings.CutPrefix(ref, "types.json#/")
	if !ok {
		return 0, &json.SyntaxError{}
	}
	return 1, json.Unmarshal([]byte(s), n)
}

func TestTypesAreWrittenOnce(t *testing.T) {
	files := emitSample(t, Options{})
	data := files["bicep/contosoplatform/types.json"]
	types := typesOf(t, data)
	seen := map[string]int{}
	for i, ty := range types {
		b, _ := json.Marshal(ty)
		if j, ok := seen[string(b)]; ok {
			t.Errorf("#/%d duplicates #/%d: %s", i, j, b)
		}
		seen[string(b)] = i
	}
	// The second postgres version has the same schema: only its literal,
	// body and resource type are new.
	var resources []int
	for i, ty := range types {
		if ty["$type"] == "ResourceType" {
			resources = append(resources, i)
		}
	}
	if n := len(resources); n != 4 || resources[3]-resources[2] != 3 {
		t.Errorf("resource types at %v: want the last version to add 3 types", resources)
	}
	// The built-in RecipeStatus is one shared type.
	if n := strings.Count(string(data), `"name":"RecipeStatus"`); n != 1 {
		t.Errorf("RecipeStatus written %d times", n)
	}
}

// property finds a property of the named object type in types.json.
func property(t *testing.T, types []map[string]any, object, name string) (ty map[string]any, flags int, desc string) {
	t.Helper()
	for _, o := range types {
		if o["$type"] != "ObjectType" || o["name"] != object {
			continue
		}
		p, ok := o["properties"].(map[string]any)[name].(map[string]any)
		if !ok {
			t.Fatalf("%s has no property %s", object, name)
		}
		ref := p["type"].(map[string]any)["$ref"].(string)
		var n int
		if err := json.Unmarshal([]byte(strings.TrimPrefix(ref, "#/")), &n); err != nil {
			t.Fatal(err)
		}
		d, _ := p["description"].(string)
		return types[n], int(p["flags"].(float64)), d
	}
	t.Fatalf("no object type %s", object)
	return nil, 0, ""
}

func TestMapping(t *testing.T) {
	types := typesOf(t, emitSample(t, Options{})["bicep/contosoplatform/types.json"])
	const props = "PostgresDatabasesProperties"
	for _, c := range []struct {
		prop  string
		want  string // the property's type, compact JSON
		flags int
		desc  string
	}{
		{"size", `{"$type":"UnionType","elements":[{"$ref":"#/13"},{"$ref":"#/14"},{"$ref":"#/15"},{"$ref":"#/16"}]}`, flagRequired, "The size of database to provision"},
		{"replicas", `{"$type":"IntegerType","maxValue":9,"minValue":0}`, 0, "Defaults to 1."},
		{"port", `{"$type":"IntegerType","maxValue":5433,"minValue":5432}`, 0, "Allowed values: 5432, 5433."},
		{"ratio", `{"$type":"AnyType"}`, 0, "Type: number (Bicep has no floating-point type). Must be at least 0. Must be at most 1."},
		{"name", `{"$type":"StringType","maxLength":63,"minLength":1,"pattern":"^[a-z\"]+$"}`, 0, ""},
		{"tags", `{"$type":"ArrayType","itemType":{"$ref":"#/0"},"maxLength":5}`, 0, "Items must be unique. Each item: Format: uuid."},
		{"labels", `{"$type":"ObjectType","additionalProperties":{"$ref":"#/0"},"name":"PostgresDatabasesPropertiesLabels","properties":{}}`, 0, ""},
		{"extra", `{"$type":"ObjectType","additionalProperties":{"$ref":"#/1"},"name":"PostgresDatabasesPropertiesExtra","properties":{}}`, 0, ""},
		{"enabled", `{"$type":"BooleanType"}`, 0, "Multi\nline <b>&</b>"},
		{"adminPassword", `{"$type":"StringType","sensitive":true}`, flagRequired | flagWriteOnly, ""},
		{"id2", `{"$type":"StringType"}`, flagReadOnly, ""},
	} {
		ty, flags, desc := property(t, types, props, c.prop)
		got, _ := json.Marshal(ty)
		if string(got) != c.want || flags != c.flags || desc != c.desc {
			t.Errorf("%s: got %s flags %d %q\nwant %s flags %d %q", c.prop, got, flags, desc, c.want, c.flags, c.desc)
		}
	}
	status, flags, _ := property(t, types, props, "status")
	if status["name"] != "PostgresDatabasesPropertiesStatus" || flags != flagReadOnly {
		t.Errorf("status: %v flags %d", status["name"], flags)
	}
	secret, _, _ := property(t, types, "PostgresDatabasesPropertiesStatusBinding", "secret")
	if secret["sensitive"] != true {
		t.Errorf("secret is not sensitive: %v", secret)
	}
}

func TestUndeclaredSchemaIsOpenObject(t *testing.T) {
	types := typesOf(t, emitSample(t, Options{})["bicep/contosoplatform/types.json"])
	ty, flags, desc := property(t, types, "Contoso.Platform/buses@2025-01-01", "properties")
	got, _ := json.Marshal(ty)
	if string(got) != `{"$type":"ObjectType","additionalProperties":{"$ref":"#/1"},"name":"BusesProperties","properties":{}}` ||
		flags != flagRequired || !strings.Contains(desc, "no schema") {
		t.Errorf("got %s flags %d %q", got, flags, desc)
	}
}

func TestResourceBody(t *testing.T) {
	types := typesOf(t, emitSample(t, Options{})["bicep/contosoplatform/types.json"])
	body := "Contoso.Platform/buses/queues@2025-01-01"
	for name, want := range map[string]struct {
		flags int
		typ   string
	}{
		"name":       {17, `{"$type":"StringType"}`},
		"location":   {0, `{"$type":"StringType"}`},
		"apiVersion": {10, `{"$type":"StringLiteralType","value":"2025-01-01"}`},
		"type":       {10, `{"$type":"StringLiteralType","value":"Contoso.Platform/buses/queues"}`},
		"id":         {2, `{"$type":"StringType"}`},
	} {
		ty, flags, _ := property(t, types, body, name)
		got, _ := json.Marshal(ty)
		if flags != want.flags || string(got) != want.typ {
			t.Errorf("%s: %s flags %d, want %s flags %d", name, got, flags, want.typ, want.flags)
		}
	}
	if _, flags, _ := property(t, types, body, "properties"); flags != flagRequired {
		t.Errorf("properties flags %d", flags)
	}
}

func TestFlags(t *testing.T) {
	for _, c := range []struct {
		required, readOnly, writeOnly bool
		want                          int
	}{
		{false, false, false, 0},
		{true, false, false, flagRequired},
		{true, true, false, flagReadOnly},
		{false, true, true, flagReadOnly},
		{true, false, true, flagRequired | flagWriteOnly},
		{false, false, true, flagWriteOnly},
	} {
		p := &model.Property{Required: c.required, Schema: &model.Schema{Kind: model.String, ReadOnly: c.readOnly, WriteOnly: c.writeOnly}}
		if got := flags(p); got != c.want {
			t.Errorf("%+v: flags %d, want %d", c, got, c.want)
		}
	}
}

func TestIntegerBounds(t *testing.T) {
	for _, c := range []struct {
		s      *model.Schema
		lo, hi string
	}{
		{&model.Schema{Minimum: jn("1"), Maximum: jn("10")}, "1", "10"},
		{&model.Schema{Minimum: jn("1"), ExclusiveMinimum: true, Maximum: jn("10"), ExclusiveMaximum: true}, "2", "9"},
		{&model.Schema{Minimum: jn("1.5"), Maximum: jn("9.5"), ExclusiveMaximum: true}, "2", "9"},
		{&model.Schema{Minimum: jn("-2.5"), ExclusiveMinimum: true}, "-2", "nil"},
		{&model.Schema{Format: "int32"}, "-2147483648", "2147483647"},
		{&model.Schema{Format: "int32", Minimum: jn("0")}, "0", "2147483647"},
		{&model.Schema{Enum: []model.Value{intVal("8"), intVal("2"), intVal("4")}, Maximum: jn("6")}, "2", "6"},
		{&model.Schema{Maximum: jn("9223372036854775807")}, "nil", "nil"},
		{&model.Schema{Minimum: jn("-9007199254740991")}, "-9007199254740991", "nil"},
	} {
		c.s.Kind = model.Integer
		lo, hi := integerBounds(c.s)
		show := func(v *int64) string {
			if v == nil {
				return "nil"
			}
			return itoa(*v)
		}
		if show(lo) != c.lo || show(hi) != c.hi {
			t.Errorf("%+v: bounds %s..%s, want %s..%s", c.s, show(lo), show(hi), c.lo, c.hi)
		}
	}
}

func itoa(v int64) string { b, _ := json.Marshal(v); return string(b) }

func TestUnsafeBoundStaysInWords(t *testing.T) {
	s := &model.Schema{Kind: model.Integer, Format: "int64", Maximum: jn("9223372036854775807")}
	if got := describe(s); got != "Must be at most 9223372036854775807. Format: int64." {
		t.Errorf("describe = %q", got)
	}
}

func TestJoinSentences(t *testing.T) {
	for _, c := range [][3]string{
		{"", "", ""},
		{"A name", "", "A name"},
		{"", "Default: 1.", "Default: 1."},
		{"A name", "Default: 1.", "A name. Default: 1."},
		{"A name.", "Default: 1.", "A name. Default: 1."},
		{"Two\nlines\n", "Default: 1.", "Two\nlines\n\nDefault: 1."},
	} {
		if got := joinSentences(c[0], c[1]); got != c[2] {
			t.Errorf("joinSentences(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

func TestExtensionNames(t *testing.T) {
	for ns, want := range map[string]string{
		"Contoso.Platform":   "contosoplatform",
		"Radius.Compute":     "radiuscompute",
		"contoso.data-plane": "contosodataplane",
		"1Up.Things":         "_1upthings",
	} {
		if got := DefaultExtensionName(ns); got != want {
			t.Errorf("DefaultExtensionName(%q) = %q, want %q", ns, got, want)
		}
	}

	cat := sampleCatalog()
	rules := func(l diag.List) []string {
		var out []string
		for _, d := range l {
			out = append(out, d.Severity.String()+" "+d.Rule)
		}
		return out
	}
	files, diags, err := Emit(cat, Options{ExtensionName: "not-an-identifier"})
	if err != nil || files != nil || !cmp.Equal(rules(diags), []string{"error " + RuleExtensionName}) {
		t.Errorf("invalid name: files %d, diags %v, err %v", len(files), diags, err)
	}
	files, diags, err = Emit(cat, Options{ExtensionName: "sys"})
	if err != nil || len(files) != 5 || !cmp.Equal(rules(diags), []string{"warning " + RuleExtensionReserved}) {
		t.Errorf("reserved name: files %d, diags %v, err %v", len(files), diags, err)
	}
	clash := &model.Catalog{Providers: []*model.Provider{
		{Namespace: "Contoso.DataPlane", Types: cat.Providers[1].Types},
		{Namespace: "Contoso.Data-Plane", Types: cat.Providers[1].Types},
	}}
	files, diags, err = Emit(clash, Options{})
	if err != nil || files != nil || !cmp.Equal(rules(diags), []string{"error " + RuleExtensionConflict}) {
		t.Errorf("conflict: files %d, diags %v, err %v", len(files), diags, err)
	}
	if files, diags, err = Emit(clash, Options{ExtensionName: "dataplane"}); err != nil || len(diags) != 0 || len(files) != 5 {
		t.Errorf("conflict resolved by a name: files %d, diags %v, err %v", len(files), diags, err)
	}
}

func TestIndexMarkdownLinksResolve(t *testing.T) {
	files := emitSample(t, Options{})
	index := string(files["bicep/contosoplatform/index.md"])
	types := string(files["bicep/contosoplatform/types.md"])
	links := 0
	for _, line := range strings.Split(index, "\n") {
		_, target, ok := strings.Cut(line, "](types.md#")
		if !ok {
			continue
		}
		links++
		if a := strings.TrimSuffix(target, ")"); !strings.Contains(types, `<a id="`+a+`"></a>`) {
			t.Errorf("index.md links to %s, which types.md lacks", a)
		}
	}
	if links != 4 {
		t.Errorf("%d links, want 4", links)
	}
	for _, want := range []string{
		// The enum in declared order, as in types.json.
		"* **size**: 'S' | 'M' | 'L' | 'XL' (Required): The size of database to provision\n",
		"* **status**: [PostgresDatabasesPropertiesStatus](#postgresdatabasespropertiesstatus) (ReadOnly)\n",
		"* **enabled**: bool: Multi\n  line <b>&</b>\n",
		"A database.\n\nWith two paragraphs.\n",
		"<a id=\"recipestatus\"></a>\n## RecipeStatus\n",
	} {
		if !strings.Contains(types, want) {
			t.Errorf("types.md lacks %q", want)
		}
	}
}

func TestSharedObjectsAreNamedByTheirCommonPath(t *testing.T) {
	tls := func() *model.Schema {
		return obj_(p("enabled", &model.Schema{Kind: model.Boolean}), p("minVersion", &model.Schema{Kind: model.String}))
	}
	schema := func() *model.Schema {
		return obj_(p("tls", tls()), p("labels", &model.Schema{Kind: model.Map, AdditionalProperties: &model.Schema{Kind: model.String}}), p("recipe", recipeStatus()))
	}
	only := obj_(p("tls", tls()), p("secureTransport", tls()))
	ty := func(name string, s *model.Schema) *model.ResourceType {
		return &model.ResourceType{Name: name, Namespace: "Contoso.Shared", APIVersions: []*model.APIVersion{
			{Name: "2025-01-01", Schema: s}, {Name: "2025-02-01", Schema: s},
		}}
	}
	cat := &model.Catalog{Providers: []*model.Provider{{Namespace: "Contoso.Shared", Types: []*model.ResourceType{
		ty("caches", schema()), ty("queues", schema()), ty("single", only),
	}}}}
	files, _, err := Emit(cat, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var types []map[string]any
	for _, f := range files {
		if f.Path == "bicep/contososhared/types.json" {
			types = typesOf(t, f.Data)
		}
	}
	var names []string
	for _, ty := range types {
		if ty["$type"] == "ObjectType" && !strings.Contains(ty["name"].(string), "@") {
			names = append(names, ty["name"].(string))
		}
	}
	slices.Sort(names)
	want := []string{
		"CachesProperties", "Labels", "QueuesProperties", "RecipeStatus", "RecipeStatusOutputs",
		"SingleProperties", "SinglePropertiesSecureTransport", "Tls",
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("object types (-want +got):\n%s", diff)
	}
}

func TestObjectName(t *testing.T) {
	for _, c := range []struct {
		uses [][]string
		want string
	}{
		{[][]string{{"A", "Properties", "Tls"}}, "APropertiesTls"},
		{[][]string{{"A", "Properties", "Tls"}, {"A", "Properties", "Tls"}}, "APropertiesTls"},
		{[][]string{{"A", "Properties", "Tls"}, {"B", "Properties", "Tls"}}, "Tls"},
		{[][]string{{"A", "Properties", "Conn", "Value"}, {"B", "Properties", "Conn", "Value"}}, "ConnValue"},
		{[][]string{{"A", "Properties", "Net", "Tls"}, {"B", "Properties", "Net", "Tls"}}, "NetTls"},
	} {
		if got := objectName(c.uses); got != c.want {
			t.Errorf("objectName(%v) = %q, want %q", c.uses, got, c.want)
		}
	}
	if got := leaf([]string{"A", "Properties", "Conn", "Value", "Item"}); got != "ConnValueItem" {
		t.Errorf("leaf = %q", got)
	}
}
