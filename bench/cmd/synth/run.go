package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/udtc/udtc/bench/synth"
)

// run parses flags, generates the catalog and writes it under -out. It
// returns 0 on success, 1 when writing fails and 2 for bad usage.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("synth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o synth.Options
	fs.IntVar(&o.Types, "types", 1000, "total resource types across all namespaces (child types included)")
	fs.IntVar(&o.Versions, "versions", 2, fmt.Sprintf("API versions per type (1..%d)", synth.MaxVersions))
	fs.IntVar(&o.Namespaces, "namespaces", 10, "resource provider namespaces")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed; equal seeds give identical catalogs")
	fs.StringVar(&o.Profile, "profile", synth.ProfileFlat, "schema shape: "+strings.Join(synth.Profiles, " or ")+" (deeper nesting, more constraints, required-default warnings)")
	out := fs.String("out", "", "output directory (required); must be absent or empty unless -force")
	force := fs.Bool("force", false, "remove the output directory first")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "synth: -out DIR is required and no arguments are accepted")
		fs.Usage()
		return 2
	}
	files, err := synth.Generate(o)
	if err != nil {
		fmt.Fprintf(stderr, "synth: %v\n", err)
		return 2
	}
	if err := prepare(*out, *force); err != nil {
		fmt.Fprintf(stderr, "synth: %v\n", err)
		return 2
	}
	var total int64
	for _, f := range files {
		p := filepath.Join(*out, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			fmt.Fprintf(stderr, "synth: %v\n", err)
			return 1
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			fmt.Fprintf(stderr, "synth: %v\n", err)
			return 1
		}
		total += int64(len(f.Data))
	}
	fmt.Fprintf(stdout, "wrote %d files, %d types, %.1f MB to %s\n", len(files), o.Types, float64(total)/1e6, *out)
	return 0
}

// prepare makes sure dir exists and is empty, removing it first when force.
func prepare(dir string, force bool) error {
	if force {
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("%s is not empty (use -force to replace it)", dir)
	}
	return nil
}
