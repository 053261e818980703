package lifetime

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// detailsOf runs the summary with details over the trace at path.
func detailsOf(t *testing.T, path string, o DetailOptions) (Summary, *Details) {
	t.Helper()
	var sum bytes.Buffer
	var det Details
	if o.Size == 0 {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		o.Size = st.Size()
	}
	err := Report(func() (io.ReadCloser, error) { return os.Open(path) }, ReportOptions{Summary: &sum, Details: &det, DetailOptions: o, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var doc Summary
	if err := json.Unmarshal(sum.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc, &det
}

func maxOf(xs []int64) int64 {
	m := int64(0)
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// TestDetailsAgreeWithTheSummary: on every MemInsight trace, the details
// agree with the summary's figures: each timeline's peaks are the
// site's (and the program's) largest live and stale counts; the calling
// contexts count every object of the site once; the last uses never
// count more objects than were made; the buckets cover the run, and the
// snapshots lie in it in order. The summary itself is the same with
// details as without.
func TestDetailsAgreeWithTheSummary(t *testing.T) {
	dir := testcorpus.Dir(t, "meminsight", "traces")
	names, err := filepath.Glob(filepath.Join(dir, "*.mem-trace"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no traces in %s: %v", dir, err)
	}
	for _, path := range names {
		name := strings.TrimSuffix(filepath.Base(path), ".mem-trace")
		t.Run(name, func(t *testing.T) {
			doc, det := detailsOf(t, path, DetailOptions{Snapshots: 4, Buckets: 50})
			var plain bytes.Buffer
			if err := Report(func() (io.ReadCloser, error) { return os.Open(path) }, ReportOptions{Summary: &plain, TempDir: t.TempDir()}); err != nil {
				t.Fatal(err)
			}
			again, _ := json.Marshal(doc)
			var want Summary
			json.Unmarshal(plain.Bytes(), &want)
			wantJSON, _ := json.Marshal(want)
			if !bytes.Equal(again, wantJSON) {
				t.Fatalf("the summary with details differs:\n%s\nwithout:\n%s", again, wantJSON)
			}
			n := len(det.Times)
			if n == 0 || n > 50 || det.Times[n-1] != det.End {
				t.Fatalf("%d buckets, the last ending at %v, the run at %d", n, det.Times[n-1:], det.End)
			}
			if !sort.SliceIsSorted(det.Times, func(a, b int) bool { return det.Times[a] < det.Times[b] }) {
				t.Fatalf("bucket times out of order: %v", det.Times)
			}
			if got := maxOf(det.Live); got != doc.Totals.MaxLive {
				t.Errorf("the program's timeline peaks at %d live, the summary says %d", got, doc.Totals.MaxLive)
			}
			if got := maxOf(det.Stale); got != doc.Totals.MaxStale {
				t.Errorf("the program's timeline peaks at %d stale, the summary says %d", got, doc.Totals.MaxStale)
			}
			if len(det.Snapshots) > 4 {
				t.Errorf("%d snapshots of 4", len(det.Snapshots))
			}
			for i, s := range det.Snapshots {
				if s < 0 || s > det.End || i > 0 && s < det.Snapshots[i-1] {
					t.Errorf("snapshot %d at %d (run 0..%d, %v)", i, s, det.End, det.Snapshots)
				}
			}
			for _, s := range doc.Sites {
				sd := det.Sites[s.Site]
				if sd == nil {
					t.Fatalf("%s: no details", s.Site)
				}
				if len(sd.Live) != n || len(sd.Stale) != n {
					t.Fatalf("%s: %d and %d buckets of %d", s.Site, len(sd.Live), len(sd.Stale), n)
				}
				if got := maxOf(sd.Live); got != s.MaxLive {
					t.Errorf("%s: the timeline peaks at %d live, the summary says %d", s.Site, got, s.MaxLive)
				}
				if got := maxOf(sd.Stale); got != s.MaxStale {
					t.Errorf("%s: the timeline peaks at %d stale, the summary says %d", s.Site, got, s.MaxStale)
				}
				ctx := sd.OtherContexts
				for _, c := range sd.Contexts {
					ctx += c.Objects
					if len(c.Frames) > ContextDepth || c.Truncated && len(c.Frames) != ContextDepth {
						t.Errorf("%s: a context of %d frames (truncated %v)", s.Site, len(c.Frames), c.Truncated)
					}
				}
				if ctx != s.Allocated {
					t.Errorf("%s: the contexts count %d objects, %d were made", s.Site, ctx, s.Allocated)
				}
				lu := sd.OtherLastUses
				for _, u := range sd.LastUses {
					lu += u.Objects
				}
				if lu > s.Allocated {
					t.Errorf("%s: %d last uses of %d objects", s.Site, lu, s.Allocated)
				}
			}
		})
	}
}

// TestDetailsOfACache: a program whose objects a cache keeps to the end
// (testAllocSiteStats1: 1000 objects pushed into a global array): the
// site's timeline rises to 1000 and stays there, its objects' retainer
// at every snapshot after they are made is the same global array.
func TestDetailsOfACache(t *testing.T) {
	path := filepath.Join(testcorpus.Dir(t, "meminsight", "traces"), "testAllocSiteStats1.mem-trace")
	doc, det := detailsOf(t, path, DetailOptions{Snapshots: 8, Buckets: 40})
	var site SiteSummary
	for _, s := range doc.Sites {
		if s.Allocated == 1000 {
			site = s
		}
	}
	if site.Site == "" {
		t.Fatalf("no site of 1000 objects: %+v", doc.Sites)
	}
	sd := det.Sites[site.Site]
	if last := sd.Live[len(sd.Live)-1]; last != 1000 {
		t.Fatalf("the last bucket has %d live (timeline %v)", last, sd.Live)
	}
	if len(sd.Snapshots) == 0 {
		t.Fatalf("no snapshot holds the site's objects (snapshots at %v)", det.Snapshots)
	}
	for _, sn := range sd.Snapshots {
		if len(sn.Retainers) == 0 || sn.Sampled > SnapshotSample || int64(sn.Sampled) > sn.Live {
			t.Fatalf("snapshot %d: %+v", sn.Index, sn)
		}
		got := DescribeRetainer(sn.Retainers[0].Path)
		if !strings.Contains(got, "`arr`") || !strings.Contains(got, "a global") {
			t.Errorf("snapshot %d at %d: %s", sn.Index, det.Snapshots[sn.Index], got)
		}
	}
}
