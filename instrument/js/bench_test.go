package js

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/tdewolff/parse/v2"
	tdjs "github.com/tdewolff/parse/v2/js"
)

// benchRel are the inputs of the speed targets: Octane's typescript.js
// (the driver) and typescript-compiler.js (the compiler it loads), and
// lodash.js.
var benchRel = []string{"octane/typescript.js", "octane/typescript-compiler.js", "node/lodash/lodash.js"}

// benchFiles reads benchRel.
func benchFiles(b *testing.B) map[string][]byte {
	dir := testcorpus.Dir(b)
	files := map[string][]byte{}
	for _, rel := range benchRel {
		src, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			b.Fatal(err)
		}
		files[filepath.Base(rel)] = src
	}
	return files
}

func BenchmarkParse(b *testing.B) {
	for _, name := range []string{"typescript.js", "typescript-compiler.js", "lodash.js"} {
		src := benchFiles(b)[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Parse(src, Options{File: name}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTdewolffParse is the baseline: tdewolff/parse's own JavaScript
// parser (no positions) on the same files.
func BenchmarkTdewolffParse(b *testing.B) {
	for _, name := range []string{"typescript.js", "typescript-compiler.js", "lodash.js"} {
		src := benchFiles(b)[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := tdjs.Parse(parse.NewInputBytes(src), tdjs.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPeakHeap measures the heap a parse holds at its end (the tree) and
// the bytes it allocates, against the source size. Target: a peak heap at
// most 20 times the source.
func TestPeakHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	dir := testcorpus.Dir(t)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, rel := range benchRel {
		src, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		// With the collector off, the heap's growth is everything the
		// parse allocated: an upper bound of its peak.
		prog, err := Parse(src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		runtime.GC()
		var live runtime.MemStats
		runtime.ReadMemStats(&live)
		runtime.KeepAlive(prog)
		tree := max(0, int64(live.HeapAlloc)-int64(before.HeapAlloc))
		ratio := float64(grown) / float64(len(src))
		t.Logf("%s: %.1f MB source; heap grew %.1f MB during the parse (%.1fx the source), tree %.1f MB (%.1fx)",
			rel, float64(len(src))/1e6, float64(grown)/1e6, ratio, float64(tree)/1e6, float64(tree)/float64(len(src)))
		if ratio > 20 {
			t.Errorf("%s: heap grew to %.1fx the source, above 20x", rel, ratio)
		}
	}
}
