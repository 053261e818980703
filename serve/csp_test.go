package serve

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/memtrace/memtrace/tracedir"
)

// TestContentSecurityPolicy: a page whose meta Content-Security-Policy
// allows its inline script and its onclick handler by hash and no
// connection at all runs traced as untraced: the policy gets the hashes
// of the instrumented script and handler beside the old ones, and the
// shim's own origin in connect-src, so that the trace arrives complete.
func TestContentSecurityPolicy(t *testing.T) {
	dir := filepath.Join("testdata", "csp")
	plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer plain.Close()
	want := pageResults(t, plain.URL+"/index.html")
	if want != `{"inline":true,"handler":true,"app":true}` {
		t.Fatalf("untraced, the page gives %s", want)
	}
	s := startServe(t, dir)
	if got := pageResults(t, s.url+"/index.html"); got != want {
		t.Fatalf("traced, the page gives %s, untraced %s", got, want)
	}
	sessions := waitSessions(t, s.c, 1)
	if sessions[0].Status != tracedir.StatusComplete {
		t.Fatalf("the session ended %s: %s", sessions[0].Status, sessions[0].Reason)
	}
}
