package serve

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

// TestHandlerAttributes: a page's event handler attributes (onclick with
// this, event and the form's scope; onsubmit returning false) and
// javascript: URLs (one with a percent escape) run instrumented, each a
// script of the trace named PAGE#on<event>-k or PAGE#javascript-k, with
// the results they give untraced.
func TestHandlerAttributes(t *testing.T) {
	dir := filepath.Join("testdata", "handlers")
	plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer plain.Close()
	want := pageResults(t, plain.URL+"/index.html")
	s := startServe(t, dir)
	got := pageResults(t, s.url+"/index.html")
	if got != want {
		t.Fatalf("the page's results traced:\n%s\nuntraced:\n%s", got, want)
	}
	if !strings.Contains(want, `"n":2`) || !strings.Contains(want, `"percent":"100%"`) {
		t.Fatalf("the page did not run its handlers: %s", want)
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
	scripts := map[string]int{}
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		if e.Kind == trace.ScriptEnter {
			scripts[e.Name[strings.LastIndex(e.Name, "#")+1:]]++
		}
	}
	for _, name := range []string{"onsubmit-1", "onclick-2", "javascript-3", "javascript-4"} {
		if scripts[name] == 0 {
			t.Errorf("no script %s in the trace: %v", name, scripts)
		}
	}
	if scripts["onclick-2"] != 2 {
		t.Errorf("the onclick handler ran %d times in the trace, want 2", scripts["onclick-2"])
	}
}
