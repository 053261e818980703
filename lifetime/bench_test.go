package lifetime

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/memtrace/memtrace/trace/tracegen"
)

var (
	benchOnce  sync.Once
	benchTrace []byte
)

// benchData returns a large synthetic trace (64 MB by default; set
// LIFETIME_BENCH_MB to change it), generated once per process.
func benchData(b *testing.B) []byte {
	benchOnce.Do(func() {
		mb := 64
		if s := os.Getenv("LIFETIME_BENCH_MB"); s != "" {
			if v, err := strconv.Atoi(s); err == nil && v > 0 {
				mb = v
			}
		}
		var buf bytes.Buffer
		if err := tracegen.Generate(&buf, tracegen.Options{Bytes: int64(mb) << 20, Seed: 1}); err != nil {
			b.Fatal(err)
		}
		benchTrace = buf.Bytes()
	})
	return benchTrace
}

// BenchmarkEngine measures the engine alone (no output) in MB of trace per
// second.
func BenchmarkEngine(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := Analyze(bytes.NewReader(data), Options{}, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEngineRCOutput includes building MemInsight's row output.
func BenchmarkEngineRCOutput(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := WriteRC(io.Discard, bytes.NewReader(data), Options{}, RCOptions{Testing: true, Verbose: true}); err != nil {
			b.Fatal(err)
		}
	}
}
