package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/source"
	"github.com/udtc/udtc/internal/buildinfo"
	"github.com/udtc/udtc/registry/oci"
)

// publishExtFlags are the flags of `udtc publish-extension`.
type publishExtFlags struct {
	compileFlags
	targets          cli.StringSlice
	extensionName    string
	extensionVersion string
	dryRun           bool
	force            bool
	plainHTTP        bool
	username         string
	passwordStdin    bool
	timeout          time.Duration
}

func (f *publishExtFlags) flags() []cli.Flag {
	return append(f.compileFlags.flags(),
		&cli.StringSliceFlag{Name: "target", Usage: "where to push: `TARGET` is [NAMESPACE=]br:REGISTRY/REPOSITORY[:TAG], with " + oci.Placeholder + " in REPOSITORY for every namespace (repeatable)", Destination: &f.targets},
		&cli.StringFlag{Name: "extension-name", Usage: "put every namespace into one extension of this name (as udtc gen)", Destination: &f.extensionName},
		&cli.StringFlag{Name: "extension-version", Value: bicep.DefaultVersion, Usage: "extension version (as udtc gen); the tag when --target gives none", Destination: &f.extensionVersion},
		&cli.BoolFlag{Name: "dry-run", Usage: "push nothing: print each reference with the digests and sizes of its manifest, config and layer", Destination: &f.dryRun},
		&cli.BoolFlag{Name: "force", Usage: "replace a tag that holds other content", Destination: &f.force},
		&cli.BoolFlag{Name: "plain-http", Usage: "speak plain HTTP to every registry (loopback ones always are)", Destination: &f.plainHTTP},
		&cli.StringFlag{Name: "username", Usage: "registry user name (with --password-stdin) instead of the docker config", Destination: &f.username},
		&cli.BoolFlag{Name: "password-stdin", Usage: "read the password for --username from stdin", Destination: &f.passwordStdin},
		&cli.DurationFlag{Name: "timeout", Value: 5 * time.Minute, Usage: "give up after this long", Destination: &f.timeout},
	)
}

func (f *publishExtFlags) validate() error {
	if err := f.compileFlags.validate(); err != nil {
		return err
	}
	if len(f.targets.Value()) == 0 {
		return usageErrorf("give --target br:REGISTRY/REPOSITORY[:TAG] (with %s for several namespaces)", oci.Placeholder)
	}
	if f.extensionName != "" {
		if p := bicep.ExtensionNameProblem(f.extensionName); p != "" {
			return usageErrorf("--extension-name %q %s", f.extensionName, p)
		}
	}
	if strings.TrimSpace(f.extensionVersion) == "" {
		return usageErrorf("--extension-version must not be empty (default %s)", bicep.DefaultVersion)
	}
	if (f.username != "") != f.passwordStdin {
		return usageErrorf("--username and --password-stdin go together (the password is read from stdin)")
	}
	return nil
}

func (f *publishExtFlags) run(c *cli.Context, e *env) error {
	if err := f.loadProject(); err != nil {
		return err
	}
	bicepFromProject(c, f.proj, &f.extensionName, &f.extensionVersion)
	if err := f.validate(); err != nil {
		return err
	}
	var targets []oci.Target
	for _, s := range f.targets.Value() {
		if fileTarget(s) {
			return usageErrorf("--target %q is a file: publish-extension pushes to a registry (br:REGISTRY/REPOSITORY[:TAG]); "+
				"the package Bicep's publish-extension writes to a file is what `udtc gen --target bicep --out DIR` writes as DIR/bicep/<name>.tgz", s)
		}
		t, err := oci.ParseTarget(s)
		if err != nil {
			return usageErrorf("--target %v", err)
		}
		targets = append(targets, t)
	}
	paths := c.Args().Slice()
	if len(paths) == 0 {
		var err error
		if paths, err = f.inputs(""); err != nil {
			return err
		}
	}
	pkgs, err := f.packages(c, e, paths)
	if err != nil {
		return err
	}
	exts := make([]oci.Extension, len(pkgs))
	for i, p := range pkgs {
		exts[i] = oci.Extension{Name: p.Name, Version: p.Version, Namespaces: p.Namespaces}
	}
	refs, err := oci.Assign(targets, exts)
	if err != nil {
		return usageErrorf("%v", err)
	}
	created, note, err := source.SourceDate(os.Getenv("SOURCE_DATE_EPOCH"), paths...)
	if err != nil {
		return usageErrorf("%v", err)
	} else if note != "" {
		fmt.Fprintf(e.stderr, "note: no creation time in the manifests: %s\n", note)
	}
	arts := make([]*oci.Artifact, len(pkgs))
	for i, p := range pkgs {
		if arts[i], err = oci.NewExtension(p.Types, created); err != nil {
			return fail(exitFail, fmt.Errorf("extension %s: %w", p.Name, err))
		}
	}
	if f.dryRun {
		oci.WriteDryRun(e.stdout, exts, refs, arts)
		return nil
	}
	return f.push(c.Context, e, exts, refs, arts)
}

// packages are the extensions to publish: those the manifests among paths
// compile to (as udtc gen makes them), those of the .tgz packages and
// those of the type indexes (typeIndex) among them: the packages and
// indexes first, in the order given.
func (f *publishExtFlags) packages(c *cli.Context, e *env, paths []string) ([]bicep.Package, error) {
	var manifests []string
	var pkgs []bicep.Package
	for _, p := range paths {
		if index, ok := typeIndex(p); ok {
			pkg, err := readTypeIndex(index)
			if err != nil {
				return nil, fail(exitFail, err)
			}
			pkgs = append(pkgs, pkg)
			continue
		}
		if !strings.HasSuffix(p, ".tgz") {
			manifests = append(manifests, p)
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fail(exitUsage, err)
		}
		pkg, err := bicep.ReadArchive(data)
		if err != nil {
			return nil, fail(exitFail, fmt.Errorf("%s: %w", p, err))
		}
		pkgs = append(pkgs, pkg)
	}
	if len(manifests) > 0 {
		cat, err := f.compile(c, e, manifests, false)
		if err != nil {
			return nil, err
		}
		more, diags, err := bicep.Packages(cat, bicep.Options{ExtensionName: f.extensionName, ExtensionVersion: f.extensionVersion})
		if diags = f.severities(diags); len(diags) > 0 {
			if perr := printDiagnostics(e, f.format, diags); perr != nil {
				return nil, fail(exitUsage, perr)
			}
		}
		if err != nil || diags.HasErrors() {
			return nil, fail(exitFail, err)
		}
		pkgs = append(pkgs, more...)
	}
	seen := map[string]bool{}
	for _, p := range pkgs {
		if seen[p.Name] {
			return nil, usageErrorf("two inputs give the extension %s: publish them separately", p.Name)
		}
		seen[p.Name] = true
	}
	if len(pkgs) == 0 {
		return nil, fail(exitFail, fmt.Errorf("%s: no resource types, so no extension to publish", strings.Join(paths, ", ")))
	}
	return pkgs, nil
}

// push pushes every artifact and stops at the first failure.
func (f *publishExtFlags) push(ctx context.Context, e *env, exts []oci.Extension, refs []oci.Reference, arts []*oci.Artifact) error {
	password := ""
	if f.passwordStdin {
		b, err := io.ReadAll(e.stdin)
		if err != nil {
			return fail(exitUsage, fmt.Errorf("--password-stdin: %w", err))
		}
		if password = strings.TrimRight(string(b), "\r\n"); password == "" {
			return usageErrorf("--password-stdin: stdin is empty")
		}
	}
	client, err := oci.NewClient(oci.Options{
		Username: f.username, Password: password, DockerConfig: oci.DockerConfigPath(),
		PlainHTTP: f.plainHTTP, Force: f.force, UserAgent: "udtc/" + buildinfo.Read().Version,
	})
	if err != nil {
		return fail(exitUsage, err)
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	for i, a := range arts {
		res, err := client.Push(ctx, refs[i], a)
		if err != nil {
			return fail(exitFail, err)
		}
		fmt.Fprintf(e.stdout, "%s %s %s\n", res.Status, refs[i], res.Digest)
	}
	fmt.Fprintln(e.stderr, "bicepconfig.json:")
	fmt.Fprint(e.stderr, oci.BicepConfig(exts, refs))
	return nil
}

// typeIndex returns the index.json of a type index that path names, as
// Bicep's publish-extension takes it: the file index.json itself, or a
// directory holding index.json and types.json (what udtc gen writes as
// bicep/<name>/ and Radius's manifest-to-bicep writes); false for anything
// else, such as a directory of manifests.
func typeIndex(path string) (string, bool) {
	info, err := os.Stat(path)
	if err != nil {
		return "", false
	}
	if !info.IsDir() {
		return path, filepath.Base(path) == "index.json"
	}
	index := filepath.Join(path, "index.json")
	for _, name := range []string{index, filepath.Join(path, "types.json")} {
		if fi, err := os.Stat(name); err != nil || fi.IsDir() {
			return "", false
		}
	}
	return index, true
}

// readTypeIndex reads the type index whose index.json is at index, with
// the types files it names beside it.
func readTypeIndex(index string) (bicep.Package, error) {
	data, err := os.ReadFile(index)
	if err != nil {
		return bicep.Package{}, err
	}
	dir := filepath.Dir(index)
	pkg, err := bicep.ReadTypeIndex(data, func(name string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	})
	if err != nil {
		return bicep.Package{}, fmt.Errorf("%s: %w", index, err)
	}
	return pkg, nil
}

// fileTarget reports whether a --target names a file, as Bicep's
// publish-extension --target ./out.tgz does, rather than a registry.
func fileTarget(s string) bool {
	if strings.HasPrefix(s, oci.Scheme) || strings.Contains(s, "="+oci.Scheme) {
		return false
	}
	return strings.HasSuffix(s, ".tgz") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") ||
		strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || strings.HasPrefix(s, `.\`) || filepath.IsAbs(s)
}
