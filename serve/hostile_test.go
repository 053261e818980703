package serve

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

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
	dir := filepath.Join("testdata", "hostile")
	s := startServe(t, dir)
	ctx := newBrowser(t)
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*cdpruntime.EventExceptionThrown); ok {
			t.Errorf("page error: %s %v", e.ExceptionDetails.Text, e.ExceptionDetails.Exception.Description)
		}
	}); err != nil {
		t.Fatal(err)
	}
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(s.url+"/index.html")); err != nil {
		t.Fatal(err)
	}
	for done := false; !done; time.Sleep(50 * time.Millisecond) {
		var err error
		done, err = chromedp.Run(tctx, chromedp.Evaluate[bool]("window.__memTestDone === true"))
		if tctx.Err() != nil {
			t.Fatalf("the page did not finish: %v", err)
		}
	}
	res, err := chromedp.Run(tctx, chromedp.Evaluate[string](`JSON.stringify(window.result)`))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"items":5,"kept":2500,"random":0.5,"logged":true}`; res != want {
		t.Fatalf("the page's result: %s, want %s", res, want)
	}
	if err := chromedp.Do(tctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
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
