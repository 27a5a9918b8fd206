package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

var bicepRef = regexp.MustCompile(`"\$ref":\s*"#/(\d+)"`)

// bicepTypes is what the types.json files of an output directory weigh.
type bicepTypes struct {
	files int
	// written is the size on disk; compact the same JSON without
	// whitespace; naive the compact size without type de-duplication:
	// every resource type's body with everything it reaches inlined, each
	// reference expanded anew.
	written, compact, naive int64
}

// bicepSizes measures the types.json files under dir.
func bicepSizes(dir string) (bicepTypes, error) {
	var r bicepTypes
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "types.json" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, data); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		n, err := naiveTypesSize(buf.Bytes())
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		r.files++
		r.written += int64(len(data))
		r.compact += int64(buf.Len())
		r.naive += n
		return nil
	})
	return r, err
}

// naiveTypesSize computes the inlined size of one compact types.json.
func naiveTypesSize(data []byte) (int64, error) {
	var types []json.RawMessage
	if err := json.Unmarshal(data, &types); err != nil {
		return 0, err
	}
	own := make([]int64, len(types))
	refs := make([][]int, len(types))
	resource := make([]bool, len(types))
	for i, t := range types {
		var head struct {
			Type string `json:"$type"`
		}
		if err := json.Unmarshal(t, &head); err != nil {
			return 0, fmt.Errorf("type %d: %w", i, err)
		}
		resource[i] = head.Type == "ResourceType"
		own[i] = int64(len(t))
		for _, m := range bicepRef.FindAllSubmatch(t, -1) {
			j, err := strconv.Atoi(string(m[1]))
			if err != nil || j < 0 || j >= len(types) {
				return 0, fmt.Errorf("type %d: bad reference %s", i, m[0])
			}
			refs[i] = append(refs[i], j)
		}
	}
	memo := make([]int64, len(types))
	state := make([]byte, len(types)) // 0 new, 1 in progress, 2 done
	var full func(i int) (int64, error)
	full = func(i int) (int64, error) {
		switch state[i] {
		case 1:
			return 0, fmt.Errorf("type %d refers to itself", i)
		case 2:
			return memo[i], nil
		}
		state[i] = 1
		n := own[i]
		for _, j := range refs[i] {
			m, err := full(j)
			if err != nil {
				return 0, err
			}
			n += m
		}
		memo[i], state[i] = n, 2
		return n, nil
	}
	var total int64
	for i := range types {
		if resource[i] {
			n, err := full(i)
			if err != nil {
				return 0, err
			}
			total += n
		}
	}
	return total, nil
}
