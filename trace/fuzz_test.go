package trace

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/memtrace/memtrace/internal/testcorpus"
)

// FuzzReader: arbitrary bytes never make the reader or the checker panic or
// hang, and whatever decodes completely re-encodes to the same bytes.
func FuzzReader(f *testing.F) {
	f.Add(encodeLines(f, soundTrace...))
	f.Add([]byte{})
	f.Add([]byte{26})
	f.Add([]byte{21, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 2, 'A', 0})
	if root := testcorpus.Root(); root != "" {
		files, _ := filepath.Glob(filepath.Join(root, "..", "shared", "corpora", "meminsight", "traces", "*.mem-trace"))
		for _, name := range files {
			if data, err := os.ReadFile(name); err == nil && len(data) < 8<<10 {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		r.MaxString = 1 << 16
		var out []byte
		complete := true
		for i := 0; ; i++ {
			if i > len(data) {
				t.Fatalf("more entries (%d) than bytes (%d)", i, len(data))
			}
			e, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				complete = false
				break
			}
			_ = AppendText(nil, e)
			if out, err = AppendEntry(out, e); err != nil {
				t.Fatal(err)
			}
		}
		if complete && !bytes.Equal(out, data) {
			t.Fatalf("re-encoding differs:\n in: %x\nout: %x", data, out)
		}
		if _, err := Check(bytes.NewReader(data), 10); err != nil {
			t.Fatal(err)
		}
	})
}
