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

// BenchmarkInstrumentSmall measures many small files (test262's, 1-3 KB
// each), where fixed costs per file show.
func BenchmarkInstrumentSmall(b *testing.B) {
	files, _ := filepath.Glob("../../shared/corpora/test262/test/language/expressions/*/*.js")
	if len(files) == 0 {
		b.Skip("no test262 corpus")
	}
	if len(files) > 400 {
		files = files[:400]
	}
	var srcs [][]byte
	var total int64
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Instrument(src, Options{Goal: js.Script, File: f}); err != nil {
			continue
		}
		srcs = append(srcs, src)
		total += int64(len(src))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			if _, err := Instrument(src, Options{Goal: js.Script, File: "x.js"}); err != nil {
				b.Fatal(err)
			}
		}
	}
}
