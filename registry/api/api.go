// Package api owns the wire form of the registry's HTTP API: request and
// response bodies, the ARM error envelope, the provider summary documents and
// the wire form of a diagnostic. The server, the Go client and publish share
// these types; nothing here performs I/O.
package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Version is the only api-version the registry accepts.
const Version = "2023-10-01-preview"

// Resource type names as they appear in the "type" field of bodies.
const (
	TypePlane            = "System.Planes/radius"
	TypeResourceProvider = "System.Resources/resourceProviders"
	TypeResourceType     = "System.Resources/resourceProviders/resourceTypes"
	TypeAPIVersion       = "System.Resources/resourceProviders/resourceTypes/apiVersions"
	TypeLocation         = "System.Resources/resourceProviders/locations"
	TypeResourceGroup    = "System.Resources/resourceGroups"
)

// ProvisioningSucceeded is the provisioningState of every stored resource:
// writes are synchronous.
const ProvisioningSucceeded = "Succeeded"

// Resource is the envelope shared by every resource body. Read-only fields
// (id, name, type, systemData) are ignored on PUT.
type Resource[P any] struct {
	ID         string            `json:"id,omitempty"`
	Name       string            `json:"name,omitempty"`
	Type       string            `json:"type,omitempty"`
	Location   string            `json:"location,omitempty"`
	Tags       map[string]string `json:"tags,omitempty"`
	Properties P                 `json:"properties"`
	SystemData *SystemData       `json:"systemData,omitempty"`
	// ETag is carried in the ETag header, never in the body. The client
	// fills it from responses.
	ETag string `json:"-"`
}

// SystemData records who wrote a resource and when (RFC 3339, UTC). The
// "By" fields are set only when the server requires a token.
type SystemData struct {
	CreatedBy          string `json:"createdBy,omitempty"`
	CreatedByType      string `json:"createdByType,omitempty"`
	CreatedAt          string `json:"createdAt,omitempty"`
	LastModifiedBy     string `json:"lastModifiedBy,omitempty"`
	LastModifiedByType string `json:"lastModifiedByType,omitempty"`
	LastModifiedAt     string `json:"lastModifiedAt,omitempty"`
}

// PlaneProperties are the properties of a radius plane. ResourceProviders
// is UCP's map of provider namespaces to addresses: the registry keeps
// none (a location's address routes a type's resources) and answers {},
// as Radius's description of the API requires the field.
type PlaneProperties struct {
	ResourceProviders Object[string] `json:"resourceProviders"`
	ProvisioningState string         `json:"provisioningState,omitempty"`
}

// ResourceGroupProperties are the properties of a resource group.
type ResourceGroupProperties struct {
	ProvisioningState string `json:"provisioningState,omitempty"`
}

// ResourceProviderProperties are the properties of a resource provider.
type ResourceProviderProperties struct {
	ProvisioningState string `json:"provisioningState,omitempty"`
}

// ResourceTypeProperties are the properties of a resource type. Icon is an
// SVG document (IconProblem says which); IconHash, read-only, is its
// IconHash, the name it is served under at .../icons/{hash}.
type ResourceTypeProperties struct {
	DefaultAPIVersion string   `json:"defaultApiVersion,omitempty"`
	Description       string   `json:"description,omitempty"`
	Capabilities      []string `json:"capabilities,omitempty"`
	Icon              string   `json:"icon,omitempty"`
	IconHash          string   `json:"iconHash,omitempty"`
	ProvisioningState string   `json:"provisioningState,omitempty"`
}

// APIVersionProperties are the properties of a resource type API version.
// Schema is returned exactly as stored (compacted JSON).
type APIVersionProperties struct {
	Schema json.RawMessage `json:"schema,omitempty"`
	// Lifecycle is the version's deprecation and sunset, a udtc extension
	// UCP does not take (udtc publish leaves it out there and says so).
	Lifecycle         *Lifecycle `json:"lifecycle,omitempty"`
	ProvisioningState string     `json:"provisioningState,omitempty"`
}

// SchemaOrEmpty is the schema an API version is stored with when a PUT
// gives schema: an absent or null schema is the empty schema {}, anything
// else is itself (the server compacts and checks it).
func SchemaOrEmpty(schema json.RawMessage) json.RawMessage {
	if s := bytes.TrimSpace(schema); len(s) == 0 || string(s) == "null" {
		return json.RawMessage(`{}`)
	}
	return schema
}

// LocationProperties are the properties of a resource provider location.
// ResourceTypes is always encoded, {} when empty, as UCP answers it: Radius's
// clients add to the map they read back and fail on an absent one.
type LocationProperties struct {
	Address           string                       `json:"address,omitempty"`
	ResourceTypes     Object[LocationResourceType] `json:"resourceTypes"`
	ProvisioningState string                       `json:"provisioningState,omitempty"`
}

// LocationResourceType lists the API versions of a type served in a
// location. APIVersions is always encoded, {} when empty, as UCP does.
type LocationResourceType struct {
	Address     string                     `json:"address,omitempty"`
	APIVersions Object[LocationAPIVersion] `json:"apiVersions"`
}

// Object is a JSON object that is always encoded, {} when nil, as UCP
// answers the maps of its bodies: Radius's clients add to the map they read
// back and fail on an absent one.
type Object[V any] map[string]V

// MarshalJSON encodes m, {} when it is nil.
func (m Object[V]) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("{}"), nil
	}
	return Marshal(map[string]V(m))
}

// Marshal encodes v as encoding/json does, without escaping HTML
// characters, so that stored JSON (an address with its '&', a schema's
// "<" in a pattern) is returned as it was stored.
func Marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// LocationAPIVersion is empty for now (the seed reserves it).
type LocationAPIVersion struct{}

// Concrete resource bodies.
type (
	Plane            = Resource[PlaneProperties]
	ResourceProvider = Resource[ResourceProviderProperties]
	ResourceType     = Resource[ResourceTypeProperties]
	APIVersion       = Resource[APIVersionProperties]
	Location         = Resource[LocationProperties]
	ResourceGroup    = Resource[ResourceGroupProperties]
	// Instance is a resource of a user-defined type: its properties are
	// those of its type's schema, plus provisioningState.
	Instance = Resource[json.RawMessage]
)

// List is a page of a collection. NextLink, when set, is the full URL of the
// next page.
type List[T any] struct {
	Value    []T    `json:"value"`
	NextLink string `json:"nextLink,omitempty"`
}

// ResourceCount is how many resources of a type (as registered:
// "contosoBuses/queues") were last written with one of its API versions:
// an item of GET .../resourceProviders/{namespace}/resourceCounts, a udtc
// extension that tells a client which deletes the registry refuses
// without ?force=true, and what they would delete with it. APIVersion is
// "" where the count is of the type as a whole (udtc publish counts so
// against Radius's UCP, which has no such route, by listing the type's
// resources).
type ResourceCount struct {
	ResourceType string `json:"resourceType"`
	APIVersion   string `json:"apiVersion,omitempty"`
	Count        int    `json:"count"`
}

// ResourceCheck is the answer to POST
// .../resourceTypes/{type}/apiVersions/{version}/checkResources, a udtc
// extension: the stored resources last written with that API version,
// checked against a candidate schema (the body, as the PUT of the API
// version would send it) as admission would check their next write. It
// is a dry run: nothing is written. A page checks a bounded number of
// resources; NextLink, POSTed the same body, checks the next ones.
type ResourceCheck struct {
	// Checked is how many resources of the version this page checked.
	Checked int `json:"checked"`
	// Refused are those among them the candidate schema refuses.
	Refused  []RefusedResource `json:"refused"`
	NextLink string            `json:"nextLink,omitempty"`
}

// RefusedResource is a stored resource a candidate schema refuses, with
// admission's reasons (at most MaxRefusalDetails; values are not echoed).
type RefusedResource struct {
	ID      string        `json:"id"`
	Details []ErrorDetail `json:"details"`
}

// MaxRefusalDetails is the most reasons a RefusedResource carries.
const MaxRefusalDetails = 10

// ProviderSummary is the read-optimised view of one resource provider
// (GET /planes/radius/{plane}/providers/{namespace}).
type ProviderSummary struct {
	Name          string                         `json:"name"`
	Locations     map[string]LocationSummary     `json:"locations"`
	ResourceTypes map[string]ResourceTypeSummary `json:"resourceTypes"`
}

// LocationSummary is a location in a provider summary.
type LocationSummary struct {
	Address string `json:"address,omitempty"`
}

// ResourceTypeSummary is a resource type in a provider summary, keyed by
// its unescaped name ("contosoBuses/queues").
// Icon is set only when the summary is asked for with includeIcons=true;
// IconHash always when the type has an icon.
type ResourceTypeSummary struct {
	APIVersions       map[string]APIVersionSummary `json:"apiVersions"`
	DefaultAPIVersion string                       `json:"defaultApiVersion,omitempty"`
	Description       string                       `json:"description,omitempty"`
	Capabilities      []string                     `json:"capabilities,omitempty"`
	Icon              string                       `json:"icon,omitempty"`
	IconHash          string                       `json:"iconHash,omitempty"`
}

// APIVersionSummary is an API version in a provider summary.
type APIVersionSummary struct {
	Schema json.RawMessage `json:"schema"`
	// Lifecycle is the version's (APIVersionProperties.Lifecycle), a udtc
	// extension; nil for none.
	Lifecycle *Lifecycle `json:"lifecycle,omitempty"`
}

// ProviderSummaryList is the body of GET /planes/radius/{plane}/providers.
type ProviderSummaryList struct {
	Value []ProviderSummary `json:"value"`
}

// Error codes used in the ARM error envelope.
const (
	CodeInvalidAPIVersion     = "InvalidApiVersionParameter"
	CodeInvalidRequestContent = "InvalidRequestContent"
	CodeNotFound              = "NotFound"
	CodeMethodNotAllowed      = "MethodNotAllowed"
	CodeConflict              = "Conflict"
	// CodeAnotherOperation is the code of a 409 caused by a concurrent
	// write (ARM's AnotherOperationInProgress): retrying may succeed. A
	// 409 Conflict (a registration that still has resources, a namespace
	// that a git sync owns) is final.
	CodeAnotherOperation     = "AnotherOperationInProgress"
	CodePreconditionFailed   = "PreconditionFailed"
	CodeRequestTooLarge      = "RequestEntityTooLarge"
	CodeHeadersTooLarge      = "RequestHeaderFieldsTooLarge"
	CodeUnsupportedMediaType = "UnsupportedMediaType"
	CodeUnauthorized         = "Unauthorized"
	CodeForbidden            = "Forbidden"
	CodeInternal             = "InternalServerError"
	CodeServiceUnavailable   = "ServiceUnavailable"

	// Resources of user-defined types (admission refusals).
	CodeResourceTypeNotFound  = "ResourceTypeNotFound"
	CodeNamespaceNotFound     = "NamespaceNotFound"
	CodeAPIVersionNotFound    = "InvalidResourceTypeApiVersion"
	CodeLocationNotRegistered = "LocationNotRegistered"
	CodeParentNotFound        = "ParentResourceNotFound"
	CodeResourceGroupNotFound = "ResourceGroupNotFound"
	CodeBadGateway            = "BadGateway"
	// CodeLoopDetected is the code of a 508: a forwarded request came back
	// to a registry, which does not forward it again.
	CodeLoopDetected = "LoopDetected"
	// CodeReferenceNotFound is the code of the details of a 400 whose
	// property names a resource (of a type this registry serves) that does
	// not exist.
	CodeReferenceNotFound = "ReferenceNotFound"
)

// MaxErrorDetails is the most details one error response carries; CapDetails
// enforces it everywhere a list of problems becomes a response.
const MaxErrorDetails = 100

// CapDetails returns at most MaxErrorDetails details; when it drops some, the
// last entry says how many more there were (code "TooManyDetails").
func CapDetails(details []ErrorDetail) []ErrorDetail {
	if len(details) <= MaxErrorDetails {
		return details
	}
	out := make([]ErrorDetail, MaxErrorDetails, MaxErrorDetails+1)
	copy(out, details[:MaxErrorDetails])
	return append(out, ErrorDetail{
		Code:    "TooManyDetails",
		Message: fmt.Sprintf("%d more problems not shown; fix the ones above and retry", len(details)-MaxErrorDetails),
	})
}

// ErrorResponse is the ARM error envelope: {"error": {...}}.
type ErrorResponse struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is one error; Details nest (schema diagnostics are details
// with code = rule id, target = JSON path).
type ErrorDetail struct {
	Code    string        `json:"code"`
	Message string        `json:"message"`
	Target  string        `json:"target,omitempty"`
	Details []ErrorDetail `json:"details,omitempty"`
}

// Diagnostic is the wire form of a compiler diagnostic, mirroring
// generator/diag.Diagnostic without importing it.
type Diagnostic struct {
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Severity string `json:"severity"` // "error" or "warning"
	Rule     string `json:"rule"`
	Path     string `json:"path,omitempty"`
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
}

// IsError reports whether the diagnostic is an error (not a warning).
func (d Diagnostic) IsError() bool { return d.Severity != "warning" }

// InProgress reports whether a response of status with error code and
// message is UCP's refusal of a write to a resource whose previous write
// is still running (409 Conflict "The target resource is in progress
// state: ..."): the write may succeed once that operation ends, seconds
// later, so clients retry it with a longer backoff than Retryable's.
func InProgress(status int, code, message string) bool {
	return status == 409 && code == CodeConflict && strings.HasPrefix(message, "The target resource is in progress state")
}

// Retryable reports whether a response of status with error code is worth
// retrying: 429, any 5xx but a 508 (a forwarding loop, which a retry
// meets again), and a 409 of a concurrent write (CodeAnotherOperation),
// never another 409.
func Retryable(status int, code string) bool {
	switch {
	case status == 508: // Loop Detected
		return false
	case status == 409: // Conflict (net/http's constants would import net/http here)
		return code == CodeAnotherOperation
	case status == 429, status >= 500: // Too Many Requests, server errors
		return true
	}
	return false
}
