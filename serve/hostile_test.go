package serve

import (
	"path/filepath"
	"testing"
)

// TestHostilePage: a page that replaces JSON, WebSocket, WeakMap,
// Math.random, XMLHttpRequest, Object.defineProperty, Array.prototype's
// push, shift, pop, slice and iterator, appendChild, addEventListener and
// setTimeout after the shim started works as it does untraced (no page
// error, the same result), and its trace still arrives complete and
// passes every rule: the shim uses the natives it found first.
func TestHostilePage(t *testing.T) {
	s := startServe(t, filepath.Join("testdata", "hostile"))
	if res, want := pageValue(t, s.url+"/index.html", `JSON.stringify(window.result)`), `{"items":5,"kept":2500,"random":0.5,"logged":true}`; res != want {
		t.Fatalf("the page's result: %s, want %s", res, want)
	}
	completeTrace(t, s.c)
}
