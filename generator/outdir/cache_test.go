package outdir

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/manifest"
)

// TestReadInputsKeepsWhatItHashed: each input is read once; the compile
// takes the very bytes that were hashed, once, except a file over the
// manifest size limit, which is hashed whole and never held.
func TestReadInputsKeepsWhatItHashed(t *testing.T) {
	dir := t.TempDir()
	small := []byte("namespace: Contoso.Small\n")
	big := bytes.Repeat([]byte("# a line of a file too large to be a manifest\n"), manifest.MaxFileSize/46+2)
	var inputs []generator.Input
	for name, data := range map[string][]byte{"small.yaml": small, "big.yaml": big, "empty.yaml": {}} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, generator.Input{Path: p})
	}
	in, err := ReadInputs(inputs, "opt")
	if err != nil {
		t.Fatal(err)
	}
	for i, input := range inputs {
		want, _ := os.ReadFile(input.Path)
		sum := sha256.Sum256(want)
		if in.Sums[i] != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: sum %s, want the SHA-256 of the file", input.Path, in.Sums[i])
		}
		data, ok := in.Take(input.Path)
		switch tooBig := len(want) > manifest.MaxFileSize; {
		case tooBig && (ok || data != nil):
			t.Errorf("%s (%d bytes): kept a file over the limit", input.Path, len(want))
		case !tooBig && (!ok || !bytes.Equal(data, want)):
			t.Errorf("%s: Take gave %q, %t; want the file's bytes", input.Path, data, ok)
		}
		if _, again := in.Take(input.Path); again {
			t.Errorf("%s: taken twice", input.Path)
		}
	}
	if _, ok := in.Take(filepath.Join(dir, "not-an-input.yaml")); ok {
		t.Error("Take gave bytes for a path that is no input")
	}
}

// A run's compile options hand the kept bytes to the compile; once the run
// accepts its catalog, what the compile did not take is dropped.
func TestRunDropsUntakenInputsOnAccept(t *testing.T) {
	dir := t.TempDir()
	var inputs []generator.Input
	for _, name := range []string{"a.yaml", "b.yaml"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("namespace: Contoso."+name[:1]+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, generator.Input{Path: p})
	}
	in, err := ReadInputs(inputs)
	if err != nil {
		t.Fatal(err)
	}
	r := Plan(filepath.Join(dir, "out"), in, false)
	opts := r.CompileOptions()
	if data, ok := opts.Contents(inputs[0].Path); !ok || string(data) != "namespace: Contoso.a\n" {
		t.Fatalf("Contents gave %q, %t", data, ok)
	}
	if !r.Accept(nil) {
		t.Fatal("a run of everything did not accept")
	}
	if _, ok := opts.Contents(inputs[1].Path); ok {
		t.Error("bytes the compile did not take are still kept after Accept")
	}
}
