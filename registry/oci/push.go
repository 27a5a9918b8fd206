package oci

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/credentials"
	"oras.land/oras-go/v2/registry/remote/errcode"
	"oras.land/oras-go/v2/registry/remote/retry"

	"github.com/udtc/udtc/internal/sameorigin"
)

// Options configure a Client.
type Options struct {
	// Username and Password, when Username is not empty, are the
	// credentials for every registry (`--username`, `--password-stdin`).
	// Otherwise the docker config at DockerConfig is read: its auths and
	// credential helpers (credsStore, credHelpers), as docker and oras do.
	Username, Password string
	// DockerConfig is the path of the docker config file
	// ($DOCKER_CONFIG/config.json or ~/.docker/config.json); a missing file
	// means no credentials.
	DockerConfig string
	// PlainHTTP speaks plain HTTP to every registry. Loopback registries
	// (localhost, 127.0.0.0/8, ::1) are spoken to over plain HTTP anyway,
	// as docker, oras and Bicep do; every other one over HTTPS unless this
	// is set.
	PlainHTTP bool
	// Force replaces a tag that holds another extension; without it Push
	// refuses (Bicep's publish-extension does the same without --force).
	Force bool
	// UserAgent is sent with every request.
	UserAgent string
}

// Client pushes extension artifacts. It is safe for concurrent use.
type Client struct {
	opts  Options
	http  *auth.Client
	creds *credentialLog
}

// NewClient returns a client for opts. It fails only when the docker config
// cannot be read.
func NewClient(opts Options) (*Client, error) {
	cl := &credentialLog{found: map[string]bool{}, asked: map[string]bool{}, redirected: map[string]bool{}}
	if opts.Username != "" {
		user, pass := opts.Username, opts.Password
		cl.source = "--username"
		cl.get = func(context.Context, string) (auth.Credential, error) {
			return auth.Credential{Username: user, Password: pass}, nil
		}
	} else {
		store, err := credentials.NewStore(opts.DockerConfig, credentials.StoreOptions{})
		if err != nil {
			return nil, fmt.Errorf("docker config %s: %w", opts.DockerConfig, err)
		}
		cl.source = "the docker config " + opts.DockerConfig
		cl.get = credentials.Credential(store)
	}
	ua := opts.UserAgent
	if ua == "" {
		ua = "udtc"
	}
	return &Client{
		opts:  opts,
		creds: cl,
		http: &auth.Client{
			// Credentials follow a redirect to their origin only, and
			// never from https to http.
			Client: sameorigin.Client(&http.Client{
				Transport:     retry.DefaultClient.Transport,
				CheckRedirect: cl.noteRedirect,
			}),
			Header:     http.Header{"User-Agent": {ua}},
			Cache:      auth.NewCache(),
			Credential: cl.credential,
		},
	}, nil
}

// credentialLog resolves credentials and remembers, to explain a
// refusal, for which registries they were asked (a challenge came), for
// which it found some, and the hosts that redirects led to from another
// origin (where none are sent: sameorigin).
type credentialLog struct {
	source     string
	get        auth.CredentialFunc
	mu         sync.Mutex
	asked      map[string]bool
	found      map[string]bool
	redirected map[string]bool
}

func (l *credentialLog) credential(ctx context.Context, hostport string) (auth.Credential, error) {
	c, err := l.get(ctx, hostport)
	if err != nil {
		return auth.EmptyCredential, fmt.Errorf("credentials for %s from %s: %w", hostport, l.source, err)
	}
	l.mu.Lock()
	l.asked[hostport] = true
	l.found[hostport] = l.found[hostport] || c != auth.EmptyCredential
	l.mu.Unlock()
	return c, nil
}

// noteRedirect is the CheckRedirect under sameorigin's: it notes the host
// of a redirect that left the first request's origin.
func (l *credentialLog) noteRedirect(req *http.Request, via []*http.Request) error {
	if !sameorigin.Same(via[0].URL, req.URL) {
		l.mu.Lock()
		l.redirected[req.URL.Host] = true
		l.mu.Unlock()
	}
	return nil
}

func (l *credentialLog) had(hostport string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.found[hostport]
}

func (l *credentialLog) wasAsked(hostport string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.asked[hostport]
}

func (l *credentialLog) wasRedirected(host string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.redirected[host]
}

// Status says what Push did.
type Status int

const (
	// Pushed: the tag did not exist; it now names the artifact.
	Pushed Status = iota
	// Unchanged: the tag already named this extension (the same config and
	// layer); nothing was written and the tag keeps its manifest.
	Unchanged
	// Replaced: the tag named another artifact and Force was set.
	Replaced
)

func (s Status) String() string {
	switch s {
	case Unchanged:
		return "unchanged"
	case Replaced:
		return "replaced"
	}
	return "pushed"
}

// Result is what Push did and the digest the tag names afterwards.
type Result struct {
	Status Status
	Digest string
	// Previous is the digest the tag named before a Replaced push.
	Previous string
}

// ErrTagExists is wrapped by the error of a push to a tag that names
// another artifact, without Options.Force.
var ErrTagExists = errors.New("the tag exists with other content")

// PlainHTTP reports whether a registry is spoken to over plain HTTP without
// Options.PlainHTTP: whether its host is loopback.
func PlainHTTP(registry string) bool {
	host := registry
	if h, _, err := net.SplitHostPort(registry); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	addr, err := netip.ParseAddr(host)
	return err == nil && addr.IsLoopback()
}

// maxManifestBytes bounds a manifest read back from a registry.
const maxManifestBytes = 4 << 20

// Push puts a at ref: the blobs the registry lacks, then the manifest under
// the tag. When the tag already names the same extension it writes nothing
// (Unchanged). When it names another artifact it refuses with an error
// wrapping ErrTagExists, unless Options.Force. A refusal by the registry is
// an *Error carrying its status and reason.
func (c *Client) Push(ctx context.Context, ref Reference, a *Artifact) (Result, error) {
	repo, err := remote.NewRepository(ref.Registry + "/" + ref.Repository)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", ref, err)
	}
	repo.PlainHTTP = c.opts.PlainHTTP || PlainHTTP(ref.Registry)
	repo.Client = c.http
	res := Result{Status: Pushed, Digest: a.Manifest.Descriptor.Digest.String()}
	prev, err := c.current(ctx, repo, ref)
	if err != nil {
		return Result{}, err
	}
	if prev != nil {
		if prev.desc.Digest == a.Manifest.Descriptor.Digest || a.sameContent(prev.manifest) {
			return Result{Status: Unchanged, Digest: prev.desc.Digest.String()}, nil
		}
		if !c.opts.Force {
			return Result{}, fmt.Errorf("%s: %w (%s): publish under a new tag (the extension version), or pass --force to replace it (Bicep keeps a restored tag in its cache and does not fetch it again)", ref, ErrTagExists, prev.desc.Digest)
		}
		res.Status, res.Previous = Replaced, prev.desc.Digest.String()
	}
	for _, b := range []Blob{a.Config, a.Layer} {
		ok, err := repo.Exists(ctx, b.Descriptor)
		if err != nil {
			return Result{}, c.explain(ref, "checking blob "+b.Descriptor.Digest.String(), err)
		}
		if ok {
			continue
		}
		if err := repo.Push(ctx, b.Descriptor, bytes.NewReader(b.Data)); err != nil {
			return Result{}, c.explain(ref, "uploading blob "+b.Descriptor.Digest.String(), err)
		}
	}
	if err := repo.PushReference(ctx, a.Manifest.Descriptor, bytes.NewReader(a.Manifest.Data), ref.Tag); err != nil {
		return Result{}, c.explain(ref, "putting the manifest", err)
	}
	return res, nil
}

type fetched struct {
	desc     ocispec.Descriptor
	manifest ocispec.Manifest
}

// current returns what the tag names now, or nil when it names nothing.
func (c *Client) current(ctx context.Context, repo *remote.Repository, ref Reference) (*fetched, error) {
	desc, rc, err := repo.FetchReference(ctx, ref.Tag)
	if errors.Is(err, errdef.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, c.explain(ref, "reading the tag", err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxManifestBytes))
	if err != nil {
		return nil, c.explain(ref, "reading the tag", err)
	}
	f := &fetched{desc: desc}
	// A tag naming an index or something else that is not an image
	// manifest decodes to a manifest without layers: other content.
	_ = json.Unmarshal(data, &f.manifest)
	return f, nil
}

// Error is a push the registry refused or that could not reach it.
type Error struct {
	Ref Reference
	// Step is what was being done ("putting the manifest").
	Step string
	// Status is the HTTP status of a refusal (0 when none came back) and
	// Reason the registry's words for it.
	Status int
	Reason string
	// Hint says what to do about it, or is "".
	Hint string
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: ", e.Ref, e.Step)
	if e.Status != 0 {
		fmt.Fprintf(&b, "the registry answered %d %s: %s", e.Status, http.StatusText(e.Status), e.Reason)
	} else {
		b.WriteString(e.Reason)
	}
	if e.Hint != "" {
		b.WriteString(" (" + e.Hint + ")")
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// explain turns an error of oras-go into an *Error with the registry's
// reason and a hint.
func (c *Client) explain(ref Reference, step string, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s: %s: %w", ref, step, err)
	}
	e := &Error{Ref: ref, Step: step, Err: err, Reason: err.Error()}
	var resp *errcode.ErrorResponse
	from := ref.Registry // the host that answered
	if errors.Is(err, auth.ErrBasicCredentialNotFound) {
		// oras-go gives up on a Basic challenge without sending a request.
		e.Status, e.Reason = http.StatusUnauthorized, "it asks for a user name and password (Basic)"
	} else if errors.As(err, &resp) {
		e.Status = resp.StatusCode
		e.Reason = reason(resp)
		if resp.URL != nil && resp.URL.Host != ref.Registry {
			from = resp.URL.Host
			if c.creds.wasRedirected(from) {
				e.Step += " (redirected to " + from + ")"
			} else {
				e.Step += " (token from " + from + ")"
			}
		}
	}
	switch {
	case e.Status == http.StatusUnauthorized && from != ref.Registry && c.creds.wasRedirected(from):
		e.Hint = ref.Registry + " redirected to " + from + ", another origin, which asked for credentials: those for " + ref.Registry + " are sent to it only, so none were sent"
	case e.Status == http.StatusUnauthorized && !c.creds.wasAsked(ref.Registry):
		e.Hint = "the registry did not ask for credentials (no WWW-Authenticate challenge), so none from " + c.creds.source + " were sent"
	case e.Status == http.StatusUnauthorized && c.creds.had(ref.Registry):
		e.Hint = "the credentials from " + c.creds.source + " were refused"
	case e.Status == http.StatusUnauthorized:
		e.Hint = "no credentials for " + ref.Registry + " in " + c.creds.source + ": log in with `docker login " + ref.Registry + "`, or pass --username and --password-stdin"
	case e.Status == http.StatusForbidden:
		e.Hint = "the credentials from " + c.creds.source + " may not push to " + ref.Repository
	case strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		e.Hint = ref.Registry + " speaks plain HTTP: pass --plain-http"
	case isNetError(err):
		e.Hint = "cannot reach " + ref.Registry
	}
	return e
}

// reason is the registry's own words: its error codes and messages, or the
// HTTP status text when the body had none.
func reason(resp *errcode.ErrorResponse) string {
	if len(resp.Errors) == 0 {
		return strings.ToLower(http.StatusText(resp.StatusCode))
	}
	parts := make([]string, len(resp.Errors))
	for i, e := range resp.Errors {
		parts[i] = e.Code
		if e.Message != "" {
			parts[i] += ": " + e.Message
		}
		if d, ok := e.Detail.(string); ok && d != "" {
			parts[i] += " (" + d + ")"
		}
	}
	return strings.Join(parts, "; ")
}

func isNetError(err error) bool {
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ne) || errors.As(err, &oe)
}
