package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/lifetime"
)

// TestDetachedSubtreeRetainers: a DOM subtree detached from the document
// and kept by a variable: the lifetime summary's retaining path at the end
// names the variable for the subtree's root, and the root (a DOM node)
// for its children.
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
}
