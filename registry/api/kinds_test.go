package api

import (
	"encoding/json"
	"testing"
)

func TestKinds(t *testing.T) {
	want := map[Kind][3]string{
		KindPlane:        {"plane", "plane", "System.Planes/radius"},
		KindProvider:     {"resource provider", "resourceProvider", "System.Resources/resourceProviders"},
		KindResourceType: {"resource type", "resourceType", "System.Resources/resourceProviders/resourceTypes"},
		KindAPIVersion:   {"API version", "apiVersion", "System.Resources/resourceProviders/resourceTypes/apiVersions"},
		KindLocation:     {"location", "location", "System.Resources/resourceProviders/locations"},
	}
	for k, w := range want {
		if got := [3]string{k.String(), k.Ident(), k.WireType()}; got != w {
			t.Errorf("kind %d = %q, want %q", int(k), got, w)
		}
		b, err := json.Marshal(k)
		var back Kind
		if err != nil || json.Unmarshal(b, &back) != nil || back != k || string(b) != `"`+w[1]+`"` {
			t.Errorf("kind %d JSON %s round-trips to %d (%v)", int(k), b, int(back), err)
		}
	}
	if Kind(0).Valid() || Kind(6).Valid() || Kind(9).WireType() != "" || Kind(7).String() != "Kind(7)" {
		t.Error("invalid kinds")
	}
	if _, err := json.Marshal(Kind(0)); err == nil {
		t.Error("Kind(0) marshals")
	}
	var k Kind
	if err := json.Unmarshal([]byte(`"resourceTypes"`), &k); err == nil {
		t.Error("unknown kind unmarshals")
	}
}
