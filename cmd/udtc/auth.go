package main

import (
	"fmt"
	"net/http"

	"github.com/udtc/udtc/registry/client"
)

// authError explains a 401 or 403 from the registry by what was sent: no
// token at all, a token the server does not accept, or a token that is
// accepted but not allowed to do this, or a request refused without a
// token. It returns nil for other errors.
func (f *serverFlags) authError(err error) error {
	code := client.StatusCode(err)
	switch {
	case code == http.StatusUnauthorized && f.tokenFile == "":
		return fail(exitFail, fmt.Errorf("%s requires a token and none was sent: pass --token-file FILE (or set UDTC_TOKEN_FILE)", f.server))
	case code == http.StatusUnauthorized:
		return fail(exitFail, fmt.Errorf("%s rejected the token in --token-file %s (401 Unauthorized): it is not one of the server's tokens", f.server, f.tokenFile))
	case code == http.StatusForbidden && f.tokenFile == "":
		// No token to blame: the server refused the request itself (a
		// Host it does not answer to, udtc serve --allowed-hosts).
		return fail(exitFail, fmt.Errorf("%s refused this request (403 Forbidden): %v", f.server, err))
	case code == http.StatusForbidden:
		return fail(exitFail, fmt.Errorf("%s accepted the token in --token-file %s but does not allow this request (403 Forbidden): %v", f.server, f.tokenFile, err))
	}
	return nil
}
