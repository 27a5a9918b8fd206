package client

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/udtc/udtc/registry/api"
)

// encodeBatch gives json.Marshal's bytes for bodies json.Marshal made.
func TestEncodeBatchMatchesMarshal(t *testing.T) {
	body := func(v any) json.RawMessage {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, req := range []api.BatchRequest{
		{Requests: []api.BatchWrite{}},
		{Requests: []api.BatchWrite{
			{Method: "PUT", Path: "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Data", Body: body(api.ResourceProvider{Location: "global"})},
			{Method: "PUT", Path: "/p/a%2Fb\"<&>", Body: body(api.APIVersion{Properties: api.APIVersionProperties{Schema: json.RawMessage(`{"description":"<a & b>\u2028","enum":["x"]}`)}})},
			{Method: "DELETE", Path: "/planes/radius/local/providers/System.Resources/resourceProviders/Contoso.Data/locations/east"},
		}},
	} {
		want, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		got, err := encodeBatch(req)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("encodeBatch:\n got %s, %v\nwant %s", got, err, want)
		}
	}
}
