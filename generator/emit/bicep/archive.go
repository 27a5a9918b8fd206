package bicep

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"time"
)

// archiveTime is the modification time of every archive entry, so that
// identical input gives byte-identical archives.
var archiveTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Archive returns the extension package `bicep publish-extension index.json
// --target <name>.tgz` writes: a gzipped tar with one entry, types.tgz,
// itself a gzipped tar of index.json and types.json. Entries are regular
// files with bare names, in sorted order, with fixed metadata.
func Archive(indexJSON, typesJSON []byte) ([]byte, error) {
	inner, err := tgz(gzip.DefaultCompression, []entry{{"index.json", indexJSON}, {"types.json", typesJSON}})
	if err != nil {
		return nil, err
	}
	// types.tgz is compressed already: store it.
	return tgz(gzip.NoCompression, []entry{{"types.tgz", inner}})
}

type entry struct {
	name string
	data []byte
}

// tgz writes entries (already sorted by name) as a gzipped ustar archive
// at a compression level.
func tgz(level int, entries []entry) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, level)
	if err != nil {
		return nil, err
	}
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		hdr := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     e.name,
			Size:     int64(len(e.data)),
			Mode:     0o644,
			ModTime:  archiveTime,
			Format:   tar.FormatUSTAR,
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, fmt.Errorf("archive entry %s: %w", e.name, err)
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, fmt.Errorf("archive entry %s: %w", e.name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
