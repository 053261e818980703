package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/memtrace/memtrace/internal/pagetest"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/report"
	"github.com/memtrace/memtrace/tracedir"
)

// TestDetachedSubtreeRetainers: a DOM subtree detached from the document
// and kept by a variable: the lifetime summary's retaining path at the end
// names the variable for the subtree's root, and the root (a DOM node)
// for its children; the report's DOM page, read in Chromium, lists those
// two sites as detached (and no other), with the same paths.
func TestDetachedSubtreeRetainers(t *testing.T) {
	dir := filepath.Join("testdata", "retainers")
	s := startServe(t, dir)
	if got := pageValue(t, s.url+"/index.html", "JSON.stringify(window.results)"); got != `{"children":3,"connected":false}` {
		t.Fatalf("the page gives %s", got)
	}
	data := completeTrace(t, s.c)
	var sum bytes.Buffer
	if err := lifetime.Report(func() (r io.ReadCloser, err error) { return io.NopCloser(bytes.NewReader(data)), nil }, lifetime.ReportOptions{Summary: &sum}); err != nil {
		t.Fatal(err)
	}
	var doc lifetime.Summary
	if err := json.Unmarshal(sum.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	lineOf := func(mark string) int {
		for i, l := range strings.Split(string(src), "\n") {
			if strings.Contains(l, "// site:"+mark) {
				return i + 1
			}
		}
		t.Fatalf("no site %s", mark)
		return 0
	}
	// The site of the line's nodes (a node made in a call's arguments
	// is the call's).
	siteAt := func(line int) *lifetime.SiteSummary {
		for i := range doc.Sites {
			if strings.HasPrefix(doc.Sites[i].Site, fmt.Sprintf("/app.js:%d:", line)) {
				return &doc.Sites[i]
			}
		}
		t.Fatalf("no site on app.js:%d in %d sites: %s", line, len(doc.Sites), sum.String())
		return nil
	}
	root, child := siteAt(lineOf("root")), siteAt(lineOf("child"))
	for _, c := range []struct {
		s    *lifetime.SiteSummary
		want string
	}{
		{root, "held by `detached`, a global"},
		{child, fmt.Sprintf("held by `detached` (a DOM node made at /app.js:%d:", lineOf("root"))},
	} {
		if len(c.s.Retainers) == 0 {
			t.Fatalf("%s: no retainer", c.s.Site)
		}
		if got := lifetime.DescribeRetainer(c.s.Retainers[0].Path); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %q, want %q…", c.s.Site, got, c.want)
		}
	}

	// The report's DOM page lists the detached nodes by site, the root's
	// one node held by the variable, the children's three by the root.
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, tracedir.TraceFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := tracedir.Open(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	rd, err := report.Build(report.Options{Trace: out, Input: in, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(out, "report.html")
	if err := report.WriteFile(page, rd); err != nil {
		t.Fatal(err)
	}
	ctx := pagetest.PageBrowser(t, page)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page+"#dom"), chromedp.WaitVisible(chromedp.CSS(`html[data-route="dom"]`))); err != nil {
		t.Fatal(err)
	}
	type group struct {
		Site  int    `json:"site"`
		Nodes int64  `json:"nodes"`
		Text  string `json:"text"`
	}
	groups, err := chromedp.Run(ctx, chromedp.Evaluate[[]group](`[...document.querySelectorAll('section.detached')].map(s => ({
		site: +s.dataset.siteId, nodes: +s.dataset.nodes, text: s.querySelector('.retainer .retainer-text')?.textContent ?? ''}))`))
	if err != nil {
		t.Fatal(err)
	}
	// Only the subtree is detached: the document and its doctype, which
	// hang above the root, are not.
	if len(groups) != 2 || len(rd.Detached) != 2 {
		t.Errorf("the DOM page shows %d sites, the report's data has %d, want 2: %+v", len(groups), len(rd.Detached), rd.Detached)
	}
	for _, c := range []struct {
		line  int
		nodes int64
		want  string
	}{
		{lineOf("root"), 1, "held by `detached`, a global"},
		{lineOf("child"), 3, fmt.Sprintf("held by `detached` (a DOM node made at /app.js:%d:", lineOf("root"))},
	} {
		var g *group
		for i := range groups {
			if id := groups[i].Site; id >= 0 && id < len(rd.Sites) && strings.HasPrefix(rd.Sites[id].Site, fmt.Sprintf("/app.js:%d:", c.line)) {
				g = &groups[i]
			}
		}
		if g == nil || g.Nodes != c.nodes || !strings.HasPrefix(g.Text, c.want) {
			t.Errorf("app.js:%d: the DOM page shows %+v, want %d nodes %q… (all: %+v)", c.line, g, c.nodes, c.want, groups)
		}
	}
}
