package bicep

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/model"
	"github.com/udtc/udtc/internal/par"
)

// Package is one extension as Bicep publishes it: what a registry artifact
// of the extension carries (`udtc publish-extension`).
type Package struct {
	// Name is the extension name: its index.json's settings.name is
	// SettingsName(Name); an index another generator wrote, whose
	// settings.name SettingsName did not make, is named by its
	// settings.name. Version is its version (settings.version).
	Name    string
	Version string
	// Namespaces are the resource provider namespaces the extension holds,
	// sorted.
	Namespaces []string
	// Types is types.tgz (TypesArchive): byte for byte the entry of the
	// package `udtc gen` writes as bicep/<Name>.tgz.
	Types []byte
}

// Archive returns the extension package of p (its Types wrapped as Archive
// does): byte for byte bicep/<Name>.tgz of `udtc gen` for the same types.
func (p Package) Archive() ([]byte, error) { return packageArchive(p.Types) }

// Packages builds, from a checked catalog, the package of every extension
// Emit writes with the same options, in the same order. Its types archives
// are those of Emit's bicep/<name>.tgz: both go through build and
// TypesArchive. With error diagnostics it returns no packages. The error is
// non-nil only for a bug.
func Packages(cat *model.Catalog, opts Options) ([]Package, diag.List, error) {
	exts, diags := Extensions(cat, opts.ExtensionName)
	if diags.HasErrors() {
		return nil, diags.Sorted(), nil
	}
	version := opts.version()
	pkgs := make([]Package, len(exts))
	err := par.EachErr(len(exts), func(i int) error {
		ext := exts[i]
		b := build(ext)
		types, err := TypesArchive(b.IndexJSON(ext.Name, version), b.TypesJSON())
		if err != nil {
			return fmt.Errorf("extension %s: %w", ext.Name, err)
		}
		namespaces := make([]string, len(ext.Providers))
		for j, p := range ext.Providers {
			namespaces[j] = p.Namespace
		}
		slices.Sort(namespaces)
		pkgs[i] = Package{Name: ext.Name, Version: version, Namespaces: namespaces, Types: types}
		return nil
	})
	if err != nil {
		return nil, diags.Sorted(), err
	}
	return pkgs, diags.Sorted(), nil
}

// maxArchiveBytes bounds what ReadArchive unpacks (all entries together),
// so a hostile archive cannot exhaust memory.
const maxArchiveBytes = 1 << 30

// ReadArchive reads an extension package: the <name>.tgz `udtc gen` writes
// (Archive) or `bicep publish-extension --target FILE.tgz` does. It returns
// the package with its types archive as stored and the name, version and
// namespaces its index.json gives. An archive that is not such a package,
// or one that also holds Bicep's local-deploy binaries (which udtc does not
// publish), is an error saying why.
func ReadArchive(data []byte) (Package, error) {
	outer, err := unpack(data)
	if err != nil {
		return Package{}, fmt.Errorf("not a Bicep extension package (a gzipped tar): %w", err)
	}
	for _, e := range outer {
		if e.name != typesEntry {
			return Package{}, fmt.Errorf("the package holds %s besides %s: only packages of types (what udtc gen writes) can be published", e.name, typesEntry)
		}
	}
	types := entryData(outer, typesEntry)
	if types == nil {
		return Package{}, fmt.Errorf("not a Bicep extension package: no %s entry", typesEntry)
	}
	inner, err := unpack(types)
	if err != nil {
		return Package{}, fmt.Errorf("%s: %w", typesEntry, err)
	}
	index := entryData(inner, "index.json")
	if index == nil {
		return Package{}, fmt.Errorf("%s has no index.json", typesEntry)
	}
	p, err := readIndex(index)
	if err != nil {
		return Package{}, fmt.Errorf("%s: index.json: %w", typesEntry, err)
	}
	p.Types = types
	return p, nil
}

// ReadTypeIndex reads a type index as Bicep's type generators write it
// (udtc gen's bicep/<name>/, Radius's manifest-to-bicep, or any other):
// index.json, given, and the types files its "$ref"s name (types.json, or
// several in subdirectories for an index rebuilt over a tree), each read
// with read by its slash-separated path relative to index.json. It returns
// the package `bicep publish-extension index.json` publishes: its types
// archive holds index.json and those files, as TypesArchive does (byte for
// byte the same for one types.json), with the name, version and namespaces
// index.json gives. A "$ref" to a file outside the index's directory is an
// error, as is index.json without settings.name and settings.version.
func ReadTypeIndex(indexJSON []byte, read func(name string) ([]byte, error)) (Package, error) {
	p, err := readIndex(indexJSON)
	if err != nil {
		return Package{}, fmt.Errorf("index.json: %w", err)
	}
	var v any
	if err := json.Unmarshal(indexJSON, &v); err != nil {
		return Package{}, fmt.Errorf("index.json: %w", err)
	}
	files := map[string]bool{}
	var walk func(v any) error
	walk = func(v any) error {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				file, _, _ := strings.Cut(ref, "#")
				if file == "" {
					return nil
				}
				if clean := path.Clean(file); clean != file || path.IsAbs(file) || clean == ".." || strings.HasPrefix(clean, "../") {
					return fmt.Errorf("index.json refers to %q: a types file must be inside the index's directory, named without . or .. segments", file)
				}
				files[file] = true
			}
			for _, x := range v {
				if err := walk(x); err != nil {
					return err
				}
			}
		case []any:
			for _, x := range v {
				if err := walk(x); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(v); err != nil {
		return Package{}, err
	}
	if len(files) == 0 {
		return Package{}, errors.New("index.json refers to no types file: it is not a type index")
	}
	entries := []entry{{"index.json", indexJSON}}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if name == "index.json" {
			return Package{}, errors.New("index.json refers to itself for types")
		}
		data, err := read(name)
		if err != nil {
			return Package{}, fmt.Errorf("types file of index.json: %w", err)
		}
		entries = append(entries, entry{name, data})
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	if p.Types, err = tgz(typesGzip, entries); err != nil {
		return Package{}, err
	}
	return p, nil
}

// entryData returns the data of the last entry named name, nil when there
// is none.
func entryData(entries []entry, name string) []byte {
	var data []byte
	for _, e := range entries {
		if e.name == name {
			data = e.data
		}
	}
	return data
}

// readIndex reads the extension's name, version and namespaces from
// index.json: the name settings.name gives (see Package.Name),
// settings.version and the namespaces of the resource keys
// ("Namespace/type@version").
func readIndex(data []byte) (Package, error) {
	var idx struct {
		Resources map[string]json.RawMessage `json:"resources"`
		Settings  *struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"settings"`
	}
	if err := json.Unmarshal(data, &idx); err != nil {
		return Package{}, err
	}
	if idx.Settings == nil || idx.Settings.Name == "" || idx.Settings.Version == "" {
		return Package{}, errors.New("no settings.name and settings.version: the extension has no name to publish it under")
	}
	var namespaces []string
	for key := range idx.Resources {
		ns, _, _ := strings.Cut(key, "/")
		if !slices.Contains(namespaces, ns) {
			namespaces = append(namespaces, ns)
		}
	}
	slices.Sort(namespaces)
	return Package{Name: extensionOfSettings(idx.Settings.Name), Version: idx.Settings.Version, Namespaces: namespaces}, nil
}

// unpack returns the regular files of a gzipped tar, in archive order.
func unpack(data []byte) ([]entry, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(io.LimitReader(zr, maxArchiveBytes))
	var out []entry
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", h.Name, err)
		}
		out = append(out, entry{name: h.Name, data: b})
	}
}
