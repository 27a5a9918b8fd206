package generator

import (
	"context"
	"errors"
	"fmt"

	"github.com/udtc/udtc/generator/diag"
	"github.com/udtc/udtc/generator/emit"
	"github.com/udtc/udtc/generator/model"
)

// Target is one output of a gen run: a name (its files are recorded under
// it) and the emitter, which hands its files to put in batches as it makes
// them (a namespace, a package, a type's pages), so no target's output is
// held whole.
type Target struct {
	Name string
	Emit func(cat *model.Catalog, put emit.Put) (diag.List, error)
}

// EmitTargets runs targets one after another and hands their files to
// stage in the batches the emitters make them, so no target's files wait
// in memory for the rest of it or for the others. The emitters each use
// every core themselves; run one at a time, the peak memory is that of the
// largest batch rather than of all targets at once. Diagnostics are merged
// deterministically; an emitter's error names its target. Once ctx is
// done no batch is staged, and the error says so once.
func EmitTargets(ctx context.Context, cat *model.Catalog, targets []Target, stage func(target string, files []emit.File) error) (diag.List, error) {
	var ds diag.List
	var errs []error
	for i, t := range targets {
		if err := ctx.Err(); err != nil {
			break
		}
		c := cat
		if i == len(targets)-1 {
			// Nothing here holds the model while the last emitter runs, so
			// one that keeps a view of its own (the site) lets it go.
			cat = nil
		}
		put := func(files []emit.File) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			return stage(t.Name, files)
		}
		diags, err := t.Emit(c, put)
		ds = append(ds, diags...)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", t.Name, err))
		}
	}
	if err := ctx.Err(); err != nil {
		return ds.Sorted(), fmt.Errorf("interrupted: %w", err)
	}
	return ds.Sorted(), errors.Join(errs...)
}
