package naming

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBicepExtension(t *testing.T) {
	for in, want := range map[string]string{
		"Contoso.Platform":   "contosoplatform",
		"Contoso.Data-Plane": "contosodataplane",
		"1Corp.Data":         "_1corpdata",
	} {
		if got := BicepExtension(in); got != want {
			t.Errorf("BicepExtension(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGoTypesRenameLaterClaimants(t *testing.T) {
	got, n := GoTypes([]string{"bus", "buses", "buses/queues"})
	want := []GoType{
		{Name: "Bus", ID: "BusID", NewID: "NewBusID", ParseID: "ParseBusID", TypeConst: "BusResourceType", APIConst: "BusAPIVersion", Client: "BusClient", NewClient: "NewBusClient"},
		{Name: "Bus2", ID: "Bus2ID", NewID: "NewBus2ID", ParseID: "ParseBus2ID", TypeConst: "Bus2ResourceType", APIConst: "Bus2APIVersion", Client: "Bus2Client", NewClient: "NewBus2Client",
			Renames: []Rename{{What: "type name", Want: "Bus", Got: "Bus2"}}},
		{Name: "BusQueue", ID: "BusQueueID", NewID: "NewBusQueueID", ParseID: "ParseBusQueueID", TypeConst: "BusQueueResourceType", APIConst: "BusQueueAPIVersion", Client: "BusQueueClient", NewClient: "NewBusQueueClient"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("GoTypes (-want +got):\n%s", d)
	}
	if name, renamed := n.Child().Claim("SystemData"); name != "SystemData2" || !renamed {
		t.Errorf("the reserved SystemData is free: %s", name)
	}
	if GoPackageDir("MyCompany.Resources") != "mycompanyresources" || GoVersionPackage("2025-01-01-preview") != "v20250101preview" {
		t.Error("package names")
	}
}

func TestArticle(t *testing.T) {
	for word, want := range map[string]string{"Acme.Storage/buckets": "an", "Contoso.Data/x": "a", "applications": "an", "": "a", "Umbrella": "an"} {
		if got := Article(word); got != want {
			t.Errorf("Article(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 problems", 1: "1 problem", 2: "2 problems"} {
		if got := Count(n, "problem"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
