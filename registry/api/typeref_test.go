package api

import (
	"strings"
	"testing"
)

func TestFullTypeNameProblem(t *testing.T) {
	for _, ok := range []string{"Contoso.Data/postgresDatabases", "Applications.Core/environments", "Contoso.Platform/contosoBuses/queues", "A.B/c"} {
		if p := FullTypeNameProblem(ok); p != "" {
			t.Errorf("%s: %s", ok, p)
		}
	}
	for bad, want := range map[string]string{
		"postgresDatabases":               "must be Namespace/type",
		"Contoso.Data/":                   "must be Namespace/type",
		"Contoso/postgresDatabases":       "namespace",
		"Contoso.Data/postgres_databases": "type name",
		"Contoso.Data/buses//queues":      "empty segment",
		"*":                               "must be Namespace/type",
	} {
		if p := FullTypeNameProblem(bad); !strings.Contains(p, want) {
			t.Errorf("%s: %q, want it to contain %q", bad, p, want)
		}
	}
}
