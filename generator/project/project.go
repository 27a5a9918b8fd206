// Package project owns udtc.yaml, the project file: which files are the
// inputs, where gen writes, which targets and options it uses, and the
// severity of each rule. The CLI finds it from the working directory
// upward; flags override it. The file is decoded strictly (unknown keys are
// errors) and has its own JSON Schema (JSONSchema, committed as
// docs/project.schema.json).
package project

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
	"go.yaml.in/yaml/v3"
	"golang.org/x/mod/module"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/check"
	"github.com/udtc/udtc/generator/compat"
	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit/goclient"
	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/registry/api"
)

// FileName is the project file's name.
const FileName = manifest.ProjectFileName

// SchemaID is the $id of the project file's JSON Schema.
const SchemaID = "https://raw.githubusercontent.com/udtc/udtc/main/docs/project.schema.json"

// File is udtc.yaml as written.
type File struct {
	// Inputs selects the manifests, relative to the project file.
	Inputs Inputs `json:"inputs,omitempty" yaml:"inputs,omitempty" jsonschema:"description=The manifests: include and exclude globs relative to udtc.yaml (** matches any number of directories). The output directory is never an input."`
	// Output is gen's output directory, relative to the project file.
	Output string `json:"output,omitempty" yaml:"output,omitempty" jsonschema:"description=udtc gen's output directory (--out)\\, relative to udtc.yaml."`
	// Targets are gen's targets.
	Targets []string `json:"targets,omitempty" yaml:"targets,omitempty" jsonschema:"description=udtc gen's targets (--target): bicep\\, go\\, docs\\, registration\\, site."`
	Go      Go       `json:"go,omitempty" yaml:"go,omitempty"`
	Bicep   Bicep    `json:"bicep,omitempty" yaml:"bicep,omitempty"`
	// Target is the system the manifests are for: radius (the default) or
	// udtc (generator.Options.Radius).
	Target string `json:"target,omitempty" yaml:"target,omitempty" jsonschema:"enum=radius,enum=udtc,description=What the manifests are checked for (--profile): radius (the default) refuses what today's Radius refuses at registration or cannot deploy; udtc allows udtc's extensions (child types; built-in $refs; any capability) for udtc serve alone."`
	// BaseProperties, when false, leaves Radius's base resource properties
	// out of every schema (generator.Options.NoBaseProperties).
	BaseProperties *bool `json:"baseProperties,omitempty" yaml:"baseProperties,omitempty" jsonschema:"description=Merge Radius's base resource properties (application; environment; connections; codeReference) into every API version's schema as rad and manifest-to-bicep do since radius-project/radius #12252 (default true). false targets a Radius from before that change or none (--base-properties=false)."`
	// Rules sets the severity of rules by id.
	Rules map[string]Rule `json:"rules,omitempty" yaml:"rules,omitempty" jsonschema:"description=Severity of rules by id (docs/rules.md): off or warning for warning rules\\, error for any."`
	// Breaking configures the breaking-change check.
	Breaking Breaking `json:"breaking,omitempty" yaml:"breaking,omitempty" jsonschema:"description=The breaking-change check of udtc breaking and udtc publish (docs/git.md)."`
	// Icons are the resource types' icons: an SVG file (relative to
	// udtc.yaml) by NAMESPACE/TYPE.
	Icons map[string]string `json:"icons,omitempty" yaml:"icons,omitempty" jsonschema:"description=Each resource type's icon: an SVG file relative to udtc.yaml by Namespace/type (rad resource-type create --icon). udtc publish registers it; the registry serves it by its hash."`
	// Lifecycle declares API versions' deprecation and sunset, by
	// "Namespace/type@version". It lives here, not in the manifests, which
	// must stay acceptable to rad (docs/lifecycle.md).
	Lifecycle map[string]api.Lifecycle `json:"lifecycle,omitempty" yaml:"lifecycle,omitempty" jsonschema:"description=The deprecation and sunset of API versions\\, keyed Namespace/type@version (docs/lifecycle.md): every output shows them and the registry announces them."`
}

// Breaking configures the breaking-change check (compat.Policy).
type Breaking struct {
	// Previews is "allow" (the default) or "strict".
	Previews string `json:"previews,omitempty" yaml:"previews,omitempty" jsonschema:"enum=allow,enum=strict,description=allow (the default): a breaking change within a preview API version (YYYY-MM-DD-preview) is reported as a warning and allowed\\, as Azure and Radius allow previews to break (removing x-radius-sensitive excepted); strict: refused like one in a stable version."`
}

// Inputs are include and exclude globs.
type Inputs struct {
	Include []string `json:"include,omitempty" yaml:"include,omitempty" jsonschema:"description=Files or directories (searched recursively) or globs; default: the project directory."`
	Exclude []string `json:"exclude,omitempty" yaml:"exclude,omitempty" jsonschema:"description=Globs of files or directories to leave out."`
}

// Go configures the go target.
type Go struct {
	ImportPrefix string `json:"importPrefix,omitempty" yaml:"importPrefix,omitempty" jsonschema:"description=Go import path of the output directory (--go-import-prefix)."`
	Module       string `json:"module,omitempty" yaml:"module,omitempty" jsonschema:"description=Module path of a go.mod written at the root of the output directory\\, which is then the Go import prefix (--go-module)."`
	Runtime      string `json:"runtime,omitempty" yaml:"runtime,omitempty" jsonschema:"enum=copy,enum=module,description=Where the Go clients find their runtime: a copy in the output directory or the published module (--go-runtime)."`
}

// Bicep configures the bicep target.
type Bicep struct {
	ExtensionName    string `json:"extensionName,omitempty" yaml:"extensionName,omitempty" jsonschema:"description=One Bicep extension of this name for every namespace (--extension-name)."`
	ExtensionVersion string `json:"extensionVersion,omitempty" yaml:"extensionVersion,omitempty" jsonschema:"description=The Bicep extension version (--extension-version)."`
}

// Rule is one rule's setting.
type Rule struct {
	Severity string `json:"severity" yaml:"severity" jsonschema:"required,enum=off,enum=warning,enum=error"`
	Reason   string `json:"reason" yaml:"reason" jsonschema:"required,minLength=1,description=Why the project departs from the rule's default: kept with the setting\\, like a lint exception."`
}

// Project is a loaded project file.
type Project struct {
	// Path is the project file; Dir its directory.
	Path, Dir string
	File      File
	severity  map[string]diag.Severity
	off       map[string]bool
	// icons is File.Icons read: the SVG text by type name as written.
	icons map[string]string
	// lifecycle is File.Lifecycle with the position of each key.
	lifecycle []check.LifecycleDecl
	// inFS: loaded with LoadFS, so Path and Dir are paths of its tree.
	inFS bool
}

// Find returns the udtc.yaml in dir or the nearest directory above it, or
// "" when there is none.
func Find(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; d = filepath.Dir(d) {
		p := filepath.Join(d, FileName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if filepath.Dir(d) == d {
			return "", nil
		}
	}
}

// Load reads and checks a project file. Every problem is returned as one
// error naming the file and the setting.
func Load(file string) (*Project, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	p := &Project{Path: file, Dir: filepath.Dir(file)}
	return p.load(data, func(name string) ([]byte, error) {
		return os.ReadFile(filepath.Join(p.Dir, filepath.FromSlash(name)))
	})
}

// LoadFS is Load of the project file name (slash-separated) of fsys, a
// tree that is not the working directory's, such as a commit's (the git
// sync): Path, Dir and the positions of its diagnostics are paths of
// fsys, and icons are read from it.
func LoadFS(fsys fs.FS, name string) (*Project, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	p := &Project{Path: name, Dir: path.Dir(name), inFS: true}
	return p.load(data, func(icon string) ([]byte, error) {
		return fs.ReadFile(fsys, path.Join(p.Dir, path.Clean(icon)))
	})
}

// FindFS returns the project file of fsys in dir (slash-separated) or the
// nearest directory above it, "" when there is none.
func FindFS(fsys fs.FS, dir string) (string, error) {
	for d := path.Clean(dir); ; d = path.Dir(d) {
		p := path.Join(d, FileName)
		if st, err := fs.Stat(fsys, p); err == nil && !st.IsDir() {
			return p, nil
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if d == "." || d == "/" {
			return "", nil
		}
	}
}

// load checks the project file's data; readIcon reads an icon by its path
// relative to Dir.
func (p *Project) load(data []byte, readIcon func(name string) ([]byte, error)) (*Project, error) {
	file := p.Path
	p.severity, p.off = map[string]diag.Severity{}, map[string]bool{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&p.File); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	p.lifecycle = lifecycleDecls(p.Rel(FileName), data, p.File.Lifecycle)
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	rules := map[string]diag.Rule{}
	var ids []string
	for _, r := range generator.Rules() {
		rules[r.ID] = r
		ids = append(ids, r.ID)
	}
	for _, id := range slices.Sorted(maps.Keys(p.File.Rules)) {
		r := p.File.Rules[id]
		def, ok := rules[id]
		switch {
		case !ok:
			hint := ""
			if s := check.Suggest(id, ids); s != "" {
				hint = fmt.Sprintf(" (did you mean %s?)", s)
			}
			bad("rules.%s: no such rule%s; the rules are listed in docs/rules.md", id, hint)
			continue
		case strings.TrimSpace(r.Reason) == "":
			bad("rules.%s: give a reason for the setting", id)
		}
		switch r.Severity {
		case "error":
			p.severity[id] = diag.Error
		case "warning", "off":
			if def.Severity == diag.Error {
				bad("rules.%s: an error rule cannot be lowered to %s (the output would be wrong)", id, r.Severity)
				continue
			}
			if r.Severity == "off" {
				p.off[id] = true
			} else {
				p.severity[id] = diag.Warning
			}
		default:
			bad("rules.%s.severity: %q is not off, warning or error", id, r.Severity)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(p.File.Icons)) {
		if problem := api.FullTypeNameProblem(name); problem != "" {
			bad("icons.%s: the key %s", name, problem)
			continue
		}
		svg, err := readIcon(p.File.Icons[name])
		if err != nil {
			bad("icons.%s: %v", name, err)
			continue
		}
		if problem := api.IconProblem(string(svg)); problem != "" {
			bad("icons.%s: %s: %s", name, p.File.Icons[name], problem)
			continue
		}
		if p.icons == nil {
			p.icons = map[string]string{}
		}
		p.icons[name] = string(svg)
	}
	if v := p.File.Target; v != "" && v != "radius" && v != "udtc" {
		bad("target: %q is not radius or udtc", v)
	}
	if v := p.File.Breaking.Previews; v != "" && v != "allow" && v != "strict" {
		bad("breaking.previews: %q is not allow or strict", v)
	}
	if err := goclient.CheckRuntime(p.File.Go.Runtime); err != nil {
		bad("go.runtime: %v", err)
	}
	if m := p.File.Go.Module; m != "" {
		if err := module.CheckPath(m); err != nil {
			bad("go.module: %q is not a Go module path: %v", m, errors.Unwrap(err))
		}
	}
	for _, g := range append(slices.Clone(p.File.Inputs.Include), p.File.Inputs.Exclude...) {
		if _, err := path.Match(strings.ReplaceAll(g, "**", "*"), ""); err != nil || filepath.IsAbs(g) || strings.HasPrefix(path.Clean(filepath.ToSlash(g)), "../") {
			bad("inputs: %q is not a glob relative to the project directory", g)
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s: %s", file, strings.Join(problems, "; "))
	}
	return p, nil
}

// Rel returns a path of the project (relative to Dir) as a path relative to
// the working directory when possible, else absolute.
func (p *Project) Rel(name string) string {
	if p.inFS {
		return path.Join(p.Dir, name)
	}
	abs := filepath.Join(p.Dir, filepath.FromSlash(name))
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, abs); err == nil {
			return rel
		}
	}
	return abs
}

// Inputs returns the manifests the project selects: the files below Dir
// that an include pattern names (by glob, or as a directory above them)
// and no exclude pattern names, never the files under output. Paths are
// relative to the working directory.
func (p *Project) Inputs(output string) ([]string, error) {
	found, err := generator.Expand([]string{p.Dir})
	if err != nil {
		return nil, err
	}
	include := p.File.Inputs.Include
	if len(include) == 0 {
		include = []string{"."}
	}
	outRel := ""
	if output != "" {
		if abs, err := filepath.Abs(output); err == nil {
			if r, err := filepath.Rel(p.Dir, abs); err == nil {
				outRel = filepath.ToSlash(r)
			}
		}
	}
	var out []string
	for _, in := range found {
		abs, err := filepath.Abs(in.Path)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(p.Dir, abs)
		if err != nil {
			return nil, err
		}
		rel = filepath.ToSlash(rel)
		if p.selects(include, outRel, rel) {
			out = append(out, p.Rel(rel))
		}
	}
	return out, nil
}

// selects reports whether the project selects the file at rel (relative
// to Dir, slash-separated): the one rule of Inputs and Selects.
func (p *Project) selects(include []string, outRel, rel string) bool {
	if manifest.IsProjectFile(rel) || (outRel != "" && matches(outRel, rel)) {
		return false
	}
	return slices.ContainsFunc(include, func(g string) bool { return matches(g, rel) }) &&
		!slices.ContainsFunc(p.File.Inputs.Exclude, func(g string) bool { return matches(g, rel) })
}

// isBelow reports whether path is dir or below it.
func isBelow(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Selects reports whether the project selects the file at abs, an
// absolute path below Dir, as Inputs does with the project's output
// directory left out: for a tree Inputs cannot walk, such as a git
// revision's (udtc breaking).
func (p *Project) Selects(abs string) bool {
	dir := p.Dir
	if real, err := filepath.EvalSymlinks(dir); err == nil && !isBelow(dir, abs) {
		dir = real // abs may name the real path (a git repository's root)
	}
	if !isBelow(dir, abs) {
		return false
	}
	rel, _ := filepath.Rel(dir, abs)
	return p.SelectsRel(filepath.ToSlash(rel))
}

// matches reports whether the glob names the slash-separated path rel or
// a directory above it. ** matches any number of path elements.
func matches(glob, rel string) bool {
	g := strings.Split(path.Clean(filepath.ToSlash(glob)), "/")
	if len(g) == 1 && g[0] == "." {
		return true
	}
	parts := strings.Split(rel, "/")
	for n := 1; n <= len(parts); n++ { // the path itself or a directory above it
		if match(g, parts[:n]) {
			return true
		}
	}
	return false
}

func match(g, parts []string) bool {
	if len(g) == 0 {
		return len(parts) == 0
	}
	if g[0] == "**" {
		for i := 0; i <= len(parts); i++ {
			if match(g[1:], parts[i:]) {
				return true
			}
		}
		return false
	}
	if len(parts) == 0 {
		return false
	}
	ok, err := path.Match(g[0], parts[0])
	return err == nil && ok && match(g[1:], parts[1:])
}

// Apply sets the severities the project gives its rules and drops the
// diagnostics of rules it turns off. Notes are left alone.
func (p *Project) Apply(diags diag.List) diag.List {
	if p == nil || len(p.severity)+len(p.off) == 0 {
		return diags
	}
	var out diag.List
	for _, d := range diags {
		if d.Severity == diag.Note {
			out = append(out, d)
			continue
		}
		if p.off[d.Rule] {
			continue
		}
		if s, ok := p.severity[d.Rule]; ok {
			d.Severity = s
		}
		out = append(out, d)
	}
	return out
}

// lifecycleDecls returns the lifecycle entries in the order written, each
// with the position of its key in the file (the decoder checked the
// document; a key whose position is not found has the file's).
func lifecycleDecls(file string, data []byte, m map[string]api.Lifecycle) []check.LifecycleDecl {
	if len(m) == 0 {
		return nil
	}
	span := map[string]diag.Span{}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) == nil && len(doc.Content) == 1 && doc.Content[0].Kind == yaml.MappingNode {
		top := doc.Content[0].Content
		for i := 0; i+1 < len(top); i += 2 {
			if top[i].Value != "lifecycle" || top[i+1].Kind != yaml.MappingNode {
				continue
			}
			for _, k := range top[i+1].Content {
				if k.Kind == yaml.ScalarNode {
					if _, ok := span[k.Value]; !ok {
						span[k.Value] = diag.Span{File: file, Line: k.Line, Column: k.Column, EndLine: k.Line, EndColumn: k.Column + len(k.Value)}
					}
				}
			}
		}
	}
	out := make([]check.LifecycleDecl, 0, len(m))
	for _, key := range slices.Sorted(maps.Keys(m)) {
		s, ok := span[key]
		if !ok {
			s = diag.Span{File: file}
		}
		out = append(out, check.LifecycleDecl{Key: key, Lifecycle: m[key], Span: s})
	}
	slices.SortStableFunc(out, func(a, b check.LifecycleDecl) int { return cmp.Compare(a.Span.Line, b.Span.Line) })
	return out
}

// SelectsRel reports whether the project selects the file at rel, a
// slash-separated path relative to Dir, as Selects does.
func (p *Project) SelectsRel(rel string) bool {
	include := p.File.Inputs.Include
	if len(include) == 0 {
		include = []string{"."}
	}
	outRel := ""
	if p.File.Output != "" {
		outRel = path.Clean(filepath.ToSlash(p.File.Output))
	}
	return p.selects(include, outRel, rel)
}

// Radius reports whether the project's manifests are checked for today's
// Radius (target: radius, the default; also without a project).
func (p *Project) Radius() bool { return p == nil || p.File.Target != "udtc" }

// NoBaseProperties reports whether the project leaves Radius's base
// properties out (baseProperties: false).
func (p *Project) NoBaseProperties() bool {
	return p != nil && p.File.BaseProperties != nil && !*p.File.BaseProperties
}

// CompileOptions are the compiler's options that udtc.yaml sets: its
// target (Radius), baseProperties, lifecycle and icons; with no project,
// those of target radius. Commands set their flags over them; the git sync
// takes them as they are.
func (p *Project) CompileOptions() generator.Options {
	return generator.Options{Radius: p.Radius(), NoBaseProperties: p.NoBaseProperties(), Lifecycle: p.Lifecycle(), Icons: p.Icons()}
}

// Icons returns udtc.yaml's icons, the SVG text by type name
// (generator.Options.Icons); nil without a project.
func (p *Project) Icons() map[string]string {
	if p == nil {
		return nil
	}
	return p.icons
}

// Lifecycle returns udtc.yaml's lifecycle entries with their positions
// (generator.Options.Lifecycle); nil without a project.
func (p *Project) Lifecycle() []check.LifecycleDecl {
	if p == nil {
		return nil
	}
	return p.lifecycle
}

// BreakingPolicy is the breaking-change policy the project sets (the
// default one without a project); flags add their allowances to it.
func (p *Project) BreakingPolicy() compat.Policy {
	if p == nil {
		return compat.Policy{}
	}
	return compat.Policy{StrictPreviews: p.File.Breaking.Previews == "strict"}
}

// Key is a fingerprint of the settings, for caches keyed by options: the
// whole file as read (rules, target, base properties, the breaking policy,
// ...), so that no setting added later can be forgotten by a cache.
func (p *Project) Key() string {
	if p == nil {
		return ""
	}
	b, _ := json.Marshal(p.File)
	// The icons' files are read, not named: their content counts.
	for _, name := range slices.Sorted(maps.Keys(p.icons)) {
		b = append(b, "\n"+name+" "+api.IconHash(p.icons[name])...)
	}
	return string(b)
}

// JSONSchema returns the JSON Schema of udtc.yaml, indented, with a
// trailing newline.
func JSONSchema() ([]byte, error) {
	r := &jsonschema.Reflector{ExpandedStruct: true, RequiredFromJSONSchemaTags: true, AllowAdditionalProperties: false}
	s := r.Reflect(&File{})
	s.ID = SchemaID
	s.Title = "udtc project file (udtc.yaml)"
	s.Description = "Inputs, output, targets, generator options and rule severities of a udtc project. Command-line flags override it."
	out, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
