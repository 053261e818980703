package serve

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

// openPage opens page in a headless Chromium of its own (page errors fail
// the test) and waits until it sets window.__memTestDone; the context
// is good for a further 30 s.
func openPage(t *testing.T, page string) context.Context {
	t.Helper()
	ctx := pageBrowser(t, page)
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	t.Cleanup(cancel)
	if err := chromedp.Do(tctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	waitDone(t, tctx)
	return tctx
}

// pageBrowser is newBrowser for page, whose errors fail the test.
func pageBrowser(t *testing.T, page string) context.Context {
	t.Helper()
	ctx := newBrowser(t)
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*cdpruntime.EventExceptionThrown); ok {
			t.Errorf("%s: page error: %s %v", page, e.ExceptionDetails.Text, e.ExceptionDetails.Exception.Description)
		}
	}); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// waitDone waits until the page of ctx sets window.__memTestDone.
func waitDone(t *testing.T, ctx context.Context) {
	t.Helper()
	for done := false; !done; time.Sleep(50 * time.Millisecond) {
		var err error
		done, err = chromedp.Run(ctx, chromedp.Evaluate[bool]("window.__memTestDone === true"))
		if ctx.Err() != nil {
			t.Fatalf("the page did not finish: %v", err)
		}
	}
}

// leave navigates the page of ctx away (pagehide ends its trace).
func leave(t *testing.T, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
}

// pageValue opens page, waits for it, evaluates expr (a string), leaves
// the page and returns expr's value.
func pageValue(t *testing.T, page, expr string) string {
	t.Helper()
	ctx := openPage(t, page)
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // what the shim holds goes out
	leave(t, ctx)
	return v
}

// pageResults is pageValue of window.results as JSON.
func pageResults(t *testing.T, page string) string {
	t.Helper()
	return pageValue(t, page, "JSON.stringify(window.results)")
}

// tracedAlike runs the app in dir's page untraced (a static server) and
// through memtrace serve, requires the same value of expr from both, and
// returns it with the traced run's server and trace, which is complete
// and passes every rule.
func tracedAlike(t *testing.T, dir, expr string) (string, *served, []byte) {
	t.Helper()
	plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer plain.Close()
	want := pageValue(t, plain.URL+"/index.html", expr)
	s := startServe(t, dir)
	if got := pageValue(t, s.url+"/index.html", expr); got != want {
		t.Fatalf("traced, the page gives\n%s\nuntraced\n%s", got, want)
	}
	return want, s, completeTrace(t, s.c)
}

// completeTrace waits for the one session of c to end, requires it
// complete with a trace that passes every rule, and returns the trace.
func completeTrace(t *testing.T, c *collector.Collector) []byte {
	t.Helper()
	sessions := waitSessions(t, c, 1)
	if sessions[0].Status != tracedir.StatusComplete {
		t.Fatalf("the session ended %s: %s", sessions[0].Status, sessions[0].Reason)
	}
	data, err := os.ReadFile(filepath.Join(c.Out(), c.Sessions()[0], tracedir.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := trace.Check(bytes.NewReader(data), 10)
	if err != nil || !rep.OK() {
		t.Fatalf("trace check: %v %v", err, rep.Findings)
	}
	return data
}

// scriptNames counts the SCRIPT_ENTERs of a trace by name.
func scriptNames(data []byte) map[string]int {
	out := map[string]int{}
	r := trace.NewReader(bytes.NewReader(data))
	for {
		e, err := r.Next()
		if err != nil {
			return out
		}
		if e.Kind == trace.ScriptEnter {
			out[e.Name]++
		}
	}
}
