package project

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"
	"text/template"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/manifest"
	"github.com/udtc/udtc/schema/example"
	"github.com/udtc/udtc/templates"
)

// StarterFile is one file `udtc init` writes: its path relative to the
// project directory, and its contents.
type StarterFile struct {
	Path string
	Data []byte
}

// starterTemplates are templates/init/, rendered by Starter.
var starterTemplates = template.Must(template.ParseFS(templates.FS, "init/*.tmpl"))

// workflowTemplate is the CI workflow's template. Its delimiters are [[ ]]:
// GitHub Actions' own expressions are ${{ }}.
var workflowTemplate = template.Must(template.New("workflow.yaml").Delims("[[", "]]").ParseFS(templates.FS, "init/workflow.yaml"))

// Starter returns the files that start a project whose first resource type
// is namespace/typeName (both valid names): a commented manifest, the
// project file, a bicepconfig.json pointing at the extension `udtc gen`
// writes, a CI workflow, and example.bicep, an example resource of the
// type. pin is the version of udtc the workflow installs (buildinfo.Pin),
// "" for @latest with a comment to pin it: `udtc gen --check` wants the
// bytes the udtc of the project generates.
func Starter(namespace, typeName, pin string) ([]StarterFile, error) {
	ext := bicep.DefaultExtensionName(namespace)
	data := map[string]string{
		"ManifestSchema": manifest.SchemaID, "ProjectSchema": SchemaID,
		"Namespace": namespace, "Type": typeName, "Extension": ext,
	}
	files := []StarterFile{
		{Path: filepath.Join("manifests", typeName+".yaml")},
		{Path: FileName},
		{Path: "bicepconfig.json"},
		{Path: filepath.Join(".github", "workflows", "udtc.yaml")},
	}
	for i, name := range []string{"manifest.yaml.tmpl", "udtc.yaml.tmpl", "bicepconfig.json.tmpl"} {
		var b bytes.Buffer
		if err := starterTemplates.ExecuteTemplate(&b, name, data); err != nil {
			return nil, err
		}
		files[i].Data = b.Bytes()
	}
	var ci bytes.Buffer
	if err := workflowTemplate.Execute(&ci, map[string]string{"Pin": pin}); err != nil {
		return nil, err
	}
	files[3].Data = ci.Bytes()
	ex, err := starterExample(files[0].Data, ext)
	if err != nil {
		return nil, err
	}
	return append(files, StarterFile{Path: "example.bicep", Data: ex}), nil
}

// starterExample is example.bicep: the example resource of the starter
// manifest's type (package schema/example, as the catalog and the docs
// show it), which the registry admits.
func starterExample(man []byte, ext string) ([]byte, error) {
	fsys := fstest.MapFS{"manifest.yaml": &fstest.MapFile{Data: man}}
	cat, diags, err := generator.CompileFS(context.Background(), fsys, []string{"."}, generator.Options{Radius: true}) // init's default target
	if err != nil || diags.HasErrors() || len(cat.Providers) != 1 || len(cat.Providers[0].Types) != 1 {
		return nil, fmt.Errorf("the starter manifest does not compile (a bug): %v %v", err, diags)
	}
	t := cat.Providers[0].Types[0]
	v := t.Version(t.DefaultAPIVersion)
	var b bytes.Buffer
	fmt.Fprintf(&b, "// An example %s resource: every required property with a value the\n", t.FullName())
	b.WriteString("// registry admits, as the catalog and the generated docs show it. Deploy it with\n")
	b.WriteString("// the extension `udtc gen` writes, which bicepconfig.json names.\n")
	b.WriteString("extension " + ext + "\n\n")
	b.WriteString(example.Declaration(t.Namespace, t.Name, v.Name, example.Of(v.Schema).Properties) + "\n")
	return b.Bytes(), nil
}

// WriteStarter writes files below dir, creating directories, and returns
// the paths it wrote. It refuses to overwrite: when any of the files
// exists it writes nothing and says which exist.
func WriteStarter(dir string, files []StarterFile) ([]string, error) {
	var exist []string
	for _, file := range files {
		p := filepath.Join(dir, file.Path)
		if _, err := os.Lstat(p); err == nil {
			exist = append(exist, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
	if len(exist) > 0 {
		verb := "already exists"
		if len(exist) > 1 {
			verb = "already exist"
		}
		return nil, fmt.Errorf("init writes nothing: %s %s", strings.Join(exist, ", "), verb)
	}
	var written []string
	for _, file := range files {
		p := filepath.Join(dir, file.Path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return written, err
		}
		if err := os.WriteFile(p, file.Data, 0o644); err != nil {
			return written, err
		}
		written = append(written, p)
	}
	return written, nil
}
