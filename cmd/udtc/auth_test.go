package main

import (
	"strings"
	"testing"

	"github.com/udtc/udtc/registry/client"
)

// A 403 without a token blames the server's refusal, not a token.
func TestAuthErrorForbidden(t *testing.T) {
	refused := &client.Error{StatusCode: 403, Code: "Forbidden", Message: `Host "reg.example:7443" is not a name of this registry`}
	err := (&serverFlags{server: "http://reg.example:7443"}).authError(refused)
	if err == nil || strings.Contains(err.Error(), "token") || !strings.Contains(err.Error(), "is not a name of this registry") {
		t.Errorf("without a token: %v", err)
	}
	err = (&serverFlags{server: "http://reg.example:7443", tokenFile: "tok"}).authError(refused)
	if err == nil || !strings.Contains(err.Error(), "accepted the token in --token-file tok") {
		t.Errorf("with a token: %v", err)
	}
}
