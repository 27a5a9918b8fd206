package admission

import (
	"encoding/base64"
	"errors"
	"math"
	"net/mail"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// The formats admission validates: the string formats `udtc check` accepts
// and the integer widths. Other formats (binary, password, float, double and
// those the checker only warns about) constrain nothing. The validators are
// handed to kin-openapi with every validation (WithStringFormatValidators),
// never registered in its package-level maps, and formats without a
// validator here are not given to kin-openapi at all, so whatever another
// part of the process registers globally cannot change admission.

var stringFormats = map[string]func(string) bool{
	"email":     isEmail,
	"uuid":      uuidRE.MatchString,
	"date-time": isDateTime,
	"date":      isDate,
	"uri":       isURI,
	"hostname":  isHostname,
	"ipv4":      func(s string) bool { a, err := netip.ParseAddr(s); return err == nil && a.Is4() },
	"ipv6":      func(s string) bool { a, err := netip.ParseAddr(s); return err == nil && a.Is6() && a.Zone() == "" },
	"byte":      isBase64,
}

var integerFormats = map[string][2]int64{
	"int32": {math.MinInt32, math.MaxInt32},
	"int64": {math.MinInt64, math.MaxInt64},
}

// formatNames says what each format means, for messages.
var formatNames = map[string]string{
	"email": "an email address", "uuid": "a UUID", "date-time": "an RFC 3339 date-time such as 2025-01-31T12:00:00Z",
	"date": "an RFC 3339 date such as 2025-01-31", "uri": "an absolute URI", "hostname": "a host name",
	"ipv4": "an IPv4 address", "ipv6": "an IPv6 address", "byte": "base64-encoded data",
	"int32": "a 32-bit integer", "int64": "a 64-bit integer",
}

func formatApplies(f string, k kind) bool {
	switch k {
	case kindString:
		return stringFormats[f] != nil
	case kindInteger:
		_, ok := integerFormats[f]
		return ok
	}
	return false
}

var errFormat = errors.New("does not match the format")

// validationOptions are the kin-openapi options of every validation.
func validationOptions() []openapi3.SchemaValidationOption {
	strs := make(map[string]openapi3.StringFormatValidator, len(stringFormats))
	for name, ok := range stringFormats {
		strs[name] = openapi3.NewCallbackValidator(func(s string) error {
			if !ok(s) {
				return errFormat
			}
			return nil
		})
	}
	ints := make(map[string]openapi3.IntegerFormatValidator, len(integerFormats))
	for name, r := range integerFormats {
		ints[name] = openapi3.NewRangeFormatValidator(r[0], r[1])
	}
	return []openapi3.SchemaValidationOption{
		openapi3.MultiErrors(),
		openapi3.DisableSchemaErrorDetails(),
		openapi3.DisablePatternValidation(), // patterns are matched here, as ECMA-262
		openapi3.WithStringFormatValidators(strs),
		openapi3.WithIntegerFormatValidators(ints),
		// No number formats are validated: an empty map, so the global one is not consulted
		// for formats given to kin-openapi (none are, for numbers).
		openapi3.WithNumberFormatValidators(map[string]openapi3.NumberFormatValidator{}),
	}
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && a.Name == ""
}

func isDateTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

func isDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

func isURI(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && !strings.ContainsAny(s, " \t\n\r")
}

// isHostname follows RFC 1123: dot-separated labels of letters, digits and
// hyphens, each 1 to 63 characters, not starting or ending with a hyphen;
// 253 characters at most.
func isHostname(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

func isBase64(s string) bool {
	_, err := base64.StdEncoding.DecodeString(s)
	return err == nil
}
