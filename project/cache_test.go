package project

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func packs(t *testing.T, dir string) (packs, idxs, other []string) {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(dir, cacheLayout))
	for _, e := range ents {
		switch n := e.Name(); {
		case strings.HasPrefix(n, "."):
			other = append(other, n)
		case strings.HasSuffix(n, ".pack"):
			packs = append(packs, n)
		case strings.HasSuffix(n, ".idx"):
			idxs = append(idxs, n)
		}
	}
	return
}

// TestCachePacks: a run's entries go into one pack with its index; a later
// run into a new output reads them all; runs that add nothing add no pack;
// concurrent runs each write their own pack and both are readable; a
// killed run's pack without an index is removed once it is an hour old;
// the bound removes whole packs, oldest use first.
func TestCachePacks(t *testing.T) {
	in := t.TempDir()
	files := map[string]string{"package.json": "{}\n"}
	for i := 0; i < 20; i++ {
		files[fmt.Sprintf("lib/m%d.js", i)] = fmt.Sprintf("exports.v%d = { n: %d };\n", i, i)
	}
	write(t, in, files)
	cdir := t.TempDir()
	run := func(out string) *Summary {
		t.Helper()
		sum, err := Run(Options{In: in, Out: out, Cache: cdir, ToolID: "test"})
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	out1 := filepath.Join(t.TempDir(), "o")
	s1 := run(out1)
	if s1.Misses != 20 || s1.CacheHits != 0 {
		t.Fatalf("first run: %+v", s1)
	}
	p, x, o := packs(t, cdir)
	if len(p) != 1 || len(x) != 1 || len(o) != 0 {
		t.Fatalf("after one run: packs %v, indexes %v, others %v", p, x, o)
	}
	out2 := filepath.Join(t.TempDir(), "o")
	s2 := run(out2)
	if s2.CacheHits != 20 || s2.Misses != 0 {
		t.Fatalf("second run: %+v", s2)
	}
	if got, want := read(t, filepath.Join(out2, "lib/m7.js")), read(t, filepath.Join(out1, "lib/m7.js")); got != want || !strings.Contains(got, "__mt.S(") {
		t.Fatalf("cached output: %q", got)
	}
	if p, _, _ := packs(t, cdir); len(p) != 1 {
		t.Fatalf("a run of hits added a pack: %v", p)
	}

	// Two concurrent runs of a changed tree: their packs are readable.
	write(t, in, map[string]string{"lib/m1.js": "exports.changed = [];\n", "lib/m2.js": "exports.changed = {};\n"})
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Run(Options{In: in, Out: filepath.Join(t.TempDir(), "o"), Cache: cdir, ToolID: "test"}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	// Each run added a pack, or found the other's (complete) when it
	// first looked: 2 or 3 packs, each with its index.
	if p, x, _ := packs(t, cdir); len(p) < 2 || len(p) > 3 || len(x) != len(p) {
		t.Fatalf("after two concurrent runs: packs %v, indexes %v", p, x)
	}
	if s := run(filepath.Join(t.TempDir(), "o")); s.CacheHits != 20 {
		t.Fatalf("after concurrent runs: %+v", s)
	}

	// A killed run's pack: kept while young, removed when an hour old.
	orphan := filepath.Join(cdir, cacheLayout, ".run-killed.pack")
	if err := os.WriteFile(orphan, []byte("o..."), 0o644); err != nil {
		t.Fatal(err)
	}
	write(t, in, map[string]string{"lib/m3.js": "exports.again = [1];\n"})
	run(filepath.Join(t.TempDir(), "o"))
	if _, err := os.Stat(orphan); err != nil {
		t.Fatalf("a young unfinished pack was removed: %v", err)
	}
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(orphan, old, old)
	write(t, in, map[string]string{"lib/m4.js": "exports.again = [2];\n"})
	run(filepath.Join(t.TempDir(), "o"))
	if _, err := os.Stat(orphan); !os.IsNotExist(err) {
		t.Fatalf("an old unfinished pack was kept: %v", err)
	}

	// The bound: a tiny cache keeps only the newest packs.
	write(t, in, map[string]string{"lib/m5.js": "exports.last = [3];\n"})
	if _, err := Run(Options{In: in, Out: filepath.Join(t.TempDir(), "o"), Cache: cdir, CacheMax: 1, ToolID: "test"}); err != nil {
		t.Fatal(err)
	}
	if p, x, _ := packs(t, cdir); len(p) != 0 || len(x) != 0 {
		t.Fatalf("a cache bounded to 1 byte keeps packs %v, indexes %v", p, x)
	}
}
