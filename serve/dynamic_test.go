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

// TestDynamicCode: code a page sets at run time (an event handler
// attribute by setAttribute, clicked twice; classic script elements
// inserted with their text, one inside a fragment; a module script
// element; a handler attribute in HTML written with innerHTML) runs
// instrumented, through the instrument service, each a
// script of the trace, with the results it gives untraced.
func TestDynamicCode(t *testing.T) {
	dir := filepath.Join("testdata", "dynamic")
	plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer plain.Close()
	want := pageResults(t, plain.URL+"/index.html")
	if !strings.Contains(want, `"module":{"meta":"object"}`) || !strings.Contains(want, `"n":2`) {
		t.Fatalf("untraced, the page gives %s", want)
	}
	s := startServe(t, dir)
	if got := pageResults(t, s.url+"/index.html"); got != want {
		t.Fatalf("traced, the page gives\n%s\nuntraced\n%s", got, want)
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
	kinds := map[string]int{}
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		if e.Kind == trace.ScriptEnter && strings.Contains(e.Name, "-dyn") {
			kinds[e.Name[strings.LastIndex(e.Name, "#")+1:strings.LastIndex(e.Name, "-dyn")]]++
		}
	}
	if kinds["onclick"] != 2 || kinds["script"] != 3 {
		t.Fatalf("scripts made at run time in the trace: %v (want onclick 2, script 3)", kinds)
	}
	// The handler in HTML written with innerHTML ran instrumented.
	r = trace.NewReader(bytes.NewReader(data))
	inner := false
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		inner = inner || e.Kind == trace.ScriptEnter && strings.Contains(e.Name, "#html-") && strings.HasSuffix(e.Name, "#onclick-1")
	}
	if !inner || !strings.Contains(want, `"inner":{"ok":"ih"}`) {
		t.Fatalf("the innerHTML handler did not run instrumented (results %s)", want)
	}
}

// TestDocumentWrite: HTML a page writes with document.write while it is
// parsed (a script element, a handler attribute) is rewritten by the
// server before the parser reads it: the written script and the handler
// run instrumented, scripts of the trace named PAGE#write-N#..., with the
// page's untraced results.
func TestDocumentWrite(t *testing.T) {
	dir := filepath.Join("testdata", "write")
	plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer plain.Close()
	want := pageResults(t, plain.URL+"/index.html")
	if !strings.Contains(want, `"made":2`) || !strings.Contains(want, `"clicked":{"ok":true}`) {
		t.Fatalf("untraced, the page gives %s", want)
	}
	s := startServe(t, dir)
	if got := pageResults(t, s.url+"/index.html"); got != want {
		t.Fatalf("traced, the page gives\n%s\nuntraced\n%s", got, want)
	}
	sessions := waitSessions(t, s.c, 1)
	if sessions[0].Status != tracedir.StatusComplete {
		t.Fatalf("the session ended %s: %s", sessions[0].Status, sessions[0].Reason)
	}
	data, err := os.ReadFile(filepath.Join(s.c.Out(), s.c.Sessions()[0], tracedir.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	r := trace.NewReader(bytes.NewReader(data))
	names := map[string]bool{}
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		if e.Kind == trace.ScriptEnter {
			names[e.Name] = true
		}
	}
	if !names["/index.html#write-1#inline-1"] || !names["/index.html#write-2#onclick-1"] {
		t.Fatalf("the trace's scripts: %v", names)
	}
}
