package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/udtc/udtc/bench/harness"
	"github.com/udtc/udtc/bench/synth"
)

// The static catalog (`udtc gen --target site`, issue 40): what a cold gen
// of 1,000 types writes under site/, in both catalog shapes. Every file
// and directory not created is time saved on a busy disk. Before issue 40
// (7ff6185) the site of 1,000 types (2 API versions each) was 6,004 files
// in 3,013 directories, 133 MB of files (flat) and 154 MB (deep): a JSON
// twin beside every page and a page, in two directories of its own, per
// pair of versions. Each type's pages then still had a directory of their
// own (2,004 files in 1,013 directories); a version's page is now
// types/{namespace}/{type}@{version}.html, a directory per namespace.
const (
	siteFilesBefore = 6004
	siteDirsBefore  = 3013
)

const siteNote = "What the cold gen of each shape (all targets) wrote under `site/`: files, directories (`site/` included) and the files' bytes " +
	"(`find out/site -type f | wc -l`, `find out/site -type d | wc -l`, `find out/site -type f -printf '%s\\n' | awk '{s+=$1} END {print s}'`; `du -sb` counts each directory's 4 kB too). " +
	"Before issue 40 (7ff6185) it was 6,004 files in 3,013 directories, 133 MB flat and 154 MB deep, at 2 API versions a type. \"Mean page\" is the mean page of a type version."

// siteTargets are the targets of one shape's site.
type siteTargets struct {
	size, count *harness.Target
}

// siteTargetsFor returns the site targets of profile, registering those
// of both shapes on first use (the gen and shapes sections both measure).
func (b *bench) siteTargetsFor(profile string) siteTargets {
	if b.site == nil {
		b.site = map[string]siteTargets{}
		for _, p := range []string{synth.ProfileFlat, synth.ProfileDeep} {
			st := siteTargets{
				size: b.target("Static catalog (`site/`) of 1,000 types ("+p+" profile): size", 50, "MB", false),
				count: b.target(fmt.Sprintf("Static catalog (`site/`) of 1,000 types (%s profile): files + directories (half the %s files + %s directories before issue 40)",
					p, num(siteFilesBefore), num(siteDirsBefore)), float64((siteFilesBefore+siteDirsBefore)/2), "entries", false),
			}
			st.size.Why, st.count.Why = "not measured", "not measured"
			b.site[p] = st
		}
	}
	return b.site[profile]
}

// measureSite counts what out/site holds after a cold gen of n types of
// profile, adds its row to the static catalog table and, at the reference
// size, fills the shape's targets. A shape measured already is left alone.
func (b *bench) measureSite(profile string, n int, out string) {
	st := b.siteTargetsFor(profile)
	if n == reference && st.size.Have {
		return
	}
	t := b.table("Static catalog", siteNote, "Types", "Profile", "Files", "Directories", "Size", "Pages", "Mean page")
	var files, dirs, pages int
	var size, pageBytes int64
	err := filepath.WalkDir(filepath.Join(out, "site"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs++
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files++
		size += info.Size()
		if strings.HasSuffix(p, ".html") && strings.Contains(filepath.ToSlash(p), "/site/types/") {
			pages++
			pageBytes += info.Size()
		}
		return nil
	})
	if err != nil {
		t.Rows = append(t.Rows, []string{num(n), profile, "—", "—", "—", "—", err.Error()})
		if n == reference {
			st.size.Why, st.count.Why = err.Error(), err.Error()
		}
		return
	}
	mean := "—"
	if pages > 0 {
		mean = harness.Num(float64(pageBytes)/float64(pages)/1e3) + " kB"
	}
	t.Rows = append(t.Rows, []string{num(n), profile, num(files), num(dirs), harness.MB(size), num(pages), mean})
	if n == reference {
		st.size.Value, st.size.Have, st.size.Why = float64(size)/1e6, true, ""
		st.count.Value, st.count.Have, st.count.Why = float64(files+dirs), true, ""
	}
}
