package instrument

import (
	"os"
	"path/filepath"
	"testing"

	js "github.com/memtrace/memtrace/instrument/js"
)

var benchFiles = []string{
	"../../shared/corpora/octane/typescript-compiler.js",
	"../../shared/corpora/octane/typescript.js",
	"../../shared/corpora/node/lodash/lodash.js",
}

// BenchmarkInstrument measures parse + scope analysis + rewriting end to
// end, and reports the output size relative to the input (out/in).
func BenchmarkInstrument(b *testing.B) {
	for _, f := range benchFiles {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Skipf("%s: %v", f, err)
		}
		b.Run(filepath.Base(f), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			var out int
			for i := 0; i < b.N; i++ {
				res, err := Instrument(src, Options{Goal: js.Script, File: f})
				if err != nil {
					b.Fatal(err)
				}
				out = len(res.Code)
			}
			b.ReportMetric(float64(out)/float64(len(src)), "out/in")
		})
	}
}
