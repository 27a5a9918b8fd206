package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/udtc/udtc/bench/harness"
)

// Radius's own tools, timed beside udtc in the same run (the shapes
// section). The Go module proxy does not serve Radius's module, so the
// harness builds them from a Radius source tree (-radius, by default
// ../radius beside the repository): its validator, the code behind `rad
// resource-type create` and `rad resource-provider create` (read the
// manifest, merge the base resource manifest, validate every schema), and
// bicep-tools' manifest-to-bicep. Without a tree the targets divide by
// Radius's times recorded once (radiusCheck, radiusCheckBicep), and the
// report says so.

// radiusModule is the module path a Radius source tree's go.mod declares.
const radiusModule = "github.com/radius-project/radius"

// radiusValidatePkg is where, inside the Radius tree, the harness's
// validator program is placed by a build overlay: the tree is not written
// to.
const radiusValidatePkg = "cmd/udtc-bench-validate"

// radiusValidateMain is the validator program: every manifest under the
// directory in os.Args[1], one after another in one process, as rad's
// RegisterDirectory validates a directory. A refused manifest is a result,
// not a failure: it prints how many manifests were accepted, refused, and
// refused when read (before any schema was validated), then the first
// refusal, its lines joined. Only ValidateManifest is timed: the kind of
// refusal is read from its message.
const radiusValidateMain = `package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/radius-project/radius/pkg/cli/manifest"
)

func main() {
	accepted, refused, read, first := 0, 0, 0, ""
	err := filepath.WalkDir(os.Args[1], func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		if _, err := manifest.ValidateManifest(context.Background(), p); err != nil {
			if strings.HasPrefix(err.Error(), "failed to read manifest") {
				read++ // ValidateManifest's wording for ReadFile's refusals
			}
			if refused++; first == "" {
				rel, _ := filepath.Rel(os.Args[1], p)
				first = rel + ": " + strings.Join(strings.Fields(err.Error()), " ")
			}
			return nil
		}
		accepted++
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("accepted %d\nrefused %d\nwhen read %d\n%s\n", accepted, refused, read, first)
}
`

// radiusTools are the built tools, or why there are none.
type radiusTools struct {
	rev      string // the tree's commit, "unknown" when it is not a git work tree
	validate string // the validator program
	toBicep  string // manifest-to-bicep
	why      string // "" when both built
}

// radiusSource is the Radius tree to build from: -radius, else ../radius
// beside the repository when it holds Radius's go.mod; "" with the reason
// when there is none.
func (b *bench) radiusSource() (string, string) {
	dir, explicit := b.cfg.radius, b.cfg.radius != ""
	if !explicit {
		dir = filepath.Join(filepath.Dir(b.root), "radius")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err.Error()
	}
	mod, err := os.ReadFile(filepath.Join(abs, "go.mod"))
	switch {
	case err != nil && !explicit:
		return "", "no Radius source tree (-radius, or a clone of github.com/radius-project/radius at ../radius)"
	case err != nil:
		return "", "-radius " + dir + ": " + err.Error()
	case modfile.ModulePath(mod) != radiusModule:
		return "", fmt.Sprintf("%s: go.mod declares %q, not %s", dir, modfile.ModulePath(mod), radiusModule)
	}
	return abs, ""
}

// buildRadius builds Radius's validator program and manifest-to-bicep from
// the tree src into dir.
func buildRadius(ctx context.Context, src, dir string) radiusTools {
	t := radiusTools{rev: "unknown", validate: filepath.Join(dir, "radius-validate"), toBicep: filepath.Join(dir, "manifest-to-bicep")}
	if out, err := exec.CommandContext(ctx, "git", "-C", src, "rev-parse", "--short=12", "HEAD").Output(); err == nil {
		t.rev = strings.TrimSpace(string(out))
	}
	main := filepath.Join(dir, "radius-validate.go")
	overlay := filepath.Join(dir, "radius-overlay.json")
	ov, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(src, filepath.FromSlash(radiusValidatePkg), "main.go"): main}})
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.why = err.Error()
		return t
	}
	if err := errors.Join(os.WriteFile(main, []byte(radiusValidateMain), 0o644), os.WriteFile(overlay, ov, 0o644)); err != nil {
		t.why = err.Error()
		return t
	}
	for _, args := range [][]string{
		{"build", "-overlay", overlay, "-o", t.validate, "./" + radiusValidatePkg},
		{"build", "-o", t.toBicep, "./bicep-tools/cmd/manifest-to-bicep"},
	} {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir, cmd.Env = src, append(os.Environ(), "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.why = fmt.Sprintf("go %s in %s: %s", strings.Join(args, " "), src, harness.Brief(strings.Join(strings.Fields(string(out)+" "+err.Error()), " ")))
			return t
		}
	}
	return t
}

// radiusRun is one run of Radius's tools over a catalog.
type radiusRun struct {
	validate harness.Sample
	accepted int // manifests the validator accepted
	refused  int // and refused
	// refusedRead are the refused ones refused when read, before any of
	// their schemas was validated.
	refusedRead int
	first       string // the first refusal
	// toBicep is manifest-to-bicep over every namespace, one process per
	// namespace (it takes the manifests of one namespace): the walls, CPU
	// and kernel times summed, the largest peak RSS.
	toBicep    harness.Sample
	namespaces int
	refusedNS  int    // namespaces it refused
	firstNS    string // the first refusal, shortened (Sample.Brief)
}

// wall is the time of the validator followed by manifest-to-bicep.
func (r radiusRun) wall() time.Duration { return r.validate.Wall + r.toBicep.Wall }

// run runs the validator over catalog, then manifest-to-bicep over each of
// its namespaces into out.
func (t radiusTools) run(ctx context.Context, m harness.Meter, timeout time.Duration, catalog, out string) (radiusRun, error) {
	var r radiusRun
	measure := func(bin string, args ...string) (harness.Sample, error) {
		rctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		return m.Measure(rctx, "", nil, bin, args...)
	}
	s, err := measure(t.validate, catalog)
	if err != nil {
		return r, err
	}
	if s.Failed() {
		return r, fmt.Errorf("the validator: exit %d: %s", s.ExitCode, s.Brief())
	}
	if r, err = parseValidate(s.Stdout); err != nil {
		return r, err
	}
	r.validate = s
	namespaces, err := os.ReadDir(catalog)
	if err != nil {
		return r, err
	}
	for _, ns := range namespaces {
		if !ns.IsDir() {
			continue
		}
		files, err := yamlFiles(filepath.Join(catalog, ns.Name()))
		if err != nil {
			return r, err
		}
		s, err := measure(t.toBicep, append(append([]string{"generate"}, files...), filepath.Join(out, ns.Name()))...)
		if err != nil {
			return r, err
		}
		r.namespaces++
		if s.Failed() {
			if r.refusedNS++; r.firstNS == "" {
				r.firstNS = ns.Name() + ": " + s.Brief()
			}
		}
		r.toBicep.Wall += s.Wall
		r.toBicep.CPU += s.CPU
		r.toBicep.Sys += s.Sys
		r.toBicep.MaxRSS = max(r.toBicep.MaxRSS, s.MaxRSS)
	}
	return r, nil
}

// parseValidate reads the validator program's output.
func parseValidate(out string) (r radiusRun, err error) {
	if _, err := fmt.Sscanf(out, "accepted %d\nrefused %d\nwhen read %d\n", &r.accepted, &r.refused, &r.refusedRead); err != nil {
		return r, fmt.Errorf("the validator printed %q: %w", out, err)
	}
	if lines := strings.SplitN(out, "\n", 4); len(lines) == 4 {
		r.first = strings.TrimSpace(lines[3])
	}
	return r, nil
}

// pairRatio is the median of each udtc run's wall time over Radius's in
// the run beside it.
func pairRatio(udtc []harness.Sample, radius []time.Duration) float64 {
	var ratios []float64
	for i, s := range udtc {
		if i < len(radius) && radius[i] > 0 {
			ratios = append(ratios, s.Wall.Seconds()/radius[i].Seconds())
		}
	}
	if len(ratios) == 0 {
		return 0
	}
	return harness.Median(ratios)
}

// radiusTools builds Radius's tools the first time they are asked for.
func (b *bench) radiusTools(ctx context.Context) radiusTools {
	if b.radius == nil {
		src, why := b.radiusSource()
		t := radiusTools{why: why}
		if src != "" {
			b.logf("building Radius's validator and manifest-to-bicep from %s", src)
			t = buildRadius(ctx, src, filepath.Join(b.work, "radius"))
		}
		if t.why != "" {
			b.logf("Radius's tools: %s", t.why)
		}
		b.radius = &t
	}
	return *b.radius
}

// versus is the shapes section's udtc check and gen --target bicep of one
// catalog, each run beside a run of Radius's tools when there are any:
// check, Radius's validator and manifest-to-bicep, gen --target bicep. On a
// machine whose speed drifts, each ratio then compares runs minutes apart
// at most.
type versus struct {
	check, bicep []harness.Sample
	tools        radiusTools
	radius       []radiusRun // one per run, none without the tools
}

func (b *bench) versusRadius(ctx context.Context, s shape, out string) (versus, error) {
	v := versus{tools: b.radiusTools(ctx)}
	bout := out + "-bicep"
	for i := range b.cfg.runs {
		got, err := b.measure(ctx, 1, nil, "check", s.dir)
		if err != nil {
			return v, err
		}
		v.check = append(v.check, got...)
		if v.tools.why == "" {
			r, err := v.tools.run(ctx, b.meter, b.cfg.timeout, s.dir, filepath.Join(b.work, fmt.Sprintf("radius-%s-%d", s.profile, i)))
			if err != nil {
				v.tools.why, v.radius = "Radius's tools failed: "+err.Error(), nil
				b.logf("%s", v.tools.why)
			} else {
				v.radius = append(v.radius, r)
			}
		}
		got, err = b.measure(ctx, 1, func() error { return b.setAside(bout) }, append(genArgs(bout, s.dir), "--target", "bicep")...)
		if err != nil {
			return v, err
		}
		v.bicep = append(v.bicep, got...)
	}
	return v, nil
}

// ratios are check's and gen --target bicep's ratios to Radius: the median
// of each run's ratio to the Radius run beside it, else to the recorded
// times.
func (v versus) ratios() (check, bicep float64) {
	if len(v.radius) == 0 {
		return harness.Summarize(v.check).Wall.Seconds() / radiusCheck, harness.Summarize(v.bicep).Wall.Seconds() / radiusCheckBicep
	}
	var validate, both []time.Duration
	for _, r := range v.radius {
		validate, both = append(validate, r.validate.Wall), append(both, r.wall())
	}
	return pairRatio(v.check, validate), pairRatio(v.bicep, both)
}

// note says what a ratio to what (Radius's tool or tools) divides by:
// their runs beside udtc's, else their time recorded.
func (v versus) note(what string, recorded float64) string {
	if len(v.radius) == 0 {
		return fmt.Sprintf("ratio to %s's recorded %s s (why not timed: the row of Radius's tools)", what, harness.Num(recorded))
	}
	return "ratio to " + what + ": the median of each run's ratio to the Radius run beside it"
}

// radiusRows adds the rows of Radius's tools, or why there are none.
func (v versus) radiusRows(t *harness.Table, profile string) {
	if len(v.radius) == 0 {
		t.Rows = append(t.Rows, []string{profile, "Radius's validator, manifest-to-bicep", "0", "—", "—", "—", "—", "—", v.tools.why})
		return
	}
	var validate, toBicep []harness.Sample
	for _, r := range v.radius {
		validate, toBicep = append(validate, r.validate), append(toBicep, r.toBicep)
	}
	last := v.radius[len(v.radius)-1]
	note := fmt.Sprintf("built from Radius's source at %s; one process, one manifest after another, as rad validates a directory; accepted %s of %s manifests",
		v.tools.rev, num(last.accepted), num(last.accepted+last.refused))
	if last.refused > 0 {
		note += fmt.Sprintf("; of the %s it refused, %s when read, before their schemas were validated (a lower bound of validating them); the first: %s", num(last.refused), num(last.refusedRead), harness.Brief(last.first))
	}
	sv, sb := harness.Summarize(validate), harness.Summarize(toBicep)
	t.Rows = append(t.Rows, []string{profile, "Radius's validator", num(sv.Runs), harness.Seconds(sv.Wall), harness.Seconds(sv.CPU), harness.Seconds(sv.Sys), harness.MB(sv.MaxRSS), "—", note})
	note = fmt.Sprintf("bicep-tools/cmd/manifest-to-bicep at %s, one process per namespace (%s), times summed, peak of the largest", v.tools.rev, num(last.namespaces))
	if last.refusedNS > 0 {
		note += fmt.Sprintf("; it refused %s of them before writing, so its time is a lower bound of converting them; the first: %s", num(last.refusedNS), last.firstNS)
	}
	t.Rows = append(t.Rows, []string{profile, "Radius's manifest-to-bicep", num(sb.Runs), harness.Seconds(sb.Wall), harness.Seconds(sb.CPU), harness.Seconds(sb.Sys), harness.MB(sb.MaxRSS), "—", note})
}
