package project

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
		return nil, fmt.Errorf("init writes nothing: %s already exist(s)", strings.Join(exist, ", "))
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
