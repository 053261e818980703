package collector

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memtrace/memtrace/collector/client"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/tracedir"
)

// waitEngine waits until the session's engine has finished.
func waitEngine(t *testing.T, out, name string) *tracedir.Session {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		s, err := tracedir.ReadSession(filepath.Join(out, name))
		if err == nil && s.Engine != nil && s.Engine.Status != "running" {
			return s
		}
	}
	t.Fatal("the engine did not finish")
	return nil
}

func TestBuiltinEngine(t *testing.T) {
	tc := startCollector(t, Config{Engine: "builtin"})
	data := genTrace(t, 60, 2<<20)
	c, end := send(t, tc.URL, tc.Token(), data, client.Options{})
	if end.Status != tracedir.StatusComplete {
		t.Fatalf("%+v", end)
	}
	s := waitEngine(t, tc.Out(), c.Session())
	if s.Engine.Status != "done" || s.Engine.Kind != "builtin" || s.Engine.Output != SummaryFile {
		t.Fatalf("engine: %+v", s.Engine)
	}
	got, err := os.ReadFile(filepath.Join(tc.Out(), c.Session(), SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
	if err := lifetime.Report(open, lifetime.ReportOptions{Out: io.Discard, Summary: &want}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("the summary differs from the engine's on the whole trace (%d vs %d bytes)", len(got), want.Len())
	}
}

func TestEngineCommand(t *testing.T) {
	tc := startCollector(t, Config{EngineCmd: []string{"sh", "-c", "sha256sum"}})
	data := genTrace(t, 61, 1<<20)
	c, _ := send(t, tc.URL, tc.Token(), data, client.Options{})
	s := waitEngine(t, tc.Out(), c.Session())
	if s.Engine.Status != "done" {
		t.Fatalf("engine: %+v", s.Engine)
	}
	out, _ := os.ReadFile(filepath.Join(tc.Out(), c.Session(), EngineOut))
	sum := fileSum(t, filepath.Join(tc.Out(), c.Session(), tracedir.TraceFile))
	if !strings.HasPrefix(string(out), hexOf(sum[:])) {
		t.Fatalf("the command read something else: %q", out)
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// A failing engine and a slow one: the traces arrive whole, on time.
func TestEngineFailureAndSlownessLoseNothing(t *testing.T) {
	for _, cmd := range [][]string{
		{"sh", "-c", "echo broken >&2; exit 3"},
		{"sh", "-c", "sleep 3; cat >/dev/null"},
		{"/nonexistent/engine"},
	} {
		t.Run(cmd[len(cmd)-1], func(t *testing.T) {
			tc := startCollector(t, Config{EngineCmd: cmd})
			data := genTrace(t, 62, 1<<20)
			start := time.Now()
			c, end := send(t, tc.URL, tc.Token(), data, client.Options{ChunkSize: 16 << 10})
			if d := time.Since(start); d > 2500*time.Millisecond {
				t.Fatalf("the session took %s: the engine held it up", d)
			}
			if end.Status != tracedir.StatusComplete || !bytes.Equal(traceBytes(t, tc.Out(), c.Session()), data) {
				t.Fatalf("%+v", end)
			}
			s := waitEngine(t, tc.Out(), c.Session())
			switch cmd[len(cmd)-1] {
			case "sleep 3; cat >/dev/null":
				if s.Engine.Status != "done" {
					t.Fatalf("engine: %+v", s.Engine)
				}
			default:
				if s.Engine.Status != "failed" || s.Engine.Error == "" {
					t.Fatalf("engine: %+v", s.Engine)
				}
				if s.Status != tracedir.StatusComplete {
					t.Fatal("a failed engine changed the trace's status")
				}
			}
		})
	}
	_ = context.Background
}
