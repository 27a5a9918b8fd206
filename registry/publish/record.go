package publish

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/udtc/udtc/internal/atomicfile"
)

// Record is the machine-local record of the last publish that left the
// registry matching the manifests (a plan of zero writes, read back after
// applying): the inputs' key (the caller's fingerprint of the udtc binary,
// every flag, each manifest's path and contents), the namespaces it read,
// what it read of the registry (Plan.State), and the diagnostics
// (warnings) and plan text it printed. A publish whose inputs have that key
// and which reads that state again would plan zero writes again, so it can
// print the same and compile nothing (Replay). It lives in the user cache
// directory (os.UserCacheDir()/udtc/publish/), one file per server, plane
// and paths (RecordPath).
type Record struct {
	Key        string   `json:"key"`
	Namespaces []string `json:"namespaces"`
	State      string   `json:"state"`
	Plan       string   `json:"plan"`
	// Diagnostics is the text the compile printed on stderr.
	Diagnostics string `json:"diagnostics"`
}

// RecordPath returns the file of the record of a publish of paths to
// server and plane: "" when there is no user cache directory.
func RecordPath(server, plane string, paths []string) string {
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "%q %q\n", server, plane)
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "%q\n", abs)
	}
	return filepath.Join(base, "udtc", "publish", hex.EncodeToString(h.Sum(nil)[:16]))
}

// Replay reports whether the record at path has the key and the registry
// still holds the state it recorded (ReadState); it returns the record. A
// missing or unreadable record, or one of other inputs, is no replay and
// no error; the error is the registry's.
func Replay(ctx context.Context, reg Reader, path, key string) (Record, bool, error) {
	var rec Record
	if path == "" {
		return rec, false, nil
	}
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &rec) != nil || rec.Key != key || rec.State == "" {
		return rec, false, nil
	}
	state, err := ReadState(ctx, reg, rec.Namespaces)
	if err != nil {
		return rec, false, err
	}
	return rec, state == rec.State, nil
}

// SaveRecord saves at path the record of plan when it writes nothing: key
// is the inputs' key, planText and diagnostics what the publish printed.
// It is best effort: without a record the next publish just compiles.
func SaveRecord(path, key string, plan *Plan, planText, diagnostics string) {
	if path == "" || key == "" || plan.Writes() != 0 || plan.State == "" {
		return
	}
	b, err := json.Marshal(Record{Key: key, Namespaces: Namespaces(plan.want), State: plan.State, Plan: planText, Diagnostics: diagnostics})
	if err != nil {
		return
	}
	_ = atomicfile.WriteFile(path, b, 0o644)
}
