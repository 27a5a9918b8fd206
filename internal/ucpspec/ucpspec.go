// Package ucpspec is test support: it checks HTTP exchanges against
// Radius's published OpenAPI description of UCP's API
// (../shared/specs/ucp-2023-10-01-preview/openapi.json beside the
// repository, with its examples), converted to OpenAPI 3 with kin-openapi.
// Tests of the server, the client and publish use it; no program does.
//
// The description refers to ARM's common types
// (common-types/resource-management/v3/types.json), which is not in the
// shared folder: a minimal stand-in of the definitions and parameter it
// uses (commontypes.go) is merged into it before conversion.
package ucpspec

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/udtc/udtc/registry/api"
)

// Dir is the folder of the description, relative to the repository root.
const Dir = "../shared/specs/ucp-2023-10-01-preview"

// server is the server the converted description is given: requests are
// routed as if sent to it, whatever their host.
const server = "http://ucp.test" + api.BasePath

// commonTypesRef is how the description refers to ARM's common types.
const commonTypesRef = "../../../../../common-types/resource-management/v3/types.json#"

// Op is an operation of the description: a method and a path template.
type Op struct{ Method, Path string }

func (o Op) String() string { return o.Method + " " + o.Path }

// Spec is the converted description, with a router over its paths. Its
// methods are safe for concurrent use.
type Spec struct {
	Doc    *openapi3.T
	dir    string
	router routers.Router

	mu      sync.Mutex
	covered map[Op]bool
}

// Load reads the description beside the repository (Dir) and converts
// it; it skips the test with a message when the folder is absent.
func Load(t testing.TB) *Spec {
	t.Helper()
	dir, ok := find()
	if !ok {
		t.Skipf("%s is absent: the checks against Radius's description of UCP's API are skipped", Dir)
	}
	s, err := load(dir)
	if err != nil {
		t.Fatalf("loading %s: %v", dir, err)
	}
	return s
}

// find returns the description's folder: Dir from the repository root
// (the directory of go.mod above the working directory).
func find() (string, bool) {
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			dir := filepath.Join(d, filepath.FromSlash(Dir))
			_, err := os.Stat(filepath.Join(dir, "openapi.json"))
			return dir, err == nil
		}
		if filepath.Dir(d) == d {
			return "", false
		}
	}
}

func load(dir string) (*Spec, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "openapi.json"))
	if err != nil {
		return nil, err
	}
	// The common types become definitions of the document itself.
	raw = bytes.ReplaceAll(raw, []byte(commonTypesRef), []byte("#"))
	var doc2 openapi2.T
	if err := json.Unmarshal(raw, &doc2); err != nil {
		return nil, err
	}
	var common openapi2.T
	if err := json.Unmarshal(commonTypes, &common); err != nil {
		return nil, fmt.Errorf("the common types stand-in: %w", err)
	}
	for name, d := range common.Definitions {
		if _, dup := doc2.Definitions[name]; dup {
			return nil, fmt.Errorf("the description defines %s itself", name)
		}
		doc2.Definitions[name] = d
	}
	if doc2.Parameters == nil {
		doc2.Parameters = map[string]*openapi2.Parameter{}
	}
	for name, p := range common.Parameters {
		doc2.Parameters[name] = p
	}
	doc, err := openapi2conv.ToV3(&doc2)
	if err != nil {
		return nil, fmt.Errorf("converting to OpenAPI 3: %w", err)
	}
	doc.Servers = openapi3.Servers{{URL: server}}
	router, err := legacy.NewRouter(doc) // validates doc
	if err != nil {
		return nil, err
	}
	return &Spec{Doc: doc, dir: dir, router: router, covered: map[Op]bool{}}, nil
}

// Operations returns every operation whose path starts with prefix,
// sorted.
func (s *Spec) Operations(prefix string) []Op {
	var out []Op
	for path, item := range s.Doc.Paths.Map() {
		if !strings.HasPrefix(path, prefix) {
			continue
		}
		for method := range item.Operations() {
			out = append(out, Op{method, path})
		}
	}
	slices.SortFunc(out, func(a, b Op) int { return strings.Compare(a.String(), b.String()) })
	return out
}

// Covered returns the operations of the exchanges Check found valid.
func (s *Spec) Covered() map[Op]bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[Op]bool, len(s.covered))
	for k, v := range s.covered {
		out[k] = v
	}
	return out
}

// Exchange is a request and its answer.
type Exchange struct {
	Request     *http.Request // its Body is not read: RequestBody is
	RequestBody []byte
	Status      int
	Header      http.Header
	Body        []byte
	// InvalidRequest marks a request that does not follow the
	// description on purpose (a name it refuses): only the answer is
	// checked.
	InvalidRequest bool
}

// Check validates the exchange: its request (unless InvalidRequest)
// and its answer against the operation the request's path and method
// name, with the request's path taken with or without api.BasePath. The
// answer's status must be one the operation declares (an error status
// answers with the ARM error envelope as application/json); its headers
// and body must follow that response's description. It returns the
// operation and every problem found.
func (s *Spec) Check(ex Exchange) (Op, error) {
	req, err := s.routed(ex)
	if err != nil {
		return Op{}, err
	}
	route, params, err := s.router.FindRoute(req)
	if err != nil {
		return Op{}, fmt.Errorf("%s %s: no operation of the description: %v", ex.Request.Method, ex.Request.URL.Path, err)
	}
	op := Op{req.Method, route.Path}
	ctx := context.Background()
	opts := &openapi3filter.Options{
		AuthenticationFunc:         openapi3filter.NoopAuthenticationFunc,
		ExcludeReadOnlyValidations: true, // rad PUTs back what it read, as UCP allows
		IncludeResponseStatus:      true,
		MultiError:                 true,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{
			openapi3.DisableSchemaErrorDetails(),
			openapi3.WithStringFormatValidator("uri", openapi3.NewCallbackValidator(func(v string) error {
				u, err := url.Parse(v)
				if err == nil && (u.Scheme == "" || u.Host == "") {
					err = errors.New("not an absolute URL")
				}
				return err
			})),
		},
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	var problems []error
	if !ex.InvalidRequest {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			problems = append(problems, fmt.Errorf("request: %v", err))
		}
	}
	problems = append(problems, statusProblem(route.Operation, ex)...)
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: ex.Status, Header: ex.Header, Options: opts}
	out.SetBodyBytes(ex.Body)
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		problems = append(problems, fmt.Errorf("response %d: %v", ex.Status, err))
	}
	if err := errors.Join(problems...); err != nil {
		return op, fmt.Errorf("%s %s (%s): %w", ex.Request.Method, ex.Request.URL.RequestURI(), op, err)
	}
	s.mu.Lock()
	s.covered[op] = true
	s.mu.Unlock()
	return op, nil
}

// routed returns the request of ex as sent to server: routers match the
// server's scheme, host and base path.
func (s *Spec) routed(ex Exchange) (*http.Request, error) {
	path := ex.Request.URL.EscapedPath()
	if rest, ok := strings.CutPrefix(path, api.BasePath); ok && strings.HasPrefix(rest, "/") {
		path = rest
	}
	u, err := url.Parse(server + path)
	if err != nil {
		return nil, err
	}
	u.RawQuery = ex.Request.URL.RawQuery
	req := ex.Request.Clone(context.Background())
	req.URL, req.Host, req.RequestURI = u, u.Host, ""
	req.Body = io.NopCloser(bytes.NewReader(ex.RequestBody))
	req.ContentLength = int64(len(ex.RequestBody))
	if len(ex.RequestBody) > 0 && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// statusProblem holds what kin-openapi does not check of the answer's
// status: an operation's "default" response describes errors, so a
// status below 400 must be one it declares, and an error status must
// answer with the ARM error envelope as application/json.
func statusProblem(op *openapi3.Operation, ex Exchange) []error {
	if ex.Status < 400 {
		if op.Responses.Value(strconv.Itoa(ex.Status)) == nil {
			return []error{fmt.Errorf("status %d is not declared (declared: %v)", ex.Status, slices.Sorted(func(yield func(string) bool) {
				for k := range op.Responses.Map() {
					if !yield(k) {
						return
					}
				}
			}))}
		}
		return nil
	}
	if ct := ex.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return []error{fmt.Errorf("error %d has content type %q, not application/json", ex.Status, ct)}
	}
	var env api.ErrorResponse
	if err := json.Unmarshal(ex.Body, &env); err != nil || env.Error.Code == "" || env.Error.Message == "" {
		return []error{fmt.Errorf("error %d is not the ARM error envelope with a code and a message: %s", ex.Status, ex.Body)}
	}
	return nil
}
