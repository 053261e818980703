package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
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
	sessions := waitSessions(t, s.c, 1)
	if sessions[0].Status != tracedir.StatusComplete {
		t.Fatalf("the session ended %s: %s", sessions[0].Status, sessions[0].Reason)
	}
	data, err := os.ReadFile(filepath.Join(s.c.Out(), s.c.Sessions()[0], tracedir.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := trace.Check(bytes.NewReader(data), 10)
	if err != nil || !rep.OK() {
		t.Fatalf("trace check: %v %v", err, rep.Findings)
	}
}
