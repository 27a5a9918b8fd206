package api

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// TargetRoot is the target of a resource's properties document: the
// targets of admission's violations start with it.
const TargetRoot = "properties"

// ParseTarget is the inverse of registry/admission.Target: it returns the
// keys (string) and array indexes (int) of a target path that admission
// writes in its violations ("properties.a[3].b", `properties.m["x.y"]`),
// or an error naming the first character it cannot read. It is here, with
// the wire types, so that clients of the registry read the targets too.
func ParseTarget(target string) ([]any, error) {
	rest, ok := strings.CutPrefix(target, TargetRoot)
	if !ok {
		return nil, fmt.Errorf("target %q does not start with %q", target, TargetRoot)
	}
	var segs []any
	for rest != "" {
		switch rest[0] {
		case '.':
			i := 1
			for i < len(rest) && rest[i] != '.' && rest[i] != '[' {
				i++
			}
			if i == 1 {
				return nil, fmt.Errorf("target %q: empty key", target)
			}
			segs, rest = append(segs, rest[1:i]), rest[i:]
		case '[':
			end := strings.IndexByte(rest, ']')
			if len(rest) > 1 && rest[1] == '"' {
				dec := json.NewDecoder(strings.NewReader(rest[1:]))
				var key string
				if err := dec.Decode(&key); err != nil {
					return nil, fmt.Errorf("target %q: %w", target, err)
				}
				end = 1 + int(dec.InputOffset())
				if end >= len(rest) || rest[end] != ']' {
					return nil, fmt.Errorf("target %q: unterminated key", target)
				}
				segs, rest = append(segs, key), rest[end+1:]
				continue
			}
			if end < 0 {
				return nil, fmt.Errorf("target %q: unterminated index", target)
			}
			n, err := strconv.Atoi(rest[1:end])
			if err != nil || n < 0 {
				return nil, fmt.Errorf("target %q: bad index %q", target, rest[1:end])
			}
			segs, rest = append(segs, n), rest[end+1:]
		default:
			return nil, fmt.Errorf("target %q: unexpected %q", target, rest[:1])
		}
	}
	return segs, nil
}
