package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// genManifest is DIR/.udtc-generated: what the last `udtc gen` wrote, and a
// fingerprint of what it was generated from. The file list lets a later run
// remove outputs of types that are gone; the fingerprint and each file's
// size and modification time let a run over unchanged inputs skip compiling
// and emitting altogether.
type genManifest struct {
	key   string
	files []genEntry
}

type genEntry struct {
	path  string
	size  int64
	mtime int64 // UnixNano
}

const genManifestHeader = "# udtc gen output: do not edit. inputs "

// readGenManifest reads dir's manifest; a missing or foreign file gives an
// empty one. Lines of the first format (a bare path) are accepted.
func readGenManifest(dir string) genManifest {
	var m genManifest
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return m
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if key, ok := strings.CutPrefix(line, genManifestHeader); ok {
			m.key = key
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		e := genEntry{path: fields[0], size: -1}
		if len(fields) == 3 {
			e.size, _ = strconv.ParseInt(fields[1], 10, 64)
			e.mtime, _ = strconv.ParseInt(fields[2], 10, 64)
		}
		if e.path != "" && !strings.Contains(e.path, "..") && !filepath.IsAbs(e.path) {
			m.files = append(m.files, e)
		}
	}
	return m
}

// fresh reports whether every listed file is still as the last run left it
// (same size and modification time).
func (m genManifest) fresh(dir string) bool {
	if m.key == "" || len(m.files) == 0 {
		return false
	}
	for _, e := range m.files {
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(e.path)))
		if err != nil || st.Size() != e.size || st.ModTime().UnixNano() != e.mtime {
			return false
		}
	}
	return true
}

// write records the files as they are now on disk under key.
func writeGenManifest(dir, key string, paths []string) error {
	var b bytes.Buffer
	b.WriteString(genManifestHeader + key + "\n")
	for _, p := range paths {
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s\t%d\t%d\n", p, st.Size(), st.ModTime().UnixNano())
	}
	old, _ := os.ReadFile(filepath.Join(dir, manifestName))
	if bytes.Equal(old, b.Bytes()) {
		return nil
	}
	return writeAtomic(filepath.Join(dir, manifestName), b.Bytes())
}

// inputKey fingerprints a gen run: the udtc binary (size and modification
// time, so an upgrade regenerates), every option that shapes the output,
// and each input file's path and contents.
func inputKey(files []string, options ...string) (string, error) {
	h := sha256.New()
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			fmt.Fprintf(h, "exe %s %d %d\n", exe, st.Size(), st.ModTime().UnixNano())
		}
	}
	for _, o := range options {
		fmt.Fprintf(h, "opt %q\n", o)
	}
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "file %q\n", p)
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
