package project

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"text/template"

	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/manifest"
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

// Starter returns the files that start a project whose first resource type
// is namespace/typeName (both valid names): a commented manifest, the
// project file, a bicepconfig.json pointing at the extension `udtc gen`
// writes, and a CI workflow.
func Starter(namespace, typeName string) ([]StarterFile, error) {
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
	ci, err := fs.ReadFile(templates.FS, "init/workflow.yaml")
	if err != nil {
		return nil, err
	}
	files[3].Data = ci
	return files, nil
}
