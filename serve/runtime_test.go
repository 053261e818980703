package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

// TestRunTimeCodeInPages: a page's eval (direct and indirect), new
// Function and string timer, served by memtrace serve, run instrumented
// through the instrument service (each is a script of the trace, and the
// objects they make are the trace's) with the results, errors and
// Function.prototype.toString texts the page gets untraced; the session
// is complete and its trace passes every rule.
func TestRunTimeCodeInPages(t *testing.T) {
	dir := filepath.Join("testdata", "runtime")
	plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer plain.Close()
	want := pageResults(t, plain.URL+"/index.html")
	s := startServe(t, dir)
	got := pageResults(t, s.url+"/index.html")
	if got != want {
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
	// The scripts the run-time code made: eval (direct), evalIndirect
	// (indirect eval, the string timer), and new Function's.
	r := trace.NewReader(bytes.NewReader(data))
	scripts := map[string]int{}
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		if e.Kind == trace.ScriptEnter {
			scripts[e.Name]++
		}
	}
	if scripts["/runtime.js"] != 1 || len(scripts) < 3 {
		t.Fatalf("the trace's scripts: %v", scripts)
	}
	n := 0
	for name, k := range scripts {
		if name != "/runtime.js" {
			n += k
		}
	}
	if n < 5 {
		t.Fatalf("%d scripts of run-time code in the trace (%v), want 5: two evals, an indirect eval, new Function, a string timer", n, scripts)
	}
	t.Logf("scripts: %v", scripts)
}

// pageResults opens page, waits for window.__memTestDone, and returns
// window.results as JSON.
func pageResults(t *testing.T, page string) string {
	t.Helper()
	ctx := newBrowser(t)
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	for done := false; !done; time.Sleep(50 * time.Millisecond) {
		var err error
		done, err = chromedp.Run(tctx, chromedp.Evaluate[bool]("window.__memTestDone === true"))
		if tctx.Err() != nil {
			t.Fatalf("the page did not finish: %v", err)
		}
	}
	res, err := chromedp.Run(tctx, chromedp.Evaluate[string]("JSON.stringify(results)"))
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(res), &v); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	if err := chromedp.Do(tctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	return res
}
