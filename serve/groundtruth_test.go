package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/chromedp"

	"github.com/memtrace/memtrace/lifetime"
)

// TestGroundTruthInChromium: a page allocates objects and DOM nodes at
// marked sites (testdata/groundtruth/gt.js: kept by an array, a closure,
// a listener, an interval, the document, a shadow root; dropped, removed,
// replaced by innerHTML) and keeps a WeakRef to each. After a garbage
// collection forced through the DevTools protocol, the objects Chromium
// keeps are, site by site, exactly those the lifetime engine reports
// reachable at the end of the page's trace.
func TestGroundTruthInChromium(t *testing.T) {
	dir := filepath.Join("testdata", "groundtruth")
	src, err := os.ReadFile(filepath.Join(dir, "gt.js"))
	if err != nil {
		t.Fatal(err)
	}
	lines := markedSites(src)
	s := startServe(t, dir)
	// /slow answers once the page has been measured: requests to it are
	// in flight meanwhile.
	slow := make(chan struct{})
	f := func(w http.ResponseWriter, r *http.Request) bool {
		if r.URL.Path != "/slow" {
			return false
		}
		select {
		case <-slow:
		case <-r.Context().Done():
		}
		return true
	}
	s.before.Store(&f)
	alive := runGroundTruth(t, s.url+"/index.html")
	close(slow)
	data := completeTrace(t, s.c)
	var out bytes.Buffer
	if err := lifetime.WriteRC(&out, bytes.NewReader(data), lifetime.Options{}, lifetime.RCOptions{Verbose: true}); err != nil {
		t.Fatal(err)
	}
	engine := map[string]siteCount{}
	row := regexp.MustCompile(`^Id: \d+\s+Alloc: \S*gt\.js:(\d+):\d+:\d+:\d+\s`)
	for _, l := range strings.Split(out.String(), "\n") {
		m := row.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		label, ok := lines[n]
		if !ok {
			continue
		}
		c := engine[label]
		c.objects++
		if strings.HasSuffix(l, "end of program") {
			c.atEnd++
		}
		engine[label] = c
	}
	var labels []string
	for _, l := range lines {
		labels = append(labels, l)
	}
	sort.Strings(labels)
	for _, label := range labels {
		a := alive[label]
		if a.objects == 0 {
			t.Errorf("%s: the page tracked no object", label)
			continue
		}
		e := engine[label]
		if e.objects < a.objects {
			t.Errorf("%s: the engine knows %d objects made there, the page tracked %d", label, e.objects, a.objects)
		}
		if e.atEnd != a.atEnd {
			t.Errorf("%s: the engine reports %d reachable at the end, Chromium keeps %d of %d", label, e.atEnd, a.atEnd, a.objects)
		}
		t.Logf("%-10s tracked %d, Chromium keeps %d, the engine %d (of %d made)", label, a.objects, a.atEnd, e.atEnd, e.objects)
	}
}

// siteCount is a site's objects, and how many stay reachable to the end.
type siteCount struct{ objects, atEnd int }

// markedSites maps the lines of src marked "// site:X" to X.
func markedSites(src []byte) map[int]string {
	out := map[int]string{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	mark := regexp.MustCompile(`// site:(\w+)`)
	for n := 1; sc.Scan(); n++ {
		if m := mark.FindStringSubmatch(sc.Text()); m != nil {
			out[n] = m[1]
		}
	}
	return out
}

// runGroundTruth opens page in headless Chromium, waits for
// window.__memTestDone, collects garbage and counts, per label, the
// objects the page tracked and those still alive; then leaves the page.
func runGroundTruth(t *testing.T, page string) map[string]siteCount {
	t.Helper()
	tctx := openPage(t, page)
	// Collect, twice (what a first collection frees may hold more), each
	// in a task of its own so that no WeakRef target is kept for the job.
	for k := 0; k < 2; k++ {
		if _, err := chromedp.Call(tctx, heapprofiler.CollectGarbage, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	counts, err := chromedp.Run(tctx, chromedp.Evaluate[string](`JSON.stringify(refs.map(function (r) { return [r[0], r[1].deref() !== undefined]; }))`))
	if err != nil {
		t.Fatal(err)
	}
	leave(t, tctx)
	var pairs [][2]any
	if err := json.Unmarshal([]byte(counts), &pairs); err != nil {
		t.Fatalf("%v: %s", err, counts)
	}
	out := map[string]siteCount{}
	for _, p := range pairs {
		label, _ := p[0].(string)
		c := out[label]
		c.objects++
		if p[1] == true {
			c.atEnd++
		}
		out[label] = c
	}
	return out
}
