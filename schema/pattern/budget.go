package pattern

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/dlclark/regexp2"
	lru "github.com/hashicorp/golang-lru/v2"
)

// DefaultBudget is the work one request's matches may do together, in
// steps (Cost): admission of one resource document, the check of one
// schema's defaults, one manifest file in `udtc check`. On RE2 it is
// at worst some 0.7 s of one idle core (a step takes about 7 ns).
const DefaultBudget Steps = 100_000_000

// Backstop is the wall-clock time one request's matches on the
// backtracking engine may take together, whatever their steps: a
// backtracking match can take longer than its steps say (Cost), and this
// bounds it. It is the only limit that depends on the machine, and only
// patterns that need the backtracking engine meet it (`udtc check` warns
// about those, pattern-backtracking).
const Backstop = time.Second

// Steps is an amount of matching work (Cost).
type Steps int64

// String writes n with thousands separators and its unit: "100,000,000
// steps".
func (n Steps) String() string { return Thousands(int64(n)) + " steps" }

// Thousands writes n with commas between groups of three digits.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// ErrBudget is what a match refused for its request's budget is (errors.Is
// of a *BudgetError): the value is treated as not matching.
var ErrBudget = errors.New("pattern match over the request's budget")

// BudgetError is a match refused for its request's budget, before it ran
// (its steps are more than are left), or on the backtracking engine past
// the time backstop.
type BudgetError struct {
	Steps Steps // what the match costs
	Left  Steps // what was left of the budget before it
	Limit Steps // the request's whole budget
	// Backstop is set when the backtracking engine ran past the request's
	// time backstop (Backstop); the steps were within the budget.
	Backstop bool
}

func (e *BudgetError) Error() string {
	if e.Backstop {
		return fmt.Sprintf("the pattern needs the backtracking engine, which ran past the request's time backstop of %s", Backstop)
	}
	if e.Left == e.Limit {
		return fmt.Sprintf("matching it costs %s, over the budget of %s per request", e.Steps, e.Limit)
	}
	return fmt.Sprintf("matching it costs %s, and only %s of the budget of %s per request are left", e.Steps, Thousands(int64(e.Left)), e.Limit)
}

// Is makes errors.Is(err, ErrBudget) hold.
func (e *BudgetError) Is(target error) bool { return target == ErrBudget }

// Match reports whether s contains a match of p. It first charges b the
// match's steps (Steps): when they are more than b has left, it returns a
// *BudgetError (ErrBudget) without running, and b keeps what it had. A
// match on the backtracking engine also spends b's backstop time, and
// returns a *BudgetError when that runs out. A nil b allows DefaultBudget
// for this match alone.
func (p *Pattern) Match(b *Budget, s string) (bool, error) {
	if b == nil {
		b = NewBudget(DefaultBudget)
	}
	steps := p.Steps(s)
	if steps > b.left {
		return false, &BudgetError{Steps: Steps(steps), Left: Steps(b.left), Limit: b.limit}
	}
	b.left -= steps
	var key [sha256.Size]byte
	cached := b.verdicts != nil && p.cost.PerChar >= minCachedPerChar && steps >= minCachedSteps
	if cached {
		key = verdictKey(p, s)
		if ok, found := b.verdicts.cache.Get(key); found {
			b.verdicts.hits.Add(1)
			return ok, nil
		}
	}
	var ok bool
	if p.re2 != nil {
		ok = p.re2.MatchString(s)
	} else {
		var err error
		if ok, err = b.backtrack(p, s); err != nil {
			return false, err
		}
	}
	if cached {
		b.verdicts.cache.Add(key, ok)
	}
	return ok, nil
}

// Budget is the work one request's matches may do, across all its
// patterns and values, in steps (Cost), and the time its backtracking
// matches may take (Backstop). It is not safe for concurrent use: each
// request makes its own.
type Budget struct {
	limit Steps
	left  int64
	// backstop is the time left for the backtracking engine.
	backstop time.Duration
	// own holds this budget's copy of each backtracking pattern: regexp2
	// keeps its timeout in the compiled expression, so a copy per request
	// can be given what is left of the backstop without racing other
	// requests.
	own      map[*Pattern]*regexp2.Regexp
	verdicts *Verdicts
}

// NewBudget returns a budget of n steps and a backstop of Backstop.
func NewBudget(n Steps) *Budget { return &Budget{limit: n, left: int64(n), backstop: Backstop} }

// Left returns the steps left.
func (b *Budget) Left() Steps { return Steps(max(b.left, 0)) }

// Limit returns the steps the budget started with.
func (b *Budget) Limit() Steps { return b.limit }

// WithVerdicts makes b's matches keep their answers in v and take them from
// there: a match answered from v is still charged its steps, so what b
// refuses does not depend on what v holds. It returns b.
func (b *Budget) WithVerdicts(v *Verdicts) *Budget {
	b.verdicts = v
	return b
}

// WithBackstop sets the time b's backtracking matches may take together
// (Backstop by default). It returns b.
func (b *Budget) WithBackstop(d time.Duration) *Budget {
	b.backstop = d
	return b
}

func (b *Budget) backtrack(p *Pattern, s string) (bool, error) {
	refused := &BudgetError{Limit: b.limit, Left: Steps(b.left), Backstop: true}
	if b.backstop <= 0 {
		return false, refused
	}
	re := b.own[p]
	if re == nil {
		// It compiled in Compile; the same source compiles again.
		re = regexp2.MustCompile(p.ecma.String(), regexp2.ECMAScript)
		if b.own == nil {
			b.own = map[*Pattern]*regexp2.Regexp{}
		}
		b.own[p] = re
	}
	re.MatchTimeout = b.backstop
	start := time.Now()
	ok, err := re.MatchString(s)
	b.backstop -= time.Since(start)
	if err != nil {
		b.backstop = 0
		return false, refused
	}
	return ok, nil
}

// Verdicts keeps the answer of a match of at least minCachedSteps by a
// pattern of at least minCachedPerChar steps per character: hashing a
// value costs about as much as a few steps per character, so cheaper
// matches are run again.
const (
	minCachedSteps   = 1 << 12
	minCachedPerChar = 32
)

// Verdicts keeps the answers of costly matches (pattern and value, by
// their SHA-256), so that a server that checks the same schema again (the
// catalog's pages) does not match its defaults again. It keeps at most a
// fixed number of answers, the most recently used, and is safe for
// concurrent use.
type Verdicts struct {
	cache *lru.Cache[[sha256.Size]byte, bool]
	hits  atomic.Int64
}

// Hits returns how many matches v answered.
func (v *Verdicts) Hits() int64 { return v.hits.Load() }

// NewVerdicts returns a cache of at most n answers.
func NewVerdicts(n int) *Verdicts {
	c, err := lru.New[[sha256.Size]byte, bool](max(n, 1))
	if err != nil { // not reachable: the size is positive
		panic(err)
	}
	return &Verdicts{cache: c}
}

func verdictKey(p *Pattern, s string) [sha256.Size]byte {
	h := sha256.New()
	fmt.Fprintf(h, "%d:%s", len(p.source), p.source)
	h.Write([]byte(s))
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}
