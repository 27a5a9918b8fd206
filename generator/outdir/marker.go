package outdir

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/udtc/udtc/generator/emit"
)

// genMarker is DIR/.udtc-generated: what `udtc gen` wrote into DIR, one
// line per file with the target that produced it, its size and the SHA-256
// of its contents. It holds nothing machine-local, so generating the same
// inputs anywhere gives a byte-identical DIR (a committed output directory
// does not churn). The file list lets a later run of a target remove that
// target's outputs of types that are gone, and only that target's.
type genMarker struct {
	files []markerEntry // sorted by path
}

type markerEntry struct {
	target string // "" for entries written by udtc before targets were recorded
	path   string
	size   int64
	sum    string // hex SHA-256 of the contents
}

const markerHeader = "# udtc gen output: do not edit. target, path, size, sha256 of each file udtc gen wrote here.\n"

// readMarker reads dir's marker; a missing or foreign file gives an empty
// one. Lines of the older formats (a bare path; path, size and mtime) are
// read as entries of no known target.
func readMarker(dir string) genMarker {
	b, _ := os.ReadFile(filepath.Join(dir, emit.OutputMarker))
	return parseMarker(b)
}

// parseMarker parses the content b of a marker (see readMarker).
func parseMarker(b []byte) genMarker {
	var m genMarker
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		var e markerEntry
		switch len(fields) {
		case 4:
			e.target, e.path, e.sum = fields[0], fields[1], fields[3]
			e.size, _ = strconv.ParseInt(fields[2], 10, 64)
		default:
			e.path = fields[0]
		}
		if e.path != "" && !strings.Contains(e.path, "..") && !filepath.IsAbs(e.path) {
			m.files = append(m.files, e)
		}
	}
	return m
}

// encode renders the marker deterministically.
func (m genMarker) encode() []byte {
	var b bytes.Buffer
	b.WriteString(markerHeader)
	for _, e := range m.files {
		fmt.Fprintf(&b, "%s\t%s\t%d\t%s\n", e.target, e.path, e.size, e.sum)
	}
	return b.Bytes()
}

func newMarkerEntry(target string, f emit.File) markerEntry {
	sum := sha256.Sum256(f.Data)
	return markerEntry{target: target, path: f.Path, size: int64(len(f.Data)), sum: hex.EncodeToString(sum[:])}
}

func sortEntries(es []markerEntry) {
	slices.SortFunc(es, func(a, b markerEntry) int { return cmp.Compare(a.path, b.path) })
}
