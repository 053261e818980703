package collector

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/memtrace/memtrace/collector/client"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/tracedir"
)

func TestStatusJSONNeedsTheToken(t *testing.T) {
	tc := startCollector(t, Config{})
	data := genTrace(t, 70, 64<<10)
	c, _ := send(t, tc.URL, tc.Token(), data, client.Options{})
	resp, err := http.Get(tc.HTTP + StatusPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status without the token: %s", resp.Status)
	}
	resp, err = http.Get(tc.HTTP + StatusPath + "?token=" + tc.Token())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st Status
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatal(err)
	}
	if len(st.Sessions) != 1 || st.Sessions[0].Name != c.Session() || st.Sessions[0].State != tracedir.StatusComplete || st.Sessions[0].Bytes != int64(len(data)) {
		t.Fatalf("status: %+v", st)
	}
	// Another site's page cannot read it.
	req, _ := http.NewRequest("GET", tc.HTTP+StatusPath+"?token="+tc.Token(), nil)
	req.Header.Set("Origin", "https://evil.example")
	resp2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusForbidden {
		t.Fatalf("status from another origin: %s", resp2.Status)
	}
}

// TestStatusPageInChromium opens the status page in headless Chromium:
// a session that is streaming shows as streaming, with its bytes
// growing, then as complete once it ends.
func TestStatusPageInChromium(t *testing.T) {
	bin := testcorpus.Chromium(t)
	tc := startCollector(t, Config{})
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.Flag("headless", "new"),
		chromedp.UserDataDir(t.TempDir()))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil { // the browser starts
		t.Fatal(err)
	}
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()

	data := genTrace(t, 71, 1<<20)
	c, err := client.Dial(context.Background(), client.Options{URL: tc.URL, Token: tc.Token(), ChunkSize: 4096,
		Meta: map[string]any{"kind": "node", "script": "/srv/streaming.js"}})
	if err != nil {
		t.Fatal(err)
	}
	c.Write(data[:len(data)/2])
	if err := chromedp.Do(ctx, chromedp.Navigate(tc.HTTP+Prefix+"?token="+tc.Token())); err != nil {
		t.Fatal(err)
	}
	row := func() map[string]string {
		js := `(() => { const r = document.getElementById('session-` + c.Session() + `');
			if (!r) return {};
			return {state: r.dataset.state, bytes: r.querySelector('.bytes').textContent, text: r.textContent,
				summary: document.getElementById('summary').textContent, error: document.getElementById('error').textContent}; })()`
		v, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](js))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	waitFor := func(what string, ok func(map[string]string) bool) map[string]string {
		var v map[string]string
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if v = row(); ok(v) {
				return v
			}
		}
		t.Fatalf("the page never showed %s: %v", what, v)
		return nil
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, b := c.Acked(); b == int64(len(data)/2) {
			break
		}
	}
	v := waitFor("the session streaming", func(v map[string]string) bool { return v["state"] == "streaming" })
	if !strings.Contains(v["text"], "/srv/streaming.js") || v["bytes"] != "524,288" || v["error"] != "" {
		t.Fatalf("streaming row: %v", v)
	}
	c.Write(data[len(data)/2:])
	if _, err := c.End(context.Background(), "exit"); err != nil {
		t.Fatal(err)
	}
	v = waitFor("the session complete", func(v map[string]string) bool { return v["state"] == tracedir.StatusComplete })
	if !strings.Contains(v["summary"], "1 sessions (0 open)") {
		t.Fatalf("summary: %v", v)
	}

	// The ended session links to its report, which shows the summary's
	// numbers of its trace.
	var sum bytes.Buffer
	path := filepath.Join(tc.Out(), c.Session(), tracedir.TraceFile)
	if err := lifetime.Report(func() (io.ReadCloser, error) { return os.Open(path) }, lifetime.ReportOptions{Summary: &sum}); err != nil {
		t.Fatal(err)
	}
	var doc lifetime.Summary
	if err := json.Unmarshal(sum.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	link := `[id="session-` + c.Session() + `"] a.report`
	if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(link)), chromedp.Click(chromedp.CSS(link)),
		chromedp.WaitVisible(chromedp.CSS(`html[data-ready="1"]`))); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]string](`Object.fromEntries([...document.querySelectorAll('[data-total]')].map(e => [e.dataset.total, e.dataset.value]))`))
	if err != nil {
		t.Fatal(err)
	}
	if got["allocated"] != strconv.FormatInt(doc.Totals.Allocated, 10) || got["sites"] != strconv.Itoa(doc.Totals.Sites) {
		t.Fatalf("the report shows %v, the summary says %+v", got, doc.Totals)
	}
	if _, err := os.Stat(filepath.Join(tc.Out(), c.Session(), "report.html")); err != nil {
		t.Fatalf("the report is not kept in the session's directory: %v", err)
	}
	// Asked again, the report kept is served; without the token, none.
	resp, err := http.Get(tc.HTTP + ReportPath + "?session=" + c.Session())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a report without the token: %s", resp.Status)
	}
}
