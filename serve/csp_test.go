package serve

import (
	"path/filepath"
	"testing"
)

// TestContentSecurityPolicy: a page whose meta Content-Security-Policy
// allows its inline script and its onclick handler by hash and no
// connection at all runs traced as untraced: the policy gets the hashes
// of the instrumented script and handler beside the old ones, and the
// shim's own origin in connect-src, so that the trace arrives complete.
func TestContentSecurityPolicy(t *testing.T) {
	want, _, _ := tracedAlike(t, filepath.Join("testdata", "csp"), "JSON.stringify(window.results)")
	if want != `{"inline":true,"handler":true,"app":true}` {
		t.Fatalf("the page gives %s", want)
	}
}
