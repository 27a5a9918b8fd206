package api

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Lifecycle is an API version's deprecation and sunset, a udtc extension
// (UCP has no such property): declared once in udtc.yaml's `lifecycle`
// (generator/project), carried by the model to every output, registered
// as the API version's `lifecycle` property and announced by the
// registry on every request for the version's resources (Headers).
// Dates are YYYY-MM-DD, days in UTC.
type Lifecycle struct {
	// Deprecated is the date the version is deprecated from. Required.
	Deprecated string `json:"deprecated" yaml:"deprecated" jsonschema:"required,format=date,description=The date (YYYY-MM-DD) the API version is deprecated from: from the declaration on every output says so (Go // Deprecated: paragraphs; Bicep descriptions; docs; explain) and the registry answers requests for its resources with Deprecation and Sunset headers."`
	// Sunset is the date from which the registry refuses new resources of
	// the version; "" for none yet. Not before Deprecated.
	Sunset string `json:"sunset,omitempty" yaml:"sunset,omitempty" jsonschema:"format=date,description=The date (YYYY-MM-DD\\, not before deprecated) from which the registry refuses new resources of the API version; reads\\, updates and deletes of existing ones keep working."`
	// Replacement is the newer API version of the same type to move to;
	// "" when there is none.
	Replacement string `json:"replacement,omitempty" yaml:"replacement,omitempty" jsonschema:"description=The newer API version of the same type to move to."`
	// Message says why and what to do, one or two sentences.
	Message string `json:"message,omitempty" yaml:"message,omitempty" jsonschema:"description=Why and what to do\\, shown with the deprecation everywhere."`
}

// Problems returns what is wrong with l on its own, one sentence each,
// each naming its field: a date that is not YYYY-MM-DD, a missing
// deprecation date, a sunset before the deprecation, a replacement that is
// not an API version. That the replacement is a newer version of the same
// type is for the caller, who knows the type's versions.
func (l Lifecycle) Problems() []string {
	var out []string
	dep, depErr := parseDate(l.Deprecated)
	switch {
	case l.Deprecated == "":
		out = append(out, "deprecated: give the date (YYYY-MM-DD) the API version is deprecated from")
	case depErr != nil:
		out = append(out, fmt.Sprintf("deprecated: %q is not a date YYYY-MM-DD", l.Deprecated))
	}
	if l.Sunset != "" {
		sun, err := parseDate(l.Sunset)
		switch {
		case err != nil:
			out = append(out, fmt.Sprintf("sunset: %q is not a date YYYY-MM-DD", l.Sunset))
		case depErr == nil && l.Deprecated != "" && sun.Before(dep):
			out = append(out, fmt.Sprintf("sunset: %s is before the deprecation (%s): a version is deprecated first", l.Sunset, l.Deprecated))
		}
	}
	if l.Replacement != "" {
		if p := APIVersionProblem(l.Replacement); p != "" {
			out = append(out, fmt.Sprintf("replacement: %q: %s", l.Replacement, p))
		}
	}
	return out
}

func parseDate(s string) (time.Time, error) { return time.Parse(time.DateOnly, s) }

// DeprecatedTime and SunsetTime are the dates as the start of their day in
// UTC; the zero time when absent or invalid.
func (l Lifecycle) DeprecatedTime() time.Time { t, _ := parseDate(l.Deprecated); return t }

// SunsetTime: see DeprecatedTime.
func (l Lifecycle) SunsetTime() time.Time { t, _ := parseDate(l.Sunset); return t }

// SunsetAt reports whether the sunset has come at now.
func (l Lifecycle) SunsetAt(now time.Time) bool {
	s := l.SunsetTime()
	return !s.IsZero() && !now.Before(s)
}

// Notice is the sentence every output shows for API version version of
// type typ ("Contoso.Data/postgresDatabases"): "Contoso.Data/postgresDatabases@2025-01-01-preview
// is deprecated from 2026-06-01 and sunset on 2027-01-01 (no new
// resources from then); use 2025-09-01. <message>".
func (l Lifecycle) Notice(typ, version string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s@%s is deprecated from %s", typ, version, l.Deprecated)
	if l.Sunset != "" {
		fmt.Fprintf(&b, " and sunset on %s (no new resources from then)", l.Sunset)
	}
	if l.Replacement != "" {
		fmt.Fprintf(&b, "; use %s", l.Replacement)
	}
	b.WriteString(".")
	if m := strings.TrimSpace(l.Message); m != "" {
		b.WriteString(" ")
		b.WriteString(m)
	}
	return b.String()
}

// The headers the registry answers requests for a deprecated API
// version's resources with.
const (
	// HeaderDeprecation is RFC 9745's: "@" and the Unix time of the
	// deprecation (a time in the future announces it).
	HeaderDeprecation = "Deprecation"
	// HeaderSunset is RFC 8594's: the HTTP-date of the sunset.
	HeaderSunset = "Sunset"
	// HeaderWarning carries Notice as Kubernetes does: `299 - "notice"`.
	HeaderWarning = "Warning"
)

// Headers returns the header values announcing l for the API version
// version of typ: Deprecation, Sunset (when set) and Warning.
func (l Lifecycle) Headers(typ, version string) map[string]string {
	h := map[string]string{}
	if d := l.DeprecatedTime(); !d.IsZero() {
		h[HeaderDeprecation] = "@" + strconv.FormatInt(d.Unix(), 10)
	}
	if s := l.SunsetTime(); !s.IsZero() {
		h[HeaderSunset] = s.UTC().Format(httpDate)
	}
	h[HeaderWarning] = WarningValue(l.Notice(typ, version))
	return h
}

const httpDate = "Mon, 02 Jan 2006 15:04:05 GMT"

// WarningValue is text as the value of a Warning header (RFC 7234 §5.5,
// as Kubernetes sends it): `299 - "text"`, with quotes and backslashes
// escaped and control characters replaced by spaces.
func WarningValue(text string) string {
	var b strings.Builder
	b.WriteString(`299 - "`)
	for _, r := range text {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// ParseWarning returns the text of a Warning header value WarningValue
// wrote (any warn-code and agent), and false for another form.
func ParseWarning(v string) (string, bool) {
	i := strings.IndexByte(v, '"')
	if i < 0 || !strings.HasSuffix(v, `"`) || i == len(v)-1 {
		return "", false
	}
	var b strings.Builder
	body := v[i+1 : len(v)-1]
	for j := 0; j < len(body); j++ {
		if body[j] == '\\' && j+1 < len(body) {
			j++
		}
		b.WriteByte(body[j])
	}
	return b.String(), true
}
