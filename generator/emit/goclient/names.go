package goclient

import "github.com/udtc/udtc/internal/naming"

// The naming rules live in internal/naming, shared with the registry's
// catalog pages; these short names keep the emitter readable.

func pascal(s string) string    { return naming.Pascal(s) }
func joinWords(s string) string { return naming.JoinWords(s) }
func typeName(segments []string) string {
	return naming.GoTypeName(segments)
}
func pkgDir(namespace string) string { return naming.GoPackageDir(namespace) }
func versionDir(version string) string {
	return naming.GoVersionPackage(version)
}

// namer hands out unique names (naming.Namer).
type namer = naming.Namer

func newNamer(reserved ...string) *namer { return naming.NewNamer(reserved...) }
