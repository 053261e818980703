package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/pagetest"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/internal/todomvc"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/tracedir"
)

// todoApps are the three TodoMVC apps and the script of each that must
// run instrumented.
var todoApps = map[string]string{"javascript-es6": "/app.bundle.js", "jquery": "/app.js", "react": "/app.bundle.js"}

// TestTodoMVCThroughProxy: each TodoMVC app, served by a local server, goes
// through the scripted session untraced and through the proxy: forward
// over HTTP, forward over HTTPS (CONNECT, memtrace's CA trusted by the
// test's profile only), and reverse. After each step the app shows the
// same text, no page error is thrown, and the page load is one complete
// session whose trace the lifetime engine reads and which enters the
// app's script by its URL.
func TestTodoMVCThroughProxy(t *testing.T) {
	for app, script := range todoApps {
		t.Run(app, func(t *testing.T) {
			dir := testcorpus.Dir(t, "todomvc", app, "dist")
			plain := httptest.NewServer(http.FileServer(http.Dir(dir)))
			defer plain.Close()
			want := pagetest.RunTodo(t, plain.URL+"/index.html")
			secure := httptest.NewTLSServer(http.FileServer(http.Dir(dir)))
			defer secure.Close()
			target, _ := url.Parse(plain.URL)
			for _, mode := range []string{"http", "https", "reverse"} {
				t.Run(mode, func(t *testing.T) {
					var pr *proxied
					var page string
					var opts []chromedp.ExecAllocatorOption
					switch mode {
					case "http":
						pr = startProxy(t, Options{})
						page, opts = plain.URL, pr.browser()
					case "https":
						pr = startProxy(t, Options{}, secure)
						page, opts = secure.URL, pr.browser()
					case "reverse":
						pr = startProxy(t, Options{Target: target})
						page = pr.URL
					}
					got := pagetest.RunTodoLike(t, page+"/index.html", want, opts...)
					for i := range todomvc.Steps {
						if got[i] != want[i] {
							t.Errorf("after %q: through the proxy the app shows\n%q\nuntraced\n%q", todomvc.Steps[i].Name, got[i], want[i])
						}
					}
					sessions := pagetest.WaitSessions(t, pr.c, 1)
					if len(sessions) != 1 || sessions[0].Status != tracedir.StatusComplete {
						t.Fatalf("sessions: %d, the first %s: %s", len(sessions), sessions[0].Status, sessions[0].Reason)
					}
					data := pagetest.CheckedTrace(t, pr.c, pr.c.Sessions()[0])
					names := pagetest.ScriptNames(data)
					if names[page+script] == 0 {
						t.Errorf("the trace enters %v, not %s", names, page+script)
					}
					if mode == "reverse" {
						checkReportLink(t, pr, pr.c.Sessions()[0], data)
					}
					t.Logf("%s %s: %d steps alike, trace %d bytes", app, mode, len(todomvc.Steps), sessions[0].Bytes)
				})
			}
		})
	}
}

// TestMemInsightPagesThroughProxy: MemInsight's 19 browser tests through
// the forward proxy give the browser runtime's results: one complete
// session each, site by site as MemInsight's goldens.
func TestMemInsightPagesThroughProxy(t *testing.T) {
	root := testcorpus.Dir(t, "meminsight", "programs", "html")
	static := httptest.NewServer(http.FileServer(http.Dir(root)))
	defer static.Close()
	pr := startProxy(t, Options{})
	pagetest.CheckMemInsightPages(t, root, static.URL, pr.c, pr.browser()...)
}

// checkReportLink opens the proxy's status page (the collector's, at the
// proxy's own address) in Chromium, follows the ended session's link to
// its report, and checks the page's totals against the summary of the
// session's trace data.
func checkReportLink(t *testing.T, pr *proxied, session string, data []byte) {
	t.Helper()
	var sum bytes.Buffer
	if err := lifetime.Report(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }, lifetime.ReportOptions{Summary: &sum}); err != nil {
		t.Fatal(err)
	}
	var doc lifetime.Summary
	if err := json.Unmarshal(sum.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	ctx := pagetest.PageBrowser(t, "the status page")
	ctx, cancel := context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	link := `[id="session-` + session + `"] a.report`
	if err := chromedp.Do(ctx, chromedp.Navigate(pr.URL+collector.Prefix+"?token="+pr.c.Token()), chromedp.WaitVisible(chromedp.CSS(link)),
		chromedp.Click(chromedp.CSS(link)), chromedp.WaitVisible(chromedp.CSS(`html[data-ready="1"]`))); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`Object.fromEntries([...document.querySelectorAll('[data-total]')].map(e => [e.dataset.total, e.dataset.value]))`))
	if err != nil {
		t.Fatal(err)
	}
	if got["allocated"] != strconv.FormatInt(doc.Totals.Allocated, 10) || got["sites"] != strconv.Itoa(doc.Totals.Sites) || got["maxLive"] != strconv.FormatInt(doc.Totals.MaxLive, 10) {
		t.Fatalf("the report through the proxy shows %v, the summary says %+v", got, doc.Totals)
	}
}
