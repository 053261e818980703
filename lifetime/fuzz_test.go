package lifetime

import (
	"bufio"
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
		WriteJSONStaleness(io.Discard, bytes.NewReader(data), Options{}, true)
		stalenessInMemory(data)
	})
}

// stalenessInMemory runs both passes of the staleness pipeline, every
// output included, with the tables in memory (no temporary files, which
// would slow fuzzing down).
func stalenessInMemory(data []byte) {
	var lu, un, up bytes.Buffer
	text := bufio.NewWriter(io.Discard)
	sw := NewStalenessWriter(StalenessOptions{Text: text, Records: []io.Writer{io.Discard},
		LastUse: &lu, Unreachable: &un, UpdIID: &up})
	defer sw.Close()
	e := NewEngine(Options{}, sw)
	sw.Attach(e)
	if e.Run(trace.NewReader(bytes.NewReader(data))) != nil || sw.Err() != nil {
		return
	}
	ss := &SiteStats{Full: true, Out: io.Discard, JSON: io.Discard}
	ss.init()
	runEnhanced(bytes.NewReader(data), EnhancedTables{LastUse: &lu, Unreachable: &un, UpdIID: &up}, false,
		ss, newSummary(io.Discard, nil))
}
