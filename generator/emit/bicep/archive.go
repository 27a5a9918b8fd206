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
// --target <name>.tgz` writes: a gzipped tar with one entry, types.tgz
// (TypesArchive). Entries are regular files with bare names, in sorted
// order, with fixed metadata.
func Archive(indexJSON, typesJSON []byte) ([]byte, error) {
	types, err := TypesArchive(indexJSON, typesJSON)
	if err != nil {
		return nil, err
	}
	return packageArchive(types)
}

// TypesArchive returns types.tgz, the types archive of an extension: a
// gzipped tar of index.json and types.json. It is the one entry of the
// package Archive writes and, byte for byte, the one layer of the
// extension's registry artifact (`udtc publish-extension`).
func TypesArchive(indexJSON, typesJSON []byte) ([]byte, error) {
	return tgz(gzip.DefaultCompression, []entry{{"index.json", indexJSON}, {"types.json", typesJSON}})
}

// packageArchive wraps a types archive into the extension package.
func packageArchive(types []byte) ([]byte, error) {
	// types.tgz is compressed already: store it.
	return tgz(gzip.NoCompression, []entry{{typesEntry, types}})
}

// typesEntry is the name of the types archive in an extension package.
const typesEntry = "types.tgz"

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
