package golden_test

import (
	"testing"

	msgids "github.com/udtc/udtc/golden/valid_child_types/go/contosomessaging/resourceids"
	msg20250101 "github.com/udtc/udtc/golden/valid_child_types/go/contosomessaging/v20250101"
	msg20250601preview "github.com/udtc/udtc/golden/valid_child_types/go/contosomessaging/v20250601preview"
)

const scope = "/planes/radius/local/resourceGroups/rg"

func TestIDRoundTrip(t *testing.T) {
	id := msg20250101.NewContosoBusQueueID(scope, "bus1", "q1")
	want := scope + "/providers/Contoso.Messaging/contosoBuses/bus1/queues/q1"
	if got := id.String(); got != want {
		t.Fatalf("String() = %q, want %q", got, want)
	}
	parsed, err := msg20250101.ParseContosoBusQueueID(want)
	if err != nil {
		t.Fatal(err)
	}
	if parsed != id {
		t.Errorf("Parse(String()) = %+v, want %+v", parsed, id)
	}
	// Namespace and type names match case-insensitively; names keep their case.
	parsed, err = msg20250101.ParseContosoBusQueueID(scope + "/PROVIDERS/contoso.messaging/ContosoBuses/Bus1/QUEUES/Q1")
	if err != nil {
		t.Fatal(err)
	}
	if parsed.ContosoBusName != "Bus1" || parsed.Name != "Q1" || parsed.Scope != scope {
		t.Errorf("case-insensitive parse = %+v", parsed)
	}
}

// TestOwner: a child's Owner is its parent's typed ID, even when the child
// (topics, 2025-06-01-preview) has no API version in common with its parent.
func TestOwner(t *testing.T) {
	topic := msg20250601preview.NewContosoBusTopicID(scope, "bus1", "t1")
	var owner msgids.ContosoBusID = topic.Owner() // the owner's kind is known at compile time
	if owner.Name != "bus1" || owner.Scope != scope {
		t.Errorf("Owner() = %+v", owner)
	}
	if got, want := owner.String(), scope+"/providers/Contoso.Messaging/contosoBuses/bus1"; got != want {
		t.Errorf("Owner().String() = %q, want %q", got, want)
	}
	// The version packages alias the same types.
	var fromV1 msg20250101.ContosoBusID = owner
	if fromV1 != msg20250101.NewContosoBusID(scope, "bus1") {
		t.Errorf("alias mismatch: %+v", fromV1)
	}
}

func TestParseIDErrors(t *testing.T) {
	for _, s := range []string{
		"",
		"providers/Contoso.Messaging/contosoBuses/bus1",                        // no leading slash
		scope + "/providers/Contoso.Messaging/contosoBuses/bus1",               // a bus, not a queue
		scope + "/providers/Other.Namespace/contosoBuses/bus1/queues/q1",       // wrong namespace
		scope + "/providers/Contoso.Messaging/contosoBuses/bus1/topics/q1",     // wrong child type
		scope + "/providers/Contoso.Messaging/contosoBuses//queues/q1",         // empty parent name
		scope + "/providers/Contoso.Messaging/contosoBuses/bus1/queues/",       // empty name
		scope + "/resources/Contoso.Messaging/contosoBuses/bus1/queues/q1",     // not /providers/
		scope + "/providers/Contoso.Messaging/contosoBuses/bus1/queues/q1/x/y", // too long
	} {
		if id, err := msg20250101.ParseContosoBusQueueID(s); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", s, id)
		}
	}
}

func TestResourceID(t *testing.T) {
	var r msg20250101.ContosoBusQueue
	if _, err := r.ResourceID(); err == nil {
		t.Error("ResourceID() with nil ID: want an error")
	}
	s := scope + "/providers/Contoso.Messaging/contosoBuses/b/queues/q"
	r.ID = &s
	id, err := r.ResourceID()
	if err != nil || id.Owner().Name != "b" || id.Name != "q" {
		t.Errorf("ResourceID() = %+v, %v", id, err)
	}
}
