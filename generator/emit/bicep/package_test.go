package bicep

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestPackagesAreEmitsArchives: each package's types archive is, byte for
// byte, the types.tgz inside the <name>.tgz Emit writes with the same
// options, and ReadArchive reads that file back to the same package.
func TestPackagesAreEmitsArchives(t *testing.T) {
	for _, opts := range []Options{{}, {ExtensionName: "all", ExtensionVersion: "2.1.0"}} {
		files := emitSample(t, opts)
		pkgs, diags, err := Packages(sampleCatalog(), opts)
		if err != nil || len(diags) > 0 {
			t.Fatalf("Packages: %v %v", err, diags)
		}
		exts, _ := Extensions(sampleCatalog(), opts.ExtensionName)
		if len(pkgs) != len(exts) {
			t.Fatalf("%d packages for %d extensions", len(pkgs), len(exts))
		}
		for i, p := range pkgs {
			archive, ok := files["bicep/"+p.Name+".tgz"]
			if !ok || p.Name != exts[i].Name {
				t.Fatalf("package %d is %s; Emit wrote %v", i, p.Name, slices.Sorted(maps.Keys(files)))
			}
			got, err := ReadArchive(archive)
			if err != nil {
				t.Fatalf("ReadArchive(%s.tgz): %v", p.Name, err)
			}
			if whole, err := p.Archive(); err != nil || !bytes.Equal(whole, archive) {
				t.Errorf("%s: Package.Archive differs from Emit's %s.tgz (%v)", p.Name, p.Name, err)
			}
			if !bytes.Equal(got.Types, p.Types) {
				t.Errorf("%s: the types.tgz of Emit's archive differs from Packages'", p.Name)
			}
			if got.Name != p.Name || got.Version != p.Version || !slices.Equal(got.Namespaces, p.Namespaces) {
				t.Errorf("read back %s %s %v, built %s %s %v", got.Name, got.Version, got.Namespaces, p.Name, p.Version, p.Namespaces)
			}
			if want := opts.version(); p.Version != want {
				t.Errorf("version %s, want %s", p.Version, want)
			}
		}
	}
}

func TestReadArchiveErrors(t *testing.T) {
	index := []byte(`{"resources":{},"settings":{"name":"x","version":"1"}}`)
	types, err := TypesArchive(index, []byte("[]"))
	if err != nil {
		t.Fatal(err)
	}
	withBinary, _ := tgz(packageGzip, []entry{{"linux-x64.bin", []byte("ELF")}, {typesEntry, types}})
	noSettings, _ := TypesArchive([]byte(`{"resources":{}}`), []byte("[]"))
	noSettingsPkg, _ := packageArchive(noSettings)
	noIndex, _ := tgz(packageGzip, []entry{{"types.json", []byte("[]")}})
	noIndexPkg, _ := packageArchive(noIndex)
	empty, _ := tgz(packageGzip, nil)
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"not gzip":       {[]byte("hello"), "not a Bicep extension package (a gzipped tar)"},
		"no types.tgz":   {empty, "no types.tgz entry"},
		"binaries":       {withBinary, "holds linux-x64.bin besides types.tgz"},
		"the inner only": {types, "holds index.json besides types.tgz"},
		"no settings":    {noSettingsPkg, "no settings.name"},
		"no index.json":  {noIndexPkg, "types.tgz has no index.json"},
	} {
		if _, err := ReadArchive(c.data); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}
