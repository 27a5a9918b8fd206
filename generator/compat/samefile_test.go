package compat

import "testing"

func TestSameFile(t *testing.T) {
	for _, c := range []struct {
		old, file string
		want      bool
	}{
		{"m/db.yaml", "m/db.yaml", true},
		{"HEAD:m/db.yaml", "m/db.yaml", true},
		{"main~2:m/db.yaml", "m/db.yaml", true},
		{"old/manifest.yaml", "new/manifest.yaml", true}, // --against DIR
		{"HEAD:m/redisCaches.yaml", "m/containers.yaml", false},
		{"HEAD:a/x.yaml", "b/x.yaml", false}, // deleted at the revision, another x.yaml now
		{"old/a.yaml", "new/b.yaml", false},
		{"m/db.yaml", "", false},
	} {
		if got := sameFile(c.old, c.file); got != c.want {
			t.Errorf("sameFile(%q, %q) = %v, want %v", c.old, c.file, got, c.want)
		}
	}
}
