package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Sample is one whole-process run.
type Sample struct {
	Wall time.Duration
	// CPU is user + system time of the process and its waited-for children.
	CPU time.Duration
	// Sys is the system part of CPU: the kernel's work for the process
	// (on these machines mostly creating files, see docs/benchmarks.md).
	Sys time.Duration
	// MaxRSS is the peak resident set size in bytes.
	MaxRSS int64
	// ExitCode is -1 when the process did not exit normally.
	ExitCode int
	Stdout   string
	Stderr   string
}

// Failed reports whether the run exited non-zero.
func (s Sample) Failed() bool { return s.ExitCode != 0 }

// Brief returns the first line of stderr (else stdout), shortened, for a
// report.
func (s Sample) Brief() string {
	out := strings.TrimSpace(s.Stderr)
	if out == "" {
		out = strings.TrimSpace(s.Stdout)
	}
	return Brief(out)
}

// Brief returns the first line of text, shortened to 200 bytes, with "…"
// when anything was left out.
func Brief(text string) string {
	line, rest, _ := strings.Cut(text, "\n")
	if len(line) > 200 {
		line, rest = line[:200], "…"
	}
	if rest != "" {
		line += " …"
	}
	return line
}

// Measure runs name with args (in dir when non-empty, with env appended to
// the current environment) and reports its wall time, CPU time and peak
// RSS. A non-zero exit is not an error: it is in Sample.ExitCode. The error
// is for a process that could not start or was killed by ctx; when ctx
// ends, the whole process group of the command is killed.
//
// Measure starts the command directly, so on Linux its peak RSS is at least
// this process's own high-water RSS; see Meter for exact figures.
func Measure(ctx context.Context, dir string, env []string, name string, args ...string) (Sample, error) {
	return Meter{}.Measure(ctx, dir, env, name, args...)
}

// Meter measures processes. Linux charges a child started with vfork (as
// os/exec does) the parent's high-water RSS when it calls exec, so a
// benchmark harness that ever held a large catalog would inflate every
// small process it measures. With Launcher set, each command instead runs
// as the child of a fresh launcher process, which reports the command's
// own resource usage.
type Meter struct {
	// Launcher is a binary whose main calls ServeLauncher first, usually
	// the running binary (os.Executable); "" starts commands directly.
	Launcher string
}

// launchEnv names the file a launcher writes the command's usage to.
const launchEnv = "BENCH_HARNESS_USAGE_FILE"

// usage is what a launcher reports.
type usage struct {
	UserNs, SysNs int64
	MaxRSSKiB     int64
	ExitCode      int
}

// ServeLauncher makes the running binary a launcher when Meter started it
// as one: it runs os.Args[1:] with this process's stdio, writes the
// command's resource usage to the file Meter named, and exits with the
// command's exit code. Otherwise it returns at once. Call it first in main
// (and in TestMain).
func ServeLauncher() {
	path := os.Getenv(launchEnv)
	if path == "" {
		return
	}
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "launcher: no command")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, launchEnv+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintf(os.Stderr, "launcher: %v\n", err)
		os.Exit(127)
	}
	u := usage{
		UserNs:   int64(cmd.ProcessState.UserTime()),
		SysNs:    int64(cmd.ProcessState.SystemTime()),
		ExitCode: cmd.ProcessState.ExitCode(),
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		u.MaxRSSKiB = int64(ru.Maxrss)
	}
	data, _ := json.Marshal(u)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		fmt.Fprintf(os.Stderr, "launcher: %v\n", err)
	}
	if u.ExitCode < 0 {
		os.Exit(1)
	}
	os.Exit(u.ExitCode)
}

// Measure is the package-level Measure, through m.Launcher when set.
func (m Meter) Measure(ctx context.Context, dir string, env []string, name string, args ...string) (Sample, error) {
	var usageFile string
	if m.Launcher != "" {
		f, err := os.CreateTemp("", "bench-usage-")
		if err != nil {
			return Sample{ExitCode: -1}, err
		}
		usageFile = f.Name()
		f.Close()
		defer os.Remove(usageFile)
		env = append(slices.Clone(env), launchEnv+"="+usageFile)
		args = append([]string{name}, args...)
		name = m.Launcher
	}
	cmd := exec.CommandContext(ctx, name, args...)
	// Its own process group, killed whole when ctx ends: `go test` leaves
	// test binaries behind otherwise, and they would hold stdout open.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Dir = dir
	if len(env) > 0 {
		cmd.Env = append(cmd.Environ(), env...)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	s := Sample{Wall: wall, ExitCode: -1, Stdout: stdout.String(), Stderr: stderr.String()}
	if cmd.ProcessState == nil {
		return s, fmt.Errorf("%s: %w", name, err)
	}
	s.ExitCode = cmd.ProcessState.ExitCode()
	s.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	s.Sys = cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.MaxRSS = int64(ru.Maxrss) * 1024 // Linux reports KiB
	}
	if usageFile != "" {
		var u usage
		data, rerr := os.ReadFile(usageFile)
		if rerr == nil && json.Unmarshal(data, &u) == nil {
			s.CPU = time.Duration(u.UserNs + u.SysNs)
			s.Sys = time.Duration(u.SysNs)
			s.MaxRSS = u.MaxRSSKiB * 1024
			s.ExitCode = u.ExitCode
		} else if ctx.Err() == nil && s.ExitCode == 127 {
			return s, fmt.Errorf("%s: %s", args[0], s.Brief())
		}
	}
	if ctx.Err() != nil {
		return s, fmt.Errorf("%s: %w", name, ctx.Err())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return s, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// Summary is the median of several samples of the same command.
type Summary struct {
	Runs   int
	Wall   time.Duration
	CPU    time.Duration
	Sys    time.Duration
	MaxRSS int64
}

// Summarize returns the per-field medians of samples.
func Summarize(samples []Sample) Summary {
	var wall, cpu, sys []time.Duration
	var rss []int64
	for _, s := range samples {
		wall, cpu, sys, rss = append(wall, s.Wall), append(cpu, s.CPU), append(sys, s.Sys), append(rss, s.MaxRSS)
	}
	return Summary{Runs: len(samples), Wall: Median(wall), CPU: Median(cpu), Sys: Median(sys), MaxRSS: Median(rss)}
}
