package serve

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

// TestModulePage: an ES module page with an import map (a bare
// specifier), a static import, a top-level await of a dynamic import and
// import.meta, served by memtrace serve, gives its untraced results, and
// every module is a script of the trace (module goal: the requests say
// so), whose original source the session's scripts/ keeps.
func TestModulePage(t *testing.T) {
	dir := filepath.Join("testdata", "modules")
	plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer plain.Close()
	want := pageResults(t, plain.URL+"/index.html")
	s := startServe(t, dir)
	got := pageResults(t, s.url+"/index.html")
	if got != want || want == "" {
		t.Fatalf("the page's results traced:\n%s\nuntraced:\n%s", got, want)
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
	r := trace.NewReader(bytes.NewReader(data))
	scripts := map[string]bool{}
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		if e.Kind == trace.ScriptEnter {
			scripts[e.Name] = true
		}
	}
	for _, name := range []string{"/index.html#inline-1", "/lib/shapes.js", "/lib/count.js", "/lib/lazy.js"} {
		if !scripts[name] {
			t.Errorf("no script %s in the trace: %v", name, scripts)
		}
	}
	// The session's scripts/ keeps each one's original source.
	sd := filepath.Join(s.c.Out(), s.c.Sessions()[0])
	for name, file := range map[string]string{"/lib/shapes.js": "lib/shapes.js", "/lib/lazy.js": "lib/lazy.js"} {
		src, err := tracedir.ScriptSource(sd, name)
		if err != nil {
			t.Fatal(err)
		}
		orig, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(src, orig) {
			t.Errorf("scripts/ keeps for %s %q, not its source", name, src)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	inline, err := tracedir.ScriptSource(sd, "/index.html#inline-1")
	if err != nil || !bytes.Contains(page, inline) || !bytes.Contains(inline, []byte("import { area, Square } from 'shapes';")) {
		t.Errorf("scripts/ keeps for the inline module %q (%v)", inline, err)
	}
}
