package scope

import (
	"os"
	"path/filepath"
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

// BenchmarkAnalyze measures scope analysis alone (the parse is done once)
// on the files of the front end's speed target.
func BenchmarkAnalyze(b *testing.B) {
	dir := testcorpus.Dir(b)
	for _, rel := range []string{"octane/typescript-compiler.js", "node/lodash/lodash.js"} {
		src, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			b.Fatal(err)
		}
		p, err := js.Parse(src, js.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(rel), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				Analyze(p)
			}
		})
	}
}
