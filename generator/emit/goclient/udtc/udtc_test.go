package udtc

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

func TestResponseError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Header.Get("Authorization") != "Bearer s3cret":
			http.Error(w, "no token", http.StatusUnauthorized)
		case r.URL.Query().Get("api-version") != "2025-01-01":
			http.Error(w, "bad version", http.StatusBadRequest)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error": {"code": "InvalidRequestContent", "message": "2 problems", "details": [
				{"code": "InvalidEnum", "target": "properties.sku", "message": "must be one of basic"},
				{"code": "UnknownProperty", "target": "properties.extra", "message": "not declared"}]}}`))
		}
	}))
	defer srv.Close()

	c := NewClient(ClientOptions{Endpoint: srv.URL + "/", Token: "s3cret"}, "2025-01-01")
	_, err := Put(context.Background(), c, "/x", &struct{}{})
	var re *ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a *ResponseError", err)
	}
	if re.StatusCode != 400 || re.Code != "InvalidRequestContent" || len(re.Details) != 2 {
		t.Errorf("ResponseError = %+v", re)
	}
	for _, want := range []string{"400 InvalidRequestContent", "properties.sku: InvalidEnum", "properties.extra: UnknownProperty"} {
		if !strings.Contains(re.Error(), want) {
			t.Errorf("Error() = %q, want it to contain %q", re.Error(), want)
		}
	}

	// A body that is not an ARM error keeps the status and the text.
	_, err = Get[struct{}](context.Background(), NewClient(ClientOptions{Endpoint: srv.URL}, "2025-01-01"), "/x")
	if !errors.As(err, &re) || re.StatusCode != 401 || re.Code != "Unauthorized" || re.Message != "no token" {
		t.Errorf("non-ARM error = %+v", re)
	}
}

func TestParseResourceID(t *testing.T) {
	s := "/planes/radius/local/resourceGroups/rg/providers/Contoso.Bus/buses/b1/queues/q1"
	id, err := ParseResourceID(s)
	if err != nil {
		t.Fatal(err)
	}
	if id.Namespace() != "Contoso.Bus" || !slices.Equal(id.Types(), []string{"buses", "queues"}) ||
		!slices.Equal(id.Names(), []string{"b1", "q1"}) || id.Scope() != "/planes/radius/local/resourceGroups/rg" || id.String() != s {
		t.Errorf("ParseResourceID = %#v", id)
	}
	for _, bad := range []string{"", "planes/x/providers/A.B/t/n", "/rg/providers/A.B/t", "/rg/providers/A.B/t/", "/rg/providers//t/n", "/rg/resources/A.B/t/n"} {
		if _, err := ParseResourceID(bad); err == nil {
			t.Errorf("ParseResourceID(%q): want an error", bad)
		}
	}
	var back ResourceID
	if err := back.UnmarshalText([]byte(s)); err != nil || back.String() != s {
		t.Errorf("UnmarshalText = %v, %v", back, err)
	}
}

func TestScope(t *testing.T) {
	c := NewClient(ClientOptions{Plane: "p"}, "v")
	for in, want := range map[string]string{"": "/planes/radius/p", "rg": "/planes/radius/p/resourceGroups/rg", "/x/y": "/x/y"} {
		if got := c.Scope(in); got != want {
			t.Errorf("Scope(%q) = %q, want %q", in, got, want)
		}
	}
	if got := NewClient(ClientOptions{}, "v").Scope(""); got != "/planes/radius/local" {
		t.Errorf("default plane: %q", got)
	}
}
