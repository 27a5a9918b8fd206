package emit

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/udtc/udtc/generator/diag"
)

func TestCollectGathersEveryUnitSorted(t *testing.T) {
	files, _, err := Collect(func(put Put) (diag.List, error) {
		return nil, Each(50, func(i int) ([]File, error) {
			return []File{{Path: fmt.Sprintf("u%02d/b", i)}, {Path: fmt.Sprintf("u%02d/a", i)}}, nil
		}, put)
	})
	if err != nil {
		t.Fatal(err)
	}
	var want []File
	for i := range 50 {
		want = append(want, File{Path: fmt.Sprintf("u%02d/a", i)}, File{Path: fmt.Sprintf("u%02d/b", i)})
	}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("Collect (-want +got):\n%s", diff)
	}
}

// The error of the lowest failing unit is returned, as a loop would meet
// it; a failing put is returned too.
func TestEachReturnsTheFirstErrorInUnitOrder(t *testing.T) {
	err := Each(1000, func(i int) ([]File, error) {
		if i == 3 || i == 5 {
			return nil, fmt.Errorf("unit %d failed", i)
		}
		return nil, nil
	}, func([]File) error { return nil })
	if err == nil || err.Error() != "unit 3 failed" {
		t.Errorf("Each = %v, want unit 3's error", err)
	}

	full := errors.New("disk full")
	if err := Each(10, func(int) ([]File, error) { return []File{{Path: "x"}}, nil }, func([]File) error { return full }); !errors.Is(err, full) {
		t.Errorf("Each with a failing put = %v, want %v", err, full)
	}
}
