package api

import (
	"strings"
	"testing"
)

func TestIconProblem(t *testing.T) {
	const ok = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 16 16">` +
		`<defs><linearGradient id="g"/></defs><rect width="16" height="16" fill="url(#g)" stroke="red"/>` +
		`<use xlink:href="#g"/><image href="data:image/png;base64,AAAA"/></svg>`
	if p := IconProblem(ok); p != "" {
		t.Fatalf("IconProblem(valid icon) = %q", p)
	}
	if p := IconProblem(`<?xml version="1.0"?><!-- an icon --><SVG></SVG>`); p != "" {
		t.Errorf("IconProblem(prolog, comment, upper-case svg) = %q", p)
	}
	for _, tc := range []struct{ svg, want string }{
		{"", "empty"},
		{"  \n", "empty"},
		{"<svg>" + strings.Repeat(" ", MaxIconBytes) + "</svg>", "exceeds the 32768 byte limit"},
		{"<svg><g></svg>", "not well-formed"},
		{"not xml at all", "no <svg> element"},
		{`<html><svg/></html>`, "root element is <html>"},
		{`<svg><script>alert(1)</script></svg>`, "<script>"},
		{`<svg><style>*{}</style></svg>`, "<style>"},
		{`<svg><foreignObject/></svg>`, "<foreignObject>"},
		{`<svg><animate attributeName="href"/></svg>`, "<animate>"},
		{`<svg><set to="x"/></svg>`, "<set>"},
		{`<svg onload="x()"/>`, "event handler attribute onload"},
		{`<svg><rect ONCLICK="x()"/></svg>`, "event handler"},
		{`<svg><rect style="fill:red"/></svg>`, "style attribute"},
		{`<svg><a href="https://example.com"/></svg>`, "refers to"},
		{`<svg xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="other.svg#x"/></svg>`, "refers to"},
		{`<svg><use href="#a\b"/></svg>`, "refers to"},
		{`<svg><rect fill="url(https://x/y.svg#a)"/></svg>`, "url(#id) references only"},
		{`<svg><rect fill="url(#a) url(http://x)"/></svg>`, "url(#id) references only"},
		{`<svg><rect mask="url(#a"/></svg>`, "unclosed url("},
		{`<svg><rect cursor="url(#a)\x"/></svg>`, "backslash"},
	} {
		got := IconProblem(tc.svg)
		if !strings.Contains(got, tc.want) {
			t.Errorf("IconProblem(%.60q) = %q; want it to mention %q", tc.svg, got, tc.want)
		}
	}
}

func TestIconHash(t *testing.T) {
	// sha256 of the exact bytes, lower-case hex, as UCP names icons.
	if got, want := IconHash("<svg/>"), "d4dc56669143034f31aa309635d4113d9ad76a02b1739da22c965ed2049be9e6"; got != want {
		t.Errorf("IconHash = %q, want %q", got, want)
	}
}

// TestEmptyMapsEncoded: the maps Radius's clients write into after reading
// them back are encoded {} when empty, never omitted or null.
func TestEmptyMapsEncoded(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{LocationProperties{}, `{"resourceTypes":{}}`},
		{LocationProperties{ResourceTypes: map[string]LocationResourceType{"a": {}}}, `{"resourceTypes":{"a":{"apiVersions":{}}}}`},
		{PlaneProperties{}, `{"resourceProviders":{}}`},
		{LocationProperties{Address: "http://x/?a=1&b=<2>"}, `{"address":"http://x/?a=1&b=<2>","resourceTypes":{}}`},
	} {
		got, err := Marshal(tc.v)
		if err != nil || string(got) != tc.want {
			t.Errorf("Marshal(%+v) = %s, %v; want %s", tc.v, got, err, tc.want)
		}
	}
}
