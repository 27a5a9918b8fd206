package harness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// Sample is one whole-process run.
type Sample struct {
	Wall time.Duration
	// CPU is user + system time of the process and its waited-for children.
	CPU time.Duration
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
	line, rest, _ := strings.Cut(out, "\n")
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
func Measure(ctx context.Context, dir string, env []string, name string, args ...string) (Sample, error) {
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
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.MaxRSS = int64(ru.Maxrss) * 1024 // Linux reports KiB
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
	MaxRSS int64
}

// Summarize returns the per-field medians of samples.
func Summarize(samples []Sample) Summary {
	var wall, cpu []time.Duration
	var rss []int64
	for _, s := range samples {
		wall, cpu, rss = append(wall, s.Wall), append(cpu, s.CPU), append(rss, s.MaxRSS)
	}
	return Summary{Runs: len(samples), Wall: Median(wall), CPU: Median(cpu), MaxRSS: Median(rss)}
}
