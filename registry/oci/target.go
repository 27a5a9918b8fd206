package oci

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	orasregistry "oras.land/oras-go/v2/registry"
)

// Scheme is the prefix of a registry reference in bicepconfig.json.
const Scheme = "br:"

// Placeholder in a target's repository stands for each extension's name.
const Placeholder = "{namespace}"

// Reference is where one extension is pushed: br:REGISTRY/REPOSITORY:TAG.
type Reference struct {
	Registry   string // host[:port]
	Repository string
	Tag        string
}

// String is the reference as bicepconfig.json names it.
func (r Reference) String() string { return Scheme + r.Registry + "/" + r.Repository + ":" + r.Tag }

// Target is one --target of `udtc publish-extension`:
// [NAME=]br:REGISTRY/REPOSITORY[:TAG], where REPOSITORY may hold
// Placeholder.
type Target struct {
	// Key is NAME: the namespace or extension name the target is for; ""
	// for a target of every extension.
	Key        string
	Registry   string
	Repository string
	// Tag is "" when the target gives none: each extension's version.
	Tag string
	raw string
}

func (t Target) String() string { return t.raw }

// Templated reports whether the repository holds Placeholder.
func (t Target) Templated() bool { return strings.Contains(t.Repository, Placeholder) }

// Bicep's rules for the parts of a reference (OciArtifactReferenceFacts):
// a repository is path segments of lower-case letters and digits joined by
// single '.', '_' or '-'; a tag is up to 128 letters, digits, '.', '_' and
// '-', not starting with '.' or '-'. They are stricter than the
// distribution spec's, so a reference that passes works in bicepconfig.json
// too.
var (
	segmentRE = regexp.MustCompile(`^[a-z0-9]+([._-][a-z0-9]+)*$`)
	tagRE     = regexp.MustCompile(`^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$`)
)

const maxRepository = 255

// ParseTarget parses a --target. The error says what is wrong and shows
// the expected form.
func ParseTarget(s string) (Target, error) {
	t := Target{raw: s}
	rest := s
	if !strings.HasPrefix(s, Scheme) {
		key, after, ok := strings.Cut(s, "=")
		if !ok || !strings.HasPrefix(after, Scheme) {
			return Target{}, fmt.Errorf("%q is not a registry reference: write br:REGISTRY/REPOSITORY[:TAG], e.g. br:myregistry.azurecr.io/bicep/contoso:1.0 (or NAMESPACE=br:... for one namespace)", s)
		}
		if key == "" {
			return Target{}, fmt.Errorf("%q: the namespace before = is empty", s)
		}
		t.Key, rest = key, after
	}
	rest = strings.TrimPrefix(rest, Scheme)
	if reg, _, _ := strings.Cut(rest, "/"); strings.Contains(reg, "@") {
		// user:password@registry: not echoed.
		return Target{}, fmt.Errorf("%q: credentials do not belong in a target, where the process list and logs show them: give them with --username and --password-stdin, or docker login", Scheme+"xxxxx"+reg[strings.LastIndexByte(reg, '@'):]+"/...")
	}
	if strings.Contains(rest, "@") {
		return Target{}, fmt.Errorf("%q: a push needs a tag, not a digest", s)
	}
	reg, path, ok := strings.Cut(rest, "/")
	if !ok || reg == "" || path == "" {
		return Target{}, fmt.Errorf("%q: give a registry and a repository: br:REGISTRY/REPOSITORY[:TAG]", s)
	}
	t.Registry, t.Repository = reg, path
	if i := strings.LastIndexByte(path, ':'); i >= 0 {
		t.Repository, t.Tag = path[:i], path[i+1:]
		if t.Tag == "" {
			return Target{}, fmt.Errorf("%q: the tag after ':' is empty (leave out ':' to tag each extension with its version)", s)
		}
	}
	// Check what can be checked before the names are known.
	probe := strings.ReplaceAll(t.Repository, Placeholder, "x")
	tag := t.Tag
	if tag == "" {
		tag = "x"
	}
	if err := check(Reference{Registry: t.Registry, Repository: probe, Tag: tag}); err != nil {
		return Target{}, fmt.Errorf("%q: %w", s, err)
	}
	return t, nil
}

// ParseRegistryPath parses `udtc serve --extension-registry
// REGISTRY/PATH[:TAG]`: the target br:REGISTRY/PATH/{namespace}[:TAG], where
// `udtc publish-extension --target br:REGISTRY/PATH/{namespace}[:TAG]`
// pushes every extension.
func ParseRegistryPath(s string) (Target, error) {
	if strings.HasPrefix(s, Scheme) || strings.Contains(s, "=") || strings.Contains(s, Placeholder) {
		return Target{}, fmt.Errorf("%q: give REGISTRY/PATH[:TAG], e.g. myregistry.azurecr.io/bicep (each extension is then at br:myregistry.azurecr.io/bicep/NAME)", s)
	}
	// A repository holds no ':', so one after the first '/' starts the tag.
	reg, path, _ := strings.Cut(s, "/")
	tag := ""
	if i := strings.LastIndexByte(path, ':'); i >= 0 {
		path, tag = path[:i], path[i:]
	}
	repo := Placeholder
	if path = strings.TrimSuffix(path, "/"); path != "" {
		repo = path + "/" + Placeholder
	}
	return ParseTarget(Scheme + reg + "/" + repo + tag)
}

// For returns the reference of the extension name at version: Placeholder
// replaced by the name (lower-cased), and the version as the tag when the
// target gives none.
func (t Target) For(name, version string) (Reference, error) {
	r := Reference{Registry: t.Registry, Repository: strings.ReplaceAll(t.Repository, Placeholder, strings.ToLower(name)), Tag: t.Tag}
	if r.Tag == "" {
		r.Tag = version
		if !tagRE.MatchString(r.Tag) {
			return Reference{}, fmt.Errorf("extension %s: its version %q is not a tag (letters, digits, '.', '_', '-'): give one in --target ...:TAG", name, version)
		}
	}
	if err := check(r); err != nil {
		return Reference{}, fmt.Errorf("extension %s: %w: give it a target of its own (--target %s=br:...)", name, err, name)
	}
	return r, nil
}

// check applies Bicep's rules and the distribution spec's to a reference.
func check(r Reference) error {
	if err := (orasregistry.Reference{Registry: r.Registry}).ValidateRegistry(); err != nil {
		return fmt.Errorf("%q is not a registry host[:port]", r.Registry)
	}
	if len(r.Repository) > maxRepository {
		return fmt.Errorf("the repository %q is longer than %d characters", r.Repository, maxRepository)
	}
	for _, seg := range strings.Split(r.Repository, "/") {
		if !segmentRE.MatchString(seg) {
			return fmt.Errorf("the repository %q has the segment %q: use lower-case letters and digits, joined by single '.', '_' or '-'", r.Repository, seg)
		}
	}
	if !tagRE.MatchString(r.Tag) {
		return fmt.Errorf("%q is not a tag: up to 128 letters, digits, '.', '_' and '-', not starting with '.' or '-'", r.Tag)
	}
	return nil
}

// Extension is what Assign needs to know of an extension.
type Extension struct {
	Name       string
	Version    string
	Namespaces []string
}

// Assign gives each extension its reference: the target keyed with its
// name or one of its namespaces (case-insensitive), else the one target
// without a key, which must hold Placeholder when there are several
// extensions. It returns references in the order of exts, or an error that
// names what is missing or ambiguous.
func Assign(targets []Target, exts []Extension) ([]Reference, error) {
	if len(targets) == 0 {
		return nil, errors.New("give --target br:REGISTRY/REPOSITORY[:TAG]")
	}
	var shared []Target
	keyed := map[int]Target{}
	for _, t := range targets {
		if t.Key == "" {
			shared = append(shared, t)
			continue
		}
		i := slices.IndexFunc(exts, func(e Extension) bool { return e.matches(t.Key) })
		if i < 0 {
			return nil, fmt.Errorf("--target %s: no namespace or extension %s (there are: %s)", t, t.Key, names(exts))
		}
		if prev, dup := keyed[i]; dup {
			return nil, fmt.Errorf("--target %s and --target %s are both for extension %s", prev, t, exts[i].Name)
		}
		keyed[i] = t
	}
	if len(shared) > 1 {
		return nil, fmt.Errorf("%d targets without a namespace (%s): give one with %s in the repository, or one NAMESPACE=br:... per namespace", len(shared), join(shared), Placeholder)
	}
	refs := make([]Reference, len(exts))
	for i, e := range exts {
		t, ok := keyed[i]
		if !ok {
			if len(shared) == 0 {
				return nil, fmt.Errorf("no --target for extension %s (%s): add --target %s=br:... or a target with %s", e.Name, strings.Join(e.Namespaces, ", "), e.Name, Placeholder)
			}
			t = shared[0]
			if !t.Templated() && len(exts)-len(keyed) > 1 {
				return nil, fmt.Errorf("--target %s would receive %d extensions (%s): put %s in its repository, or give one NAMESPACE=br:... per namespace", t, len(exts)-len(keyed), names(exts), Placeholder)
			}
		}
		r, err := t.For(e.Name, e.Version)
		if err != nil {
			return nil, err
		}
		refs[i] = r
	}
	for i, r := range refs {
		for j := range i {
			if refs[j] == r {
				return nil, fmt.Errorf("extensions %s and %s would both be pushed to %s", exts[j].Name, exts[i].Name, r)
			}
		}
	}
	return refs, nil
}

func (e Extension) matches(key string) bool {
	return strings.EqualFold(key, e.Name) || slices.ContainsFunc(e.Namespaces, func(ns string) bool { return strings.EqualFold(key, ns) })
}

func names(exts []Extension) string {
	out := make([]string, len(exts))
	for i, e := range exts {
		out[i] = e.Name
		if len(e.Namespaces) > 0 {
			out[i] += " (" + strings.Join(e.Namespaces, ", ") + ")"
		}
	}
	return strings.Join(out, ", ")
}

func join(ts []Target) string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return strings.Join(out, ", ")
}

// Names returns the br: reference of each extension name at version under
// t (For), or "" for a name that makes no repository.
func (t Target) Names(version string) func(name string) string {
	return func(name string) string {
		r, err := t.For(name, version)
		if err != nil {
			return ""
		}
		return r.String()
	}
}
