package ocitest

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The token server's names, which the registry's configuration repeats.
const (
	tokenService = "ocitest-registry"
	tokenIssuer  = "ocitest-token-server"
)

// tokenServer implements the distribution token protocol
// (https://distribution.github.io/distribution/spec/auth/token/): a GET
// with Basic credentials and the scopes asked for returns a JWT signed
// with RS256 whose x5c header holds the certificate the registry trusts
// (rootcertbundle), granting every action asked for.
type tokenServer struct {
	realm   string
	certPEM []byte
	certDER []byte
	key     *rsa.PrivateKey
	users   map[string]string
}

func startTokenServer(t testing.TB, users map[string]string) (*tokenServer, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: tokenIssuer},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ts := &tokenServer{
		realm:   "http://" + ln.Addr().String() + "/token",
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		certDER: der,
		key:     key,
		users:   users,
	}
	srv := &http.Server{Handler: http.HandlerFunc(ts.serve), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ts, nil
}

type resourceActions struct {
	Type    string   `json:"type"`
	Name    string   `json:"name"`
	Actions []string `json:"actions"`
}

func (ts *tokenServer) serve(w http.ResponseWriter, r *http.Request) {
	user, pass, ok := r.BasicAuth()
	if want, known := ts.users[user]; !ok || !known || want != pass {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"errors":[{"code":"UNAUTHORIZED","message":"invalid username or password"}]}`)
		return
	}
	if r.URL.Query().Get("service") != tokenService {
		http.Error(w, "unknown service", http.StatusBadRequest)
		return
	}
	var access []resourceActions
	for _, param := range r.URL.Query()["scope"] {
		for _, scope := range strings.Fields(param) {
			typ, rest, _ := strings.Cut(scope, ":")
			i := strings.LastIndexByte(rest, ':')
			if i < 0 {
				continue
			}
			access = append(access, resourceActions{Type: typ, Name: rest[:i], Actions: strings.Split(rest[i+1:], ",")})
		}
	}
	tok, err := ts.sign(user, access)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"token": tok, "access_token": tok, "expires_in": 300})
}

func (ts *tokenServer) sign(user string, access []resourceActions) (string, error) {
	now := time.Now()
	var jti [8]byte
	rand.Read(jti[:])
	header, err := json.Marshal(map[string]any{"typ": "JWT", "alg": "RS256", "x5c": []string{base64.StdEncoding.EncodeToString(ts.certDER)}})
	if err != nil {
		return "", err
	}
	claims, err := json.Marshal(map[string]any{
		"iss": tokenIssuer, "sub": user, "aud": tokenService,
		"exp": now.Add(5 * time.Minute).Unix(), "nbf": now.Add(-time.Minute).Unix(), "iat": now.Unix(),
		"jti": hex.EncodeToString(jti[:]), "access": access,
	})
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	signed := enc.EncodeToString(header) + "." + enc.EncodeToString(claims)
	sum := sha256.Sum256([]byte(signed))
	sig, err := rsa.SignPKCS1v15(rand.Reader, ts.key, crypto.SHA256, sum[:])
	if err != nil {
		return "", err
	}
	return signed + "." + enc.EncodeToString(sig), nil
}

var challengeParam = regexp.MustCompile(`(\w+)="([^"]*)"`)

// token gets a token for a Bearer challenge from its realm.
func (r *Registry) token(ctx context.Context, challenge, user, password string) (string, error) {
	params := map[string]string{}
	for _, m := range challengeParam.FindAllStringSubmatch(challenge, -1) {
		params[m[1]] = m[2]
	}
	q := url.Values{"service": {params["service"]}}
	if s := params["scope"]; s != "" {
		q.Set("scope", s)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, params["realm"]+"?"+q.Encode(), nil)
	if err != nil {
		return "", err
	}
	req.SetBasicAuth(user, password)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("token server: %s", resp.Status)
	}
	var body struct {
		Token string `json:"token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return "", err
	}
	return body.Token, nil
}

func basic(user, password string) string {
	return base64.StdEncoding.EncodeToString([]byte(user + ":" + password))
}
