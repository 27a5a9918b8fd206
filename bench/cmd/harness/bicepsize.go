package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

var bicepRef = regexp.MustCompile(`"\$ref":\s*"#/(\d+)"`)

// bicepSizes sums the types.json files under dir and what they would weigh
// without type de-duplication: every resource type's body inlined with all
// the types it reaches, each reference expanded anew (compact JSON).
func bicepSizes(dir string) (actual, naive int64, files int, err error) {
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "types.json" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n, err := naiveTypesSize(data)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		files++
		actual += int64(len(data))
		naive += n
		return nil
	})
	return actual, naive, files, err
}

// naiveTypesSize computes the inlined size of one types.json.
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
