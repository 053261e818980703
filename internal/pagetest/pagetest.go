// Package pagetest drives headless Chromium (Debian's chromium, through
// chromedp) for the tests of what serves pages traced, memtrace serve
// and memtrace proxy: browsers of the test's own, pages run to their end,
// sessions awaited at a collector, traces checked, and MemInsight's 19
// browser tests compared site by site with MemInsight's goldens. Every
// function that starts a browser takes chromedp's allocator options (a
// proxy's, for instance) after its own arguments.
package pagetest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/internal/todomvc"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

// Log is a collector's (or server's) log in tests: the test's log with
// MEMTRACE_TEST_LOG=1, else nothing.
func Log(t testing.TB, prefix string) *log.Logger {
	if os.Getenv("MEMTRACE_TEST_LOG") == "" {
		return log.New(io.Discard, "", 0)
	}
	return log.New(testWriter{t}, prefix, 0)
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSuffix(string(b), "\n"))
	return len(b), nil
}

// Browser starts headless Chromium with a profile of the test's own,
// closed when the test ends.
func Browser(t testing.TB, opts ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	all := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(testcorpus.Chromium(t)), chromedp.NoSandbox,
		chromedp.Flag("headless", "new"), chromedp.UserDataDir(t.TempDir()))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), append(all, opts...)...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancel()
		cancelA()
	})
	return ctx
}

// PageBrowser is Browser for page, whose errors fail the test.
func PageBrowser(t testing.TB, page string, opts ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	ctx := Browser(t, opts...)
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*cdpruntime.EventExceptionThrown); ok {
			t.Errorf("%s: page error: %s %v", page, e.ExceptionDetails.Text, e.ExceptionDetails.Exception.Description)
		}
	}); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// OpenPage opens page in a headless Chromium of its own (page errors fail
// the test) and waits until it sets window.__memTestDone; the context
// is good for a further 30 s.
func OpenPage(t testing.TB, page string, opts ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	ctx := PageBrowser(t, page, opts...)
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	t.Cleanup(cancel)
	if err := chromedp.Do(tctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	WaitDone(t, tctx)
	return tctx
}

// WaitDone waits until the page of ctx sets window.__memTestDone.
func WaitDone(t testing.TB, ctx context.Context) {
	t.Helper()
	for done := false; !done; time.Sleep(50 * time.Millisecond) {
		var err error
		done, err = chromedp.Run(ctx, chromedp.Evaluate[bool]("window.__memTestDone === true"))
		if ctx.Err() != nil {
			t.Fatalf("the page did not finish: %v", err)
		}
	}
}

// Leave navigates the page of ctx away (pagehide ends its trace).
func Leave(t testing.TB, ctx context.Context) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
}

// PageValue opens page, waits for it, evaluates expr (a string), leaves
// the page and returns expr's value.
func PageValue(t testing.TB, page, expr string, opts ...chromedp.ExecAllocatorOption) string {
	t.Helper()
	ctx := OpenPage(t, page, opts...)
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // what the shim holds goes out
	Leave(t, ctx)
	return v
}

// Browse opens each page in headless Chromium, waits until the page sets
// window.__memTestDone (or loads, when wait is false), then leaves it
// (pagehide ends its trace).
func Browse(t testing.TB, pages []string, wait bool, opts ...chromedp.ExecAllocatorOption) {
	t.Helper()
	ctx := Browser(t, opts...)
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *cdpruntime.EventExceptionThrown:
			t.Errorf("page error: %s %v", e.ExceptionDetails.Text, e.ExceptionDetails.Exception.Description)
		case *cdpruntime.EventConsoleAPICalled:
			for _, a := range e.Args {
				t.Logf("console.%s: %s", e.Type, a.Value)
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		tctx, tcancel := context.WithTimeout(ctx, 30*time.Second)
		if err := chromedp.Do(tctx, chromedp.Navigate(p)); err != nil {
			tcancel()
			t.Fatalf("%s: %v", p, err)
		}
		if wait {
			var done bool
			var lastErr error
			for !done && tctx.Err() == nil {
				done, lastErr = chromedp.Run(tctx, chromedp.Evaluate[bool]("window.__memTestDone === true"))
				if !done {
					time.Sleep(50 * time.Millisecond)
				}
			}
			if !done {
				tcancel()
				t.Fatalf("%s: the page did not finish: %v", p, lastErr)
			}
		}
		if err := chromedp.Do(tctx, chromedp.Navigate("about:blank")); err != nil {
			tcancel()
			t.Fatal(err)
		}
		tcancel()
	}
}

// WaitSessions waits until c has n sessions, all ended, and returns them
// in the order of c.Sessions.
func WaitSessions(t testing.TB, c *collector.Collector, n int) []*tracedir.Session {
	t.Helper()
	var out []*tracedir.Session
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		names := c.Sessions()
		if len(names) < n {
			continue
		}
		out = out[:0]
		for _, name := range names {
			s, err := tracedir.ReadSession(filepath.Join(c.Out(), name))
			if err != nil || s.Status == tracedir.StatusStreaming || s.Status == tracedir.StatusWaiting {
				break
			}
			out = append(out, s)
		}
		if len(out) == len(names) {
			return out
		}
	}
	for _, name := range c.Sessions() {
		if s, err := tracedir.ReadSession(filepath.Join(c.Out(), name)); err == nil {
			t.Logf("%s: %s %s (%d bytes)", name, s.Status, s.URL, s.Bytes)
		}
	}
	t.Fatalf("%d sessions ended of %d", len(out), n)
	return nil
}

// CompleteTrace waits for the one session of c to end, requires it
// complete with a trace that passes every rule, and returns the trace.
func CompleteTrace(t testing.TB, c *collector.Collector) []byte {
	t.Helper()
	sessions := WaitSessions(t, c, 1)
	if sessions[0].Status != tracedir.StatusComplete {
		t.Fatalf("the session ended %s: %s", sessions[0].Status, sessions[0].Reason)
	}
	return CheckedTrace(t, c, c.Sessions()[0])
}

// CheckedTrace is the trace of c's session name, which must pass every
// rule of trace check and be read by the lifetime engine.
func CheckedTrace(t testing.TB, c *collector.Collector, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(c.Out(), name, tracedir.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := trace.Check(bytes.NewReader(data), 10)
	if err != nil || !rep.OK() {
		t.Fatalf("%s: trace check: %v %v", name, err, rep.Findings)
	}
	var l lifetime.NopListener
	if err := lifetime.Analyze(bytes.NewReader(data), lifetime.Options{}, &l); err != nil {
		t.Fatalf("%s: the lifetime engine: %v", name, err)
	}
	return data
}

// ScriptNames counts the SCRIPT_ENTERs of a trace by name.
func ScriptNames(data []byte) map[string]int {
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

// RunTodo runs the scripted session (package todomvc) on the app at page
// in a browser of its own, page errors failing the test, and returns the
// app's text after each step; it leaves the page at the end.
func RunTodo(t testing.TB, page string, opts ...chromedp.ExecAllocatorOption) []string {
	t.Helper()
	return RunTodoLike(t, page, nil, opts...)
}

// RunTodoLike is RunTodo for an app that should show want after each
// step (todomvc.RunLike).
func RunTodoLike(t testing.TB, page string, want []string, opts ...chromedp.ExecAllocatorOption) []string {
	t.Helper()
	ctx := PageBrowser(t, page, opts...)
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	out, _, err := todomvc.RunLike(tctx, page, 100*time.Millisecond, want)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if err := chromedp.Do(tctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	return out
}

// MemInsightPages is the URLs of MemInsight's 19 browser tests (under
// root, a directory per test) served at base.
func MemInsightPages(t testing.TB, root, base string) []string {
	t.Helper()
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, e := range ents {
		if e.IsDir() {
			pages = append(pages, base+"/"+e.Name()+"/index.html")
		}
	}
	if len(pages) != 19 {
		t.Fatalf("%d tests in the corpus, want 19", len(pages))
	}
	return pages
}

// CheckMemInsightPages browses MemInsight's 19 browser tests at base, each
// run to its end (window.__memTestDone) and left: one complete session
// each at c, whose trace passes every rule of trace check, is read by the
// lifetime engine, and, for every allocation site in the page's own
// scripts, has as many objects, and as many reachable to the end, as
// MemInsight's golden (CompareSites; the DOM-leak tests htmlTest17 and
// htmlTest19 keep their leaked nodes to the end there).
func CheckMemInsightPages(t testing.TB, root, base string, c *collector.Collector, opts ...chromedp.ExecAllocatorOption) {
	pages := MemInsightPages(t, root, base)
	Browse(t, pages, true, opts...)
	sessions := WaitSessions(t, c, len(pages))
	for i, ss := range sessions {
		name := c.Sessions()[i]
		if ss.Status != tracedir.StatusComplete {
			t.Errorf("%s (%s): %s %s", name, ss.URL, ss.Status, ss.Reason)
			continue
		}
		data := CheckedTrace(t, c, name)
		test := filepath.Base(filepath.Dir(strings.TrimPrefix(ss.URL, base)))
		if d := os.Getenv("MEMTRACE_KEEP_TRACES"); d != "" {
			os.WriteFile(filepath.Join(d, test+".mem-trace"), data, 0o644)
		}
		CompareSites(t, test, data)
	}
}

// siteCount is what a golden or a trace shows for one allocation site:
// its objects, and how many stay reachable to the end.
type siteCount struct{ objects, atEnd int }

// goldenSites reads the object rows of MemInsight's engine output (the
// htmlTestN.expected format: "Id: N  Alloc: SITE  Time: T  Loc: LOC"),
// counting per site in the page's own scripts (named file.js:l:c:l:c,
// MemInsight's _orig_ dropped); DOM nodes of the initial document and
// the observer's are left out, as are sites in no script of the page.
func goldenSites(text string) map[string]siteCount {
	out := map[string]siteCount{}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || f[0] != "Id:" || f[2] != "Alloc:" {
			continue
		}
		site := strings.Replace(f[3], "_orig_.js:", ".js:", 1)
		if !strings.Contains(site, ".js:") {
			continue
		}
		// The page's scripts are served from its directory: the trace names
		// them by URL.
		site = site[strings.LastIndex(site, "/")+1:]
		c := out[site]
		c.objects++
		if strings.HasSuffix(line, "end of program") {
			c.atEnd++
		}
		out[site] = c
	}
	return out
}

// knownSiteDifferences are the sites where memtrace's trace differs from
// MemInsight's golden on purpose: what memtrace shows instead, and why.
var knownSiteDifferences = map[string]map[string]struct {
	ours siteCount
	why  string
}{
	"htmlTest11": {"code.js:31:9:31:42": {siteCount{0, 0}, "MemInsight replaces a handler property's function " +
		"(xhr.onreadystatechange = callback) by a wrapper of its own, an object made at the write; the page makes " +
		"no object there (the browser keeps the handler itself), so memtrace writes the target's edge to the handler"}},
}

// CompareSites checks, for test (htmlTestN), that every allocation site
// in the page's own scripts has as many objects, and as many reachable to
// the end, in trace data as in MemInsight's golden.
func CompareSites(t testing.TB, test string, data []byte) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join(testcorpus.Dir(t, "meminsight", "expected-engine"), test+".expected"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := lifetime.WriteRC(&out, bytes.NewReader(data), lifetime.Options{MemInsightReturns: true, MemInsightPrototypes: true}, lifetime.RCOptions{Testing: true, Verbose: true}); err != nil {
		t.Errorf("%s: %v", test, err)
		return
	}
	w, g := goldenSites(string(want)), goldenSites(out.String())
	if len(w) == 0 {
		t.Fatalf("%s: the golden names no site of the page's scripts", test)
	}
	var bad []string
	for site, wc := range w {
		if d, ok := knownSiteDifferences[test][site]; ok {
			if g[site] != d.ours {
				bad = append(bad, fmt.Sprintf("%s: %d objects, %d at the end (a known difference from the golden, %d, %d: memtrace should show %d, %d: %s)",
					site, g[site].objects, g[site].atEnd, wc.objects, wc.atEnd, d.ours.objects, d.ours.atEnd, d.why))
			}
			continue
		}
		if gc := g[site]; gc != wc {
			bad = append(bad, fmt.Sprintf("%s: %d objects, %d at the end (golden: %d, %d)", site, gc.objects, gc.atEnd, wc.objects, wc.atEnd))
		}
	}
	for site := range knownSiteDifferences[test] {
		if _, ok := w[site]; !ok {
			t.Errorf("%s: the golden shows nothing at %s: remove it from knownSiteDifferences", test, site)
		}
	}
	for site, gc := range g {
		if _, ok := w[site]; !ok && gc != (siteCount{}) {
			bad = append(bad, fmt.Sprintf("%s: %d objects, %d at the end (golden: none)", site, gc.objects, gc.atEnd))
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Errorf("%s: sites differ from MemInsight's golden:\n  %s", test, strings.Join(bad, "\n  "))
	}
}
