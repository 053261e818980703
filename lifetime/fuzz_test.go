package lifetime

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/memtrace/memtrace/trace"
)

// FuzzAnalyze checks that arbitrary bytes give a result or an error, never
// a panic, and that decoding errors keep their *trace.FormatError.
func FuzzAnalyze(f *testing.F) {
	for _, name := range []string{"testRefCount1", "testRefCount42", "htmlTest1"} {
		if data, err := os.ReadFile(filepath.Join(corpus, "traces", name+".mem-trace")); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte{})
	f.Add([]byte{7, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		err := WriteRC(io.Discard, bytes.NewReader(data), Options{}, RCOptions{Testing: true, Verbose: true})
		if err != nil {
			var fe *trace.FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error without a FormatError: %v", err)
			}
		}
	})
}
