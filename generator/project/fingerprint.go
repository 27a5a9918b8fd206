package project

import (
	"os"
	"strconv"
	"strings"

	"github.com/udtc/udtc/generator"
)

// Fingerprint is the list of the input files of paths (generator.Expand)
// with their sizes and modification times, and those of the project file
// found from the working directory: it changes when a file is added,
// removed or written (`udtc check --watch`, `udtc gen --watch`).
// Unreadable inputs are part of it too (as an error).
func Fingerprint(paths []string) string {
	var b strings.Builder
	inputs, err := generator.Expand(paths)
	if err != nil {
		b.WriteString(err.Error())
	}
	files := make([]string, 0, len(inputs)+1)
	for _, in := range inputs {
		files = append(files, in.Path)
	}
	if wd, err := os.Getwd(); err == nil {
		if p, _ := Find(wd); p != "" {
			files = append(files, p)
		}
	}
	for _, p := range files {
		b.WriteString(p)
		if st, err := os.Stat(p); err == nil {
			b.WriteString(" " + strconv.FormatInt(st.Size(), 10) + " " + strconv.FormatInt(st.ModTime().UnixNano(), 10))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
