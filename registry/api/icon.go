package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Resource type icons: an SVG document a type carries in
// properties.icon, as Radius's UCP takes it (rad resource-type create
// --icon). The registry stores it verbatim, names it by IconHash, and
// serves it at .../resourceTypes/{type}/icons/{hash} as IconMediaType.

// MaxIconBytes is the largest icon accepted: 32 KiB, Radius's limit.
const MaxIconBytes = 32 << 10

// IconMediaType is the media type an icon is served as: icons are SVG
// documents only.
const IconMediaType = "image/svg+xml; charset=utf-8"

// DefaultIcon is the icon of a resource type registered without one: UCP
// answers such a type with the hash of its product default icon and serves
// that icon, so that every type has one (Radius's SDK GetIcon, the
// dashboard). This one is udtc's own drawing, a cube, so its hash differs
// from UCP's.
const DefaultIcon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
	`<path d="M16 3 28 9.5v13L16 29 4 22.5v-13Z" fill="#e8eef7" stroke="#3b5b8c" stroke-width="1.5" stroke-linejoin="round"/>` +
	`<path d="M4 9.5 16 16l12-6.5M16 16v13" fill="none" stroke="#3b5b8c" stroke-width="1.5" stroke-linejoin="round"/>` +
	`</svg>`

// DefaultIconHash is IconHash(DefaultIcon).
var DefaultIconHash = IconHash(DefaultIcon)

// IconHash names an icon: the lower-case hex SHA-256 of its UTF-8 bytes,
// as UCP computes properties.iconHash.
func IconHash(svg string) string {
	sum := sha256.Sum256([]byte(svg))
	return hex.EncodeToString(sum[:])
}

// Elements and attributes an icon may not use: anything that runs code,
// loads other documents or styles the page it is shown in, and SMIL
// animation (which can rewrite the other attributes).
var (
	iconForbiddenElements = []string{"script", "style", "foreignObject", "animate", "animateMotion", "animateTransform", "set", "discard"}
	// iconReferenceAttributes may refer only to fragments of the icon
	// itself (url(#id)).
	iconReferenceAttributes = []string{"fill", "stroke", "filter", "mask", "clip-path", "marker", "marker-start", "marker-mid", "marker-end", "cursor"}
)

// IconProblem explains why svg is not an icon the registry takes, or
// returns "": it must be a well-formed XML document of at most
// MaxIconBytes whose root element is <svg>, without scripts, styles,
// foreign objects or animation elements, without event handler (on*) or
// style attributes, whose href and xlink:href are empty, a #fragment or a
// data: URL, and whose paint and reference attributes (fill, stroke,
// filter, mask, clip-path, marker*, cursor) use no url() but url(#...).
func IconProblem(svg string) string {
	switch {
	case strings.TrimSpace(svg) == "":
		return "the icon is empty"
	case len(svg) > MaxIconBytes:
		return fmt.Sprintf("the icon is %d bytes, which exceeds the %d byte limit", len(svg), MaxIconBytes)
	}
	dec := xml.NewDecoder(strings.NewReader(svg))
	dec.Strict = true
	root := true
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "the icon is not well-formed XML: " + err.Error()
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root && !strings.EqualFold(el.Name.Local, "svg") {
			return fmt.Sprintf("the icon's root element is <%s>; an icon is an <svg> document", el.Name.Local)
		}
		root = false
		if p := iconElementProblem(el); p != "" {
			return p
		}
	}
	if root {
		return "the icon has no <svg> element"
	}
	return ""
}

// iconElementProblem explains why the element el may not be in an icon.
func iconElementProblem(el xml.StartElement) string {
	for _, f := range iconForbiddenElements {
		if strings.EqualFold(el.Name.Local, f) {
			return fmt.Sprintf("the icon has a <%s> element, which icons may not use", el.Name.Local)
		}
	}
	for _, a := range el.Attr {
		name := strings.ToLower(a.Name.Local)
		switch {
		case strings.HasPrefix(name, "on"):
			return fmt.Sprintf("<%s> has the event handler attribute %s, which icons may not use", el.Name.Local, a.Name.Local)
		case name == "style":
			return fmt.Sprintf("<%s> has a style attribute, which icons may not use", el.Name.Local)
		case name == "href":
			if !iconLocalHref(a.Value) {
				return fmt.Sprintf("<%s> refers to %.80q; an icon may refer only to its own fragments (#id) and data: URLs", el.Name.Local, a.Value)
			}
		default:
			if p := iconReferenceProblem(name, a.Value); p != "" {
				return fmt.Sprintf("<%s> attribute %s %s", el.Name.Local, a.Name.Local, p)
			}
		}
	}
	return ""
}

// iconLocalHref reports whether an href stays inside the icon: empty, a
// fragment, or a data: URL, without backslashes.
func iconLocalHref(v string) bool {
	v = strings.TrimSpace(v)
	if strings.Contains(v, `\`) {
		return false
	}
	return v == "" || strings.HasPrefix(v, "#") || strings.HasPrefix(strings.ToLower(v), "data:")
}

// iconReferenceProblem explains why the value of the attribute name
// refers outside the icon ("" when it does not, or the attribute is not a
// reference attribute).
func iconReferenceProblem(name, v string) string {
	found := false
	for _, r := range iconReferenceAttributes {
		found = found || name == r
	}
	if !found {
		return ""
	}
	if strings.Contains(v, `\`) {
		return "has a backslash"
	}
	rest := strings.ToLower(v)
	for {
		i := strings.Index(rest, "url(")
		if i < 0 {
			return ""
		}
		rest = strings.TrimLeft(rest[i+len("url("):], " \t\r\n'\"")
		end := strings.IndexByte(rest, ')')
		switch {
		case end < 0:
			return "has an unclosed url("
		case !strings.HasPrefix(rest, "#"):
			return fmt.Sprintf("refers to %.80q; icons may use url(#id) references only", v)
		}
		rest = rest[end+1:]
	}
}
