package bicep

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

func TestReadTypeIndex(t *testing.T) {
	files := map[string]string{
		"Radius.Data/2025-08-01-preview/types.json":    `[{"$type": "StringType"}]`,
		"Radius.Compute/2025-08-01-preview/types.json": `[{"$type": "StringType"}]`,
	}
	read := func(name string) ([]byte, error) {
		if d, ok := files[name]; ok {
			return []byte(d), nil
		}
		return nil, fmt.Errorf("open %s: %w", name, fs.ErrNotExist)
	}
	index := `{"resources": {
		"Radius.Data/redisCaches@2025-08-01-preview": {"$ref": "Radius.Data/2025-08-01-preview/types.json#/0"},
		"Radius.Compute/containers@2025-08-01-preview": {"$ref": "Radius.Compute/2025-08-01-preview/types.json#/0"}},
		"resourceFunctions": {}, "settings": {"name": "radius", "version": "0.1.0", "isSingleton": false}}`
	p, err := ReadTypeIndex([]byte(index), read)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "radius" || p.Version != "0.1.0" || strings.Join(p.Namespaces, ",") != "Radius.Compute,Radius.Data" {
		t.Errorf("package %s %s %v", p.Name, p.Version, p.Namespaces)
	}
	// The types archive holds index.json and both types files, as a
	// package would (ReadArchive reads it back).
	pkg, err := ReadArchive(must(packageArchive(p.Types)))
	if err != nil || pkg.Name != "radius" || !bytes.Equal(pkg.Types, p.Types) {
		t.Errorf("ReadArchive of the index's package: %v %+v", err, pkg)
	}

	for _, c := range []struct{ index, want string }{
		{`{"resources": {"A.B/c@1": {"$ref": "../types.json#/0"}}, "settings": {"name": "x", "version": "1"}}`, `refers to "../types.json"`},
		{`{"resources": {"A.B/c@1": {"$ref": "/etc/types.json#/0"}}, "settings": {"name": "x", "version": "1"}}`, `refers to "/etc/types.json"`},
		{`{"resources": {"A.B/c@1": {"$ref": "missing.json#/0"}}, "settings": {"name": "x", "version": "1"}}`, "missing.json"},
		{`{"resources": {}, "settings": {"name": "x", "version": "1"}}`, "refers to no types file"},
		{`{"resources": {"A.B/c@1": {"$ref": "types.json#/0"}}}`, "no settings.name and settings.version"},
	} {
		if _, err := ReadTypeIndex([]byte(c.index), read); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadTypeIndex(%s) = %v, want %q", c.index, err, c.want)
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
