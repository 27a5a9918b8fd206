package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/udtc/udtc/generator"
	"github.com/udtc/udtc/generator/emit/bicep"
	"github.com/udtc/udtc/generator/emit/goclient"
)

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("profile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cpu := fs.String("cpuprofile", "", "write a CPU profile to this file")
	mem := fs.String("memprofile", "", "write a heap profile (after the run) to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "profile: give the catalog directories to compile")
		return 2
	}
	if *cpu != "" {
		f, err := os.Create(*cpu)
		if err != nil {
			fmt.Fprintf(stderr, "profile: %v\n", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "profile: %v\n", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	var phases []string
	phase := func(name string, start time.Time) {
		phases = append(phases, fmt.Sprintf("%s %.2fs", name, time.Since(start).Seconds()))
	}
	t0 := time.Now()
	cat, diags, err := generator.Compile(ctx, fs.Args(), generator.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "profile: %v\n", err)
		return 1
	}
	if cat == nil {
		fmt.Fprintf(stderr, "profile: the catalog has %d diagnostics with errors\n", len(diags))
		return 1
	}
	phase("compile", t0)
	// An emitter failing is reported, not fatal: the profile of the phases
	// that ran is still worth having.
	t1 := time.Now()
	bf, _, err := bicep.Emit(cat, bicep.Options{})
	if err != nil {
		phases = append(phases, "bicep failed: "+err.Error())
	} else {
		phase("bicep", t1)
	}
	t2 := time.Now()
	gf, _, err := goclient.Emit(cat, goclient.Options{ImportPrefix: "example.com/bench/go"})
	if err != nil {
		phases = append(phases, "go failed: "+firstLine(err.Error()))
	} else {
		phase("go", t2)
	}
	if *mem != "" {
		runtime.GC()
		f, err := os.Create(*mem)
		if err == nil {
			err = pprof.WriteHeapProfile(f)
			f.Close()
		}
		if err != nil {
			fmt.Fprintf(stderr, "profile: %v\n", err)
			return 1
		}
	}
	fmt.Fprintf(stdout, "in-process, GOMAXPROCS %d: %s; total %.2fs; %d bicep files, %d Go files\n",
		runtime.GOMAXPROCS(0), strings.Join(phases, ", "), time.Since(t0).Seconds(), len(bf), len(gf))
	return 0
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
