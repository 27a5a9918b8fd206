package catalog

import (
	"encoding/json"
	"errors"
	"testing"
)

// CachedCompare keeps at most size pairs, dropping the least recently
// used, keeps errors too, and tells pairs apart by both schemas.
func TestCachedCompareBounded(t *testing.T) {
	calls := map[string]int{}
	f := func(a, b json.RawMessage) ([]Change, error) {
		calls[string(a)+"→"+string(b)]++
		if string(a) == "bad" {
			return nil, errors.New("does not check")
		}
		return []Change{{Rule: "r", Path: string(a) + string(b)}}, nil
	}
	c := CachedCompare(f, 2)
	get := func(a, b string) ([]Change, error) { return c(json.RawMessage(a), json.RawMessage(b)) }
	get("1", "2")
	get("1", "2")
	if ch, _ := get("1", "2"); calls["1→2"] != 1 || len(ch) != 1 || ch[0].Path != "12" {
		t.Fatalf("a repeated pair was compared %d times (%v)", calls["1→2"], ch)
	}
	get("12", "") // same bytes run together, another pair
	if calls["12→"] != 1 {
		t.Fatal("pairs with the same concatenation share an answer")
	}
	if _, err := get("bad", "x"); err == nil {
		t.Fatal("the error was lost")
	}
	if _, err := get("bad", "x"); err == nil || calls["bad→x"] != 1 {
		t.Fatalf("a failing pair: %d comparisons, err %v", calls["bad→x"], err)
	}
	get("1", "2") // evicted by the two later pairs
	if calls["1→2"] != 2 {
		t.Fatalf("the cache holds more than 2 pairs: 1→2 compared %d times", calls["1→2"])
	}
	if CachedCompare(nil, 2) != nil {
		t.Fatal("a nil CompareFunc became a cached one")
	}
}
