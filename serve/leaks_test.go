package serve

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/tracedir"
)

// TestLeakScenarios: pages that leak on each of 40 ticks, beside work that
// leaves nothing behind (testdata/leaks: detached DOM trees kept by an
// array, a chain of closures, listeners; a cache whose keys grow; an
// interval set each tick): the engine's per-site summary ranks a leaking
// site of the page's leak.js first, says it leaks, and says no site of
// the common work does.
func TestLeakScenarios(t *testing.T) {
	root := filepath.Join("testdata", "leaks")
	scenarios := []string{"array", "closure", "listener", "cache", "interval"}
	s := startServe(t, root)
	var pages []string
	for _, k := range scenarios {
		pages = append(pages, s.url+"/"+k+"/index.html")
	}
	browse(t, pages, true)
	sessions := waitSessions(t, s.c, len(pages))
	for i, ss := range sessions {
		name := s.c.Sessions()[i]
		scenario := filepath.Base(filepath.Dir(strings.TrimPrefix(ss.URL, s.url)))
		if ss.Status != tracedir.StatusComplete {
			t.Errorf("%s: %s %s", scenario, ss.Status, ss.Reason)
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, scenario, "leak.js"))
		if err != nil {
			t.Fatal(err)
		}
		leakLines := map[int]bool{}
		for n, l := range strings.Split(string(src), "\n") {
			if strings.HasSuffix(l, "// leak") {
				leakLines[n+1] = true
			}
		}
		path := filepath.Join(s.c.Out(), name, tracedir.TraceFile)
		var out bytes.Buffer
		err = lifetime.Report(func() (io.ReadCloser, error) { return os.Open(path) }, lifetime.ReportOptions{Summary: &out})
		if err != nil {
			t.Fatalf("%s: %v", scenario, err)
		}
		var sum lifetime.Summary
		if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
			t.Fatalf("%s: %v", scenario, err)
		}
		if len(sum.Sites) == 0 {
			t.Fatalf("%s: no sites", scenario)
		}
		first := sum.Sites[0]
		if file, line := siteLine(first.Site); file != "leak.js" || !leakLines[line] || !first.Leaking {
			t.Errorf("%s: the first site is %s (leaking %v, %d stale at most), not a leaking site of leak.js", scenario, first.Site, first.Leaking, first.MaxStale)
		}
		for _, site := range sum.Sites {
			if file, _ := siteLine(site.Site); file == "common.js" && site.Leaking {
				t.Errorf("%s: %s of the common work is said to leak", scenario, site.Site)
			}
		}
		t.Logf("%s: first %s, %d allocated, %d stale at most, leaking %v", scenario, first.Site, first.Allocated, first.MaxStale, first.Leaking)
	}
}

// siteLine returns the file name and start line of a site
// "URL-or-path:line:col:line:col".
func siteLine(site string) (string, int) {
	f := strings.Split(site, ":")
	if len(f) < 5 {
		return "", 0
	}
	n, _ := strconv.Atoi(f[len(f)-4])
	file := strings.Join(f[:len(f)-4], ":")
	return file[strings.LastIndex(file, "/")+1:], n
}
