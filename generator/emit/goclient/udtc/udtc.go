// Package udtc is the runtime of the Go client that udtc gen writes. With
// --go-runtime copy (the default) the emitter copies this file once into
// every output, as go/internal/udtc/udtc_gen.go, and the generated packages
// import it from there; with --go-runtime module they import this package.
// The version packages export aliases of what users need. It is compiled,
// vetted and tested here like any other package, and imports only the
// standard library.
//
// Everything before the package clause is dropped when the file is copied.
package udtc

import (
	"bytes"
	"context"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log"
	"math/big"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// ValidationError is one violation found by Validate. Validate returns all
// of them joined with errors.Join; use errors.As for the first, or the
// Unwrap() []error method of the joined error for all.
type ValidationError struct {
	// Path is the JSON path of the offending value.
	Path string
	// Message says what is wrong, e.g. "is required".
	Message string
}

// Error returns "path: message".
func (e *ValidationError) Error() string {
	if e.Path == "" {
		return e.Message
	}
	return e.Path + ": " + e.Message
}

// ValidateResource checks a resource envelope r (a pointer to a generated
// struct): its type, when set, must be fullType (compared
// case-insensitively), and every field, at every depth, must satisfy the
// keywords of its udtc struct tag. It returns every violation (joined with
// errors.Join), each a *ValidationError naming its JSON path; nil when r is
// valid.
//
// A udtc tag lists JSON Schema keywords separated by commas: required,
// minimum=N, maximum=N, exclusiveMinimum=N, exclusiveMaximum=N,
// multipleOf=N, minLength=N, maxLength=N, minItems=N, maxItems=N,
// uniqueItems, minProperties=N, maxProperties=N, enum=[V,...] (a JSON
// array of the allowed values) and pattern=RE, which comes last and runs
// to the end of the tag. "items" and "values" start the keywords of an
// array's items and a map's values.
// Struct values are checked through their own fields' tags; values that
// unmarshal from text (resource IDs, times) were checked when parsed.
func ValidateResource(r any, typ *string, fullType string) error {
	v := &validator{}
	if typ != nil && !strings.EqualFold(*typ, fullType) {
		v.add("type", "must be "+strconv.Quote(fullType))
	}
	v.structFields("", reflect.ValueOf(r).Elem())
	return errors.Join(v.errs...)
}

// validator collects violations.
type validator struct{ errs []error }

func (v *validator) add(path, msg string) {
	v.errs = append(v.errs, &ValidationError{Path: path, Message: msg})
}

// rules are the parsed keywords of one level of a udtc tag.
type rules struct {
	required           bool
	minimum, maximum   string // "" when absent
	exclusiveMin       bool
	exclusiveMax       bool
	multipleOf         string
	minLength, maxLen  int // -1 when absent
	minItems, maxItems int
	minProps, maxProps int
	unique             bool
	enum               []json.RawMessage
	enumStrings        map[string]bool // enum's strings, decoded
	enumMessage        string          // the violation of enum
	pattern            *regexp.Regexp
	elem               *rules // items or values
}

// field is one struct field with a JSON name.
type field struct {
	index int
	name  string
	rules *rules
}

var (
	fieldCache sync.Map // reflect.Type → []field
	textType   = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// fields returns the JSON fields of struct type t with their parsed rules.
func fields(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	var fs []field
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "" || name == "-" {
			continue
		}
		fs = append(fs, field{index: i, name: name, rules: parseRules(sf.Tag.Get("udtc"))})
	}
	fieldCache.Store(t, fs)
	return fs
}

// parseRules parses a udtc tag; a malformed keyword panics, as the tags
// are generated.
func parseRules(tag string) *rules {
	top := newRules()
	r := top
	for tag != "" {
		var kw string
		switch {
		case strings.HasPrefix(tag, "pattern="):
			kw, tag = tag, ""
		case strings.HasPrefix(tag, "enum=["):
			d := json.NewDecoder(strings.NewReader(tag[len("enum="):]))
			if err := d.Decode(&r.enum); err != nil {
				panic("udtc: malformed enum in a udtc struct tag: " + err.Error())
			}
			vals := make([]string, len(r.enum))
			r.enumStrings = map[string]bool{}
			for i, e := range r.enum {
				vals[i] = string(e)
				var s string
				if json.Unmarshal(e, &s) == nil {
					r.enumStrings[s] = true
				}
			}
			r.enumMessage = "must be one of " + strings.Join(vals, ", ")
			n := len("enum=") + int(d.InputOffset())
			kw, tag = "enum", strings.TrimPrefix(tag[n:], ",")
		default:
			kw, tag, _ = strings.Cut(tag, ",")
		}
		key, val, _ := strings.Cut(kw, "=")
		n, _ := strconv.Atoi(val)
		switch key {
		case "required":
			r.required = true
		case "minimum", "exclusiveMinimum":
			r.minimum, r.exclusiveMin = val, key == "exclusiveMinimum"
		case "maximum", "exclusiveMaximum":
			r.maximum, r.exclusiveMax = val, key == "exclusiveMaximum"
		case "multipleOf":
			r.multipleOf = val
		case "minLength":
			r.minLength = n
		case "maxLength":
			r.maxLen = n
		case "minItems":
			r.minItems = n
		case "maxItems":
			r.maxItems = n
		case "minProperties":
			r.minProps = n
		case "maxProperties":
			r.maxProps = n
		case "uniqueItems":
			r.unique = true
		case "enum": // read above
		case "pattern":
			r.pattern = regexp.MustCompile(val)
		case "items", "values":
			r.elem = newRules()
			r = r.elem
		default:
			panic("udtc: unknown keyword " + strconv.Quote(key) + " in a udtc struct tag")
		}
	}
	return top
}

func newRules() *rules {
	return &rules{minLength: -1, maxLen: -1, minItems: -1, maxItems: -1, minProps: -1, maxProps: -1}
}

var noRules = newRules()

// structFields checks the fields of struct value s at path.
func (v *validator) structFields(path string, s reflect.Value) {
	for _, f := range fields(s.Type()) {
		fv := s.Field(f.index)
		p := join(path, f.name)
		switch fv.Kind() {
		case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
			if fv.IsNil() {
				if f.rules.required {
					v.add(p, "is required")
				}
				continue
			}
		}
		v.value(p, fv, f.rules)
	}
}

// value checks x, a present value, at path against r.
func (v *validator) value(path string, x reflect.Value, r *rules) {
	if r == nil {
		r = noRules
	}
	if x.Kind() == reflect.Pointer {
		x = x.Elem()
	}
	if len(r.enum) > 0 && !r.inEnum(x) {
		v.add(path, r.enumMessage)
	}
	switch x.Kind() {
	case reflect.String:
		v.str(path, x.String(), r)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Float32, reflect.Float64:
		v.number(path, x, r)
	case reflect.Struct:
		if !reflect.PointerTo(x.Type()).Implements(textType) {
			v.structFields(path, x)
		}
	case reflect.Map:
		v.count(path, x.Len(), r.minProps, r.maxProps, "entries")
		keys := x.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			v.value(key(path, k.String()), x.MapIndex(k), r.elem)
		}
	case reflect.Slice:
		v.count(path, x.Len(), r.minItems, r.maxItems, "items")
		if r.unique && !uniqueJSON(x) {
			v.add(path, "must not contain duplicate items")
		}
		for i := range x.Len() {
			v.value(index(path, i), x.Index(i), r.elem)
		}
	}
}

// str checks a string's length in characters (Unicode code points, as JSON
// Schema counts them) and its pattern.
func (v *validator) str(path, s string, r *rules) {
	if r.minLength >= 0 || r.maxLen >= 0 {
		n := utf8.RuneCountInString(s)
		if r.minLength >= 0 && n < r.minLength {
			v.add(path, "must be at least "+strconv.Itoa(r.minLength)+" characters long")
		}
		if r.maxLen >= 0 && n > r.maxLen {
			v.add(path, "must be at most "+strconv.Itoa(r.maxLen)+" characters long")
		}
	}
	if r.pattern != nil && !r.pattern.MatchString(s) {
		v.add(path, "must match the pattern "+r.pattern.String())
	}
}

// number checks bounds and multipleOf. Integers are compared exactly with
// integer bounds, as floats otherwise.
func (v *validator) number(path string, x reflect.Value, r *rules) {
	if r.minimum != "" {
		c := compare(x, r.minimum)
		if c < 0 || c == 0 && r.exclusiveMin {
			v.add(path, bound(">", r.exclusiveMin, r.minimum))
		}
	}
	if r.maximum != "" {
		c := compare(x, r.maximum)
		if c > 0 || c == 0 && r.exclusiveMax {
			v.add(path, bound("<", r.exclusiveMax, r.maximum))
		}
	}
	if r.multipleOf != "" && !multipleOf(x, r.multipleOf) {
		v.add(path, "must be a multiple of "+r.multipleOf)
	}
}

func bound(op string, exclusive bool, n string) string {
	if !exclusive {
		op += "="
	}
	return "must be " + op + " " + n
}

func (v *validator) count(path string, n, lo, hi int, what string) {
	if lo >= 0 && n < lo {
		v.add(path, fmt.Sprintf("must have at least %d %s", lo, what))
	}
	if hi >= 0 && n > hi {
		v.add(path, fmt.Sprintf("must have at most %d %s", hi, what))
	}
}

// compare compares the number x with the JSON number n: -1, 0 or 1.
func compare(x reflect.Value, n string) int {
	if x.CanInt() {
		if b, err := strconv.ParseInt(n, 10, 64); err == nil {
			return cmpInt(x.Int(), b)
		}
	}
	f, _ := strconv.ParseFloat(n, 64)
	switch a := toFloat(x); {
	case a < f:
		return -1
	case a > f:
		return 1
	}
	return 0
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func toFloat(x reflect.Value) float64 {
	if x.CanInt() {
		return float64(x.Int())
	}
	return x.Float()
}

// multipleOf reports whether x is a multiple of the JSON number m: exactly
// for integers; otherwise some whole multiple of m must lie within
// |x|·2^-51 of x, computed exactly from the float64 values (the registry's
// rule: it absorbs floating-point rounding, and no value passes merely by
// being large).
func multipleOf(x reflect.Value, m string) bool {
	if x.CanInt() {
		if n, err := strconv.ParseInt(m, 10, 64); err == nil && n != 0 {
			return x.Int()%n == 0
		}
	}
	f, err := strconv.ParseFloat(m, 64)
	if err != nil || f <= 0 {
		return false
	}
	ex, em := new(big.Rat).SetFloat64(toFloat(x)), new(big.Rat).SetFloat64(f)
	if ex == nil {
		return false // not finite
	}
	q := new(big.Rat).Quo(ex, em)
	floor := new(big.Int).Div(q.Num(), q.Denom())
	tolerance := new(big.Rat).Mul(new(big.Rat).Abs(ex), new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 51)))
	for _, k := range []*big.Int{floor, new(big.Int).Add(floor, big.NewInt(1))} {
		gap := new(big.Rat).Sub(ex, new(big.Rat).Mul(new(big.Rat).SetInt(k), em))
		if gap.Abs(gap).Cmp(tolerance) <= 0 {
			return true
		}
	}
	return false
}

// inEnum reports whether the string, number or boolean x is one of r's
// enum values (decoded once, when the tag was read).
func (r *rules) inEnum(x reflect.Value) bool {
	if x.Kind() == reflect.String {
		return r.enumStrings[x.String()]
	}
	return slices.ContainsFunc(r.enum, func(e json.RawMessage) bool { return equalScalar(x, e) })
}

// equalScalar reports whether the number or boolean x equals the JSON
// value e.
func equalScalar(x reflect.Value, e json.RawMessage) bool {
	switch x.Kind() {
	case reflect.Bool:
		return string(e) == strconv.FormatBool(x.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Float32, reflect.Float64:
		return len(e) > 0 && (e[0] == '-' || e[0] >= '0' && e[0] <= '9') && compare(x, string(e)) == 0
	}
	return false
}

// jsonText is x as JSON without HTML escaping.
func jsonText(x any) string {
	var b strings.Builder
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(x); err != nil {
		return fmt.Sprint(x)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// uniqueJSON reports whether the items of slice x have distinct JSON
// encodings.
func uniqueJSON(x reflect.Value) bool {
	seen := make(map[string]bool, x.Len())
	for i := range x.Len() {
		k := jsonText(x.Index(i).Interface())
		if seen[k] {
			return false
		}
		seen[k] = true
	}
	return true
}

// join appends a property name to a JSON path.
func join(path, name string) string {
	switch {
	case path == "":
		return name
	case name == "":
		return path
	}
	return path + "." + name
}

// key appends a map key to a JSON path.
func key(path, k string) string { return path + "[" + strconv.Quote(k) + "]" }

// index appends an array index to a JSON path.
func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

// SystemData is metadata the server records about a resource.
type SystemData struct {
	CreatedBy          *string    `json:"createdBy,omitempty"`
	CreatedByType      *string    `json:"createdByType,omitempty"`
	CreatedAt          *time.Time `json:"createdAt,omitempty"`
	LastModifiedBy     *string    `json:"lastModifiedBy,omitempty"`
	LastModifiedByType *string    `json:"lastModifiedByType,omitempty"`
	LastModifiedAt     *time.Time `json:"lastModifiedAt,omitempty"`
}

// ResourceID is the ID of a resource of any type:
// {scope}/providers/{Namespace}/{type}/{name}[/{childType}/{childName}]...
// It marshals to and from its string form.
type ResourceID struct {
	scope, namespace string
	types, names     []string
}

// ParseResourceID parses s as a resource ID of any type: it must start with
// "/" and have a "providers" segment followed by the namespace and one or
// more non-empty type/name pairs.
func ParseResourceID(s string) (ResourceID, error) {
	segs := strings.Split(s, "/")
	p := -1
	for i := len(segs) - 1; i > 0; i-- {
		if strings.EqualFold(segs[i], "providers") {
			p = i
			break
		}
	}
	rest := segs[p+1:]
	if !strings.HasPrefix(s, "/") || p < 0 || len(rest) < 3 || len(rest)%2 == 0 || rest[0] == "" {
		return ResourceID{}, fmt.Errorf("%q is not a resource ID ({scope}/providers/{Namespace}/{type}/{name}...)", s)
	}
	id := ResourceID{scope: strings.Join(segs[:p], "/"), namespace: rest[0]}
	for i := 1; i < len(rest); i += 2 {
		if rest[i] == "" || rest[i+1] == "" {
			return ResourceID{}, fmt.Errorf("%q is not a resource ID: empty type or name", s)
		}
		id.types = append(id.types, rest[i])
		id.names = append(id.names, rest[i+1])
	}
	return id, nil
}

// Scope is the part of the ID before "/providers/".
func (id ResourceID) Scope() string { return id.scope }

// Namespace is the resource type's namespace ("Contoso.Data").
func (id ResourceID) Namespace() string { return id.namespace }

// Types are the type segments, outermost first (["contosoBuses", "queues"]).
func (id ResourceID) Types() []string { return slices.Clone(id.types) }

// Names are the resource names, outermost first (["bus1", "q1"]).
func (id ResourceID) Names() []string { return slices.Clone(id.names) }

// String returns the ID; "" for the zero ResourceID.
func (id ResourceID) String() string {
	if id.namespace == "" {
		return ""
	}
	return Format(id.scope, id.namespace+"/"+strings.Join(id.types, "/"), id.names...)
}

// MarshalText returns the ID's string form.
func (id ResourceID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText parses an ID of any type.
func (id *ResourceID) UnmarshalText(b []byte) error {
	v, err := ParseResourceID(string(b))
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// Parse splits s into its scope and resource names, checking the namespace
// and type segments of fullType ("Namespace/type/child") case-insensitively.
func Parse(s, fullType string) (scope string, names []string, err error) {
	want := strings.Split(fullType, "/")
	types := want[1:]
	segs := strings.Split(s, "/")
	n := 2 + 2*len(types)
	bad := fmt.Errorf("%q is not a resource ID of type %s", s, fullType)
	if !strings.HasPrefix(s, "/") || len(segs) < n+1 {
		return "", nil, bad
	}
	tail := segs[len(segs)-n:]
	if !strings.EqualFold(tail[0], "providers") || !strings.EqualFold(tail[1], want[0]) {
		return "", nil, bad
	}
	for i, t := range types {
		name := tail[3+2*i]
		if !strings.EqualFold(tail[2+2*i], t) || name == "" {
			return "", nil, bad
		}
		names = append(names, name)
	}
	return strings.Join(segs[:len(segs)-n], "/"), names, nil
}

// Format builds an ID from its scope, the type's full name and the
// resource names.
func Format(scope, fullType string, names ...string) string {
	want := strings.Split(fullType, "/")
	var b strings.Builder
	b.WriteString(scope)
	b.WriteString("/providers/")
	b.WriteString(want[0])
	for i, t := range want[1:] {
		b.WriteString("/" + t + "/" + names[i])
	}
	return b.String()
}

// ClientOptions configure the resource clients.
type ClientOptions struct {
	// Endpoint is the server's base URL, e.g. "http://127.0.0.1:7443":
	// required, with http:// or https:// (NewClient checks it).
	Endpoint string
	// Plane is the Radius plane for scopes given as a resource group name
	// (see the List methods); "local" when empty.
	Plane string
	// Token, when set, is sent as "Authorization: Bearer <Token>".
	Token string
	// HTTPClient sends the requests; http.DefaultClient when nil.
	HTTPClient *http.Client
	// OnDeprecation, when set, is called with every answer that announces
	// the API version's deprecation (the Deprecation, Sunset and Warning
	// headers of a version udtc.yaml's lifecycle deprecates). When nil,
	// the first such answer of each API version is logged with package
	// log, once per process, as Azure's SDKs log a deprecated version.
	OnDeprecation func(Deprecation)
}

// Deprecation is what a server announced about the API version a request
// was made with.
type Deprecation struct {
	// APIVersion is the client's API version.
	APIVersion string
	// Deprecated is when the version is (or was) deprecated, Sunset when
	// the server stops taking new resources of it; zero when not given.
	Deprecated, Sunset time.Time
	// Message is the server's Warning: which type and version, the
	// replacement, and why.
	Message string
}

// ResponseError is a non-2xx answer of the server, decoded from its ARM
// error body ({"error": {"code", "message", "target", "details"}}).
type ResponseError struct {
	StatusCode int
	Code       string
	Message    string
	Target     string
	Details    []ErrorDetail
}

// ErrorDetail is one detail of a ResponseError, e.g. one violation of a
// refused write: Target is the JSON path of the offending value.
type ErrorDetail struct {
	Code    string        `json:"code"`
	Message string        `json:"message"`
	Target  string        `json:"target,omitempty"`
	Details []ErrorDetail `json:"details,omitempty"`
}

// Error returns the status, code and message followed by every detail with
// its target.
func (e *ResponseError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s: %s", e.StatusCode, e.Code, e.Message)
	if e.Target != "" {
		fmt.Fprintf(&b, " (target %s)", e.Target)
	}
	var walk func([]ErrorDetail)
	walk = func(ds []ErrorDetail) {
		for _, d := range ds {
			b.WriteString("; ")
			if d.Target != "" {
				b.WriteString(d.Target + ": ")
			}
			fmt.Fprintf(&b, "%s: %s", d.Code, d.Message)
			walk(d.Details)
		}
	}
	walk(e.Details)
	return b.String()
}

// Client sends the requests of one resource type at one API version.
type Client struct {
	opts       ClientOptions
	apiVersion string
}

// NewClient returns a client of the resources written with apiVersion. It
// returns an error when opts.Endpoint is not a base URL: http:// or
// https://, a host, no query and no fragment.
func NewClient(opts ClientOptions, apiVersion string) (*Client, error) {
	if err := checkEndpoint(opts.Endpoint); err != nil {
		return nil, err
	}
	if opts.Plane == "" {
		opts.Plane = "local"
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = http.DefaultClient
	}
	opts.Endpoint = strings.TrimRight(opts.Endpoint, "/")
	return &Client{opts: opts, apiVersion: apiVersion}, nil
}

// checkEndpoint says what is wrong with ClientOptions.Endpoint e, before a
// request would fail with net/http's words for it.
func checkEndpoint(e string) error {
	const example = `, e.g. "http://127.0.0.1:7443"`
	if e == "" {
		return errors.New("ClientOptions.Endpoint is empty: set it to the server's base URL" + example)
	}
	u, err := url.Parse(e)
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("ClientOptions.Endpoint %q is not a base URL: it needs http:// or https://, a host, and no query or fragment%s", e, example)
	}
	return nil
}

// WriteOptions are the conditions of a PUT; the generated
// <Type>ClientCreateOrUpdateOptions convert to it. A nil field sends no
// header. The server answers 412 (a *ResponseError with StatusCode 412)
// when a condition does not hold, and writes nothing.
type WriteOptions struct {
	// IfMatch is sent as If-Match: the write succeeds only if the
	// resource's current ETag is *IfMatch ("*": only if it exists).
	IfMatch *string
	// IfNoneMatch is sent as If-None-Match: "*" writes only if the resource
	// does not exist yet.
	IfNoneMatch *string
}

// DeleteOptions are the conditions of a DELETE; the generated
// <Type>ClientDeleteOptions convert to it.
type DeleteOptions struct {
	// IfMatch is sent as If-Match: the delete succeeds only if the
	// resource's current ETag is *IfMatch, else the server answers 412.
	IfMatch *string
}

// header is the request header of o's conditions (none when o is nil).
func (o *WriteOptions) header() http.Header {
	h := http.Header{}
	if o != nil {
		setHeader(h, "If-Match", o.IfMatch)
		setHeader(h, "If-None-Match", o.IfNoneMatch)
	}
	return h
}

// header is the request header of o's condition (none when o is nil).
func (o *DeleteOptions) header() http.Header {
	h := http.Header{}
	if o != nil {
		setHeader(h, "If-Match", o.IfMatch)
	}
	return h
}

func setHeader(h http.Header, key string, v *string) {
	if v != nil {
		h.Set(key, *v)
	}
}

// Scope expands a List scope: "" is the whole plane, a name without "/" a
// resource group of the plane, anything else is used as given.
func (c *Client) Scope(scope string) string {
	switch {
	case scope == "":
		return "/planes/radius/" + c.opts.Plane
	case !strings.HasPrefix(scope, "/"):
		return "/planes/radius/" + c.opts.Plane + "/resourceGroups/" + scope
	}
	return scope
}

// URL is the request URL of path with the client's API version.
func (c *Client) URL(path string) string {
	return c.opts.Endpoint + path + "?api-version=" + url.QueryEscape(c.apiVersion)
}

// do sends a request with the header h (may be nil) and in (if not nil) as
// its JSON body, and decodes a 2xx answer into out (if not nil). It
// returns the answer's ETag header. A non-2xx answer is a *ResponseError.
func (c *Client) do(ctx context.Context, method, u string, h http.Header, in, out any) (etag string, err error) {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return "", err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return "", err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.opts.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.opts.Token)
	}
	resp, err := c.opts.HTTPClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if d, ok := deprecation(resp.Header, c.apiVersion); ok {
		c.deprecated(d)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return "", responseError(resp.StatusCode, data)
	}
	if out != nil && len(data) > 0 {
		if err := json.Unmarshal(data, out); err != nil {
			return "", decodeError(method, u, err)
		}
	}
	return resp.Header.Get("ETag"), nil
}

// decodeError is the error of a 2xx answer to method u whose body is not
// what the request expects.
func decodeError(method, u string, err error) error {
	return fmt.Errorf("%s %s: decoding the answer: %w", method, u, err)
}

// loggedDeprecations holds the messages logged once per process.
var loggedDeprecations sync.Map

// deprecated hands d to ClientOptions.OnDeprecation, or logs it once.
func (c *Client) deprecated(d Deprecation) {
	if c.opts.OnDeprecation != nil {
		c.opts.OnDeprecation(d)
		return
	}
	if _, seen := loggedDeprecations.LoadOrStore(d.APIVersion+"\x00"+d.Message, true); !seen {
		log.Printf("udtc: warning: API version %s is deprecated: %s", d.APIVersion, d.Message)
	}
}

// deprecation reads the headers a server announces a deprecated API
// version with: Deprecation ("@" Unix time, RFC 9745), Sunset (an
// HTTP-date, RFC 8594) and Warning (299 - "text", as Kubernetes sends it).
func deprecation(h http.Header, apiVersion string) (Deprecation, bool) {
	dep, warn := h.Get("Deprecation"), h.Get("Warning")
	if dep == "" && warn == "" {
		return Deprecation{}, false
	}
	d := Deprecation{APIVersion: apiVersion}
	if n, err := strconv.ParseInt(strings.TrimPrefix(dep, "@"), 10, 64); err == nil && strings.HasPrefix(dep, "@") {
		d.Deprecated = time.Unix(n, 0).UTC()
	}
	if t, err := http.ParseTime(h.Get("Sunset")); err == nil {
		d.Sunset = t.UTC()
	}
	if i := strings.IndexByte(warn, '"'); i >= 0 && len(warn) > i+1 && strings.HasSuffix(warn, `"`) {
		var b strings.Builder
		body := warn[i+1 : len(warn)-1]
		for j := 0; j < len(body); j++ {
			if body[j] == '\\' && j+1 < len(body) {
				j++
			}
			b.WriteByte(body[j])
		}
		d.Message = b.String()
	}
	return d, true
}

// responseError decodes the ARM error body of a non-2xx answer.
func responseError(status int, data []byte) *ResponseError {
	e := &ResponseError{StatusCode: status}
	var env struct{ Error ErrorDetail }
	if json.Unmarshal(data, &env) == nil && env.Error.Code != "" {
		e.Code, e.Message, e.Target, e.Details = env.Error.Code, env.Error.Message, env.Error.Target, env.Error.Details
	} else {
		e.Code, e.Message = http.StatusText(status), strings.TrimSpace(string(data))
	}
	return e
}

// Get reads the resource at path into r, with the answer's ETag in r's
// ETag field. P is a pointer type, so every resource type shares one
// instantiation (one GC shape). Each package that calls it compiles that
// instantiation again, so its body is no more than the call of a
// non-generic method and the typed result.
func Get[P any](ctx context.Context, c *Client, path string, r P) (P, error) {
	return result(r, c.send(ctx, http.MethodGet, path, nil, nil, r))
}

// Put writes in at path under the conditions of opts (nil for none) and
// decodes what the server stored into r, with its ETag as for Get.
func Put[P any](ctx context.Context, c *Client, path string, in, r P, opts *WriteOptions) (P, error) {
	return result(r, c.send(ctx, http.MethodPut, path, opts.header(), in, r))
}

// Post sends an empty POST to path and decodes the answer into r.
func Post[P any](ctx context.Context, c *Client, path string, r P) (P, error) {
	return result(r, c.send(ctx, http.MethodPost, path, nil, nil, r))
}

// result is r, or the zero P (nil) and err when err is not nil.
func result[P any](r P, err error) (P, error) {
	if err != nil {
		var zero P
		return zero, err
	}
	return r, nil
}

// send sends a request of path as do does and sets the ETag field of out
// (a *string, when out points to a struct that has one) to the answer's
// ETag when it has one.
func (c *Client) send(ctx context.Context, method, path string, h http.Header, in, out any) error {
	etag, err := c.do(ctx, method, c.URL(path), h, in, out)
	if err != nil || etag == "" {
		return err
	}
	if v := reflect.ValueOf(out).Elem(); v.Kind() == reflect.Struct {
		if f := v.FieldByName("ETag"); f.IsValid() && f.Type() == reflect.TypeFor[*string]() {
			f.Set(reflect.ValueOf(&etag))
		}
	}
	return nil
}

// Delete deletes the resource at path under the condition of opts (nil for
// none); deleting an absent one is no error.
func (c *Client) Delete(ctx context.Context, path string, opts *DeleteOptions) error {
	_, err := c.do(ctx, http.MethodDelete, c.URL(path), opts.header(), nil, nil)
	return err
}

// List yields the resources of the list at path, page after page
// (following nextLink), and stops after the first error. P is a pointer
// type (*Resource), as for Get. A list carries no ETags: the ETag fields
// stay nil.
//
// It is not inlined: inlined, its closures would be compiled again for
// every resource type that calls it, instead of once per package.
//
//go:noinline
func List[P any](ctx context.Context, c *Client, path string) iter.Seq2[P, error] {
	return func(yield func(P, error) bool) {
		var zero P
		err := c.list(ctx, path, func(item json.RawMessage) (bool, error) {
			r := zero
			if err := json.Unmarshal(item, &r); err != nil {
				return false, err
			}
			return yield(r, nil), nil
		})
		if err != nil {
			yield(zero, err)
		}
	}
}

// list hands each item of the list at path to each, page after page
// (following nextLink), until each returns false or an error. It returns
// the first error: a request's, or the decoding error of an item.
func (c *Client) list(ctx context.Context, path string, each func(item json.RawMessage) (bool, error)) error {
	u := c.URL(path)
	for u != "" {
		var page struct {
			Value    []json.RawMessage `json:"value"`
			NextLink string            `json:"nextLink"`
		}
		if _, err := c.do(ctx, http.MethodGet, u, nil, nil, &page); err != nil {
			return err
		}
		for _, item := range page.Value {
			more, err := each(item)
			if err != nil {
				return decodeError(http.MethodGet, u, err)
			}
			if !more {
				return nil
			}
		}
		u = page.NextLink
	}
	return nil
}

// ResourceGroupsAPIVersion is the API version of the resource groups API
// of a Radius plane.
const ResourceGroupsAPIVersion = "2023-10-01-preview"

// ResourceGroup is a resource group of a Radius plane: every resource lives
// in one, and a resource's ID starts with its group's ID
// (/planes/radius/{plane}/resourceGroups/{name}).
type ResourceGroup struct {
	// ID, Name, Type and SystemData are set by the server.
	ID   *string `json:"id,omitempty"`
	Name *string `json:"name,omitempty"`
	Type *string `json:"type,omitempty"`
	// Location is "global" when nil.
	Location   *string                  `json:"location,omitempty"`
	Tags       map[string]string        `json:"tags,omitzero"`
	Properties *ResourceGroupProperties `json:"properties,omitempty"`
	SystemData *SystemData              `json:"systemData,omitempty"`
	// ETag is the group's entity tag as Get or CreateOrUpdate returned it,
	// nil from List: pass it as IfMatch to write only if nobody has
	// changed the group since.
	ETag *string `json:"-"`
}

// ResourceGroupProperties are the properties of a resource group, all set
// by the server.
type ResourceGroupProperties struct {
	ProvisioningState *string `json:"provisioningState,omitempty"`
}

// ResourceGroupsClient creates, reads, lists and deletes the resource
// groups of ClientOptions.Plane, with API version ResourceGroupsAPIVersion.
type ResourceGroupsClient struct{ c *Client }

// NewResourceGroupsClient returns a client of the resource groups of
// opts.Plane. It returns an error when opts.Endpoint is not an http:// or
// https:// base URL.
func NewResourceGroupsClient(opts ClientOptions) (*ResourceGroupsClient, error) {
	c, err := NewClient(opts, ResourceGroupsAPIVersion)
	if err != nil {
		return nil, err
	}
	return &ResourceGroupsClient{c}, nil
}

// The options of the ResourceGroupsClient calls; nil is none. When a
// condition (IfMatch, IfNoneMatch) does not hold, the server changes
// nothing and the call returns a *ResponseError with StatusCode 412.
type (
	// ResourceGroupsClientCreateOrUpdateOptions are the conditions of
	// ResourceGroupsClient.CreateOrUpdate.
	ResourceGroupsClientCreateOrUpdateOptions struct {
		// IfMatch writes only if the group's ETag is *IfMatch or, with
		// "*", only if it exists.
		IfMatch *string
		// IfNoneMatch "*" writes only if the group does not exist yet.
		IfNoneMatch *string
	}
	// ResourceGroupsClientGetOptions are the options of
	// ResourceGroupsClient.Get (none yet).
	ResourceGroupsClientGetOptions struct{}
	// ResourceGroupsClientDeleteOptions are the conditions of
	// ResourceGroupsClient.Delete.
	ResourceGroupsClientDeleteOptions struct {
		// IfMatch deletes only if the group's ETag is *IfMatch or, with
		// "*", only if it exists.
		IfMatch *string
	}
	// ResourceGroupsClientListOptions are the options of
	// ResourceGroupsClient.List (none yet).
	ResourceGroupsClientListOptions struct{}
)

// path is the ID of the group name of the client's plane, or an error when
// name is empty.
func (g *ResourceGroupsClient) path(name string) (string, error) {
	if name == "" {
		return "", errors.New("the resource group name is empty")
	}
	return "/planes/radius/" + g.c.opts.Plane + "/resourceGroups/" + url.PathEscape(name), nil
}

// CreateOrUpdate creates or replaces the resource group name (nil group:
// location "global", no tags) and returns it as stored, with its ETag; its
// ID is the scope of the resources created in it.
func (g *ResourceGroupsClient) CreateOrUpdate(ctx context.Context, name string, group *ResourceGroup, opts *ResourceGroupsClientCreateOrUpdateOptions) (*ResourceGroup, error) {
	p, err := g.path(name)
	if err != nil {
		return nil, err
	}
	if group == nil {
		group = &ResourceGroup{}
	}
	return Put(ctx, g.c, p, group, new(ResourceGroup), (*WriteOptions)(opts))
}

// Get reads the resource group name, with its ETag; an absent group is a
// *ResponseError with StatusCode 404.
func (g *ResourceGroupsClient) Get(ctx context.Context, name string, opts *ResourceGroupsClientGetOptions) (*ResourceGroup, error) {
	p, err := g.path(name)
	if err != nil {
		return nil, err
	}
	return Get(ctx, g.c, p, new(ResourceGroup))
}

// Delete deletes the resource group name and every resource in it; an
// absent group is no error.
func (g *ResourceGroupsClient) Delete(ctx context.Context, name string, opts *ResourceGroupsClientDeleteOptions) error {
	p, err := g.path(name)
	if err != nil {
		return err
	}
	return g.c.Delete(ctx, p, (*DeleteOptions)(opts))
}

// List yields the resource groups of the client's plane, ordered by name,
// following nextLink; it stops after the first error.
func (g *ResourceGroupsClient) List(ctx context.Context, opts *ResourceGroupsClientListOptions) iter.Seq2[*ResourceGroup, error] {
	return List[*ResourceGroup](ctx, g.c, "/planes/radius/"+g.c.opts.Plane+"/resourceGroups")
}
