package collector

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/collector/client"
	"github.com/memtrace/memtrace/tracedir"
)

func TestOneSessionArrivesWhole(t *testing.T) {
	tc := startCollector(t, Config{})
	data := genTrace(t, 1, 3<<20)
	c, end := send(t, tc.URL, tc.Token(), data, client.Options{ChunkSize: 64 << 10})
	if end.Status != tracedir.StatusComplete {
		t.Fatalf("ended %s: %s", end.Status, end.Reason)
	}
	if got := traceBytes(t, tc.Out(), c.Session()); !bytes.Equal(got, data) {
		t.Fatalf("the trace has %d bytes, %d were sent, or they differ", len(got), len(data))
	}
	s := readSession(t, tc.Out(), c.Session())
	if s.Status != tracedir.StatusComplete || s.Bytes != int64(len(data)) || s.Protocol != "memtrace" || s.Script != "/srv/app.js" {
		t.Fatalf("session.json: %+v", s)
	}
	if s.Received.Chunks == 0 || s.Received.LastSeq != s.Received.Chunks-1 || s.Entries == 0 {
		t.Fatalf("received: %+v, entries %d", s.Received, s.Entries)
	}
	if tc.dirHas(c.Session(), ChunksFile) || tc.dirHas(c.Session(), ResumeFile) {
		t.Fatal("an ended session keeps its resume state")
	}
}

func (tc *testCollector) dirHas(session, name string) bool {
	d, err := tc.dir.Sub(session, 0, false)
	if err != nil {
		return false
	}
	defer d.Close()
	return d.Exists(name)
}

// TestNamesStayInside: what a client says of itself never becomes a path
// outside the output directory (nor a hidden name in it).
func TestNamesStayInside(t *testing.T) {
	tc := startCollector(t, Config{})
	data := genTrace(t, 2, 8<<10)
	for _, script := range []string{"../../../../etc/passwd", "/..", "..", ".hidden", "a/../../b", "C:\\x\\..\\..\\y", "\x00\n/", "é/ü"} {
		c, end := send(t, tc.URL, tc.Token(), data, client.Options{Meta: map[string]any{"kind": "../k", "script": script}})
		if end.Status != tracedir.StatusComplete {
			t.Fatalf("%q: %+v", script, end)
		}
		name := c.Session()
		if strings.ContainsAny(name, "/\\\x00") || strings.HasPrefix(name, ".") || name != filepath.Base(name) {
			t.Fatalf("script %q named the session %q", script, name)
		}
		if _, err := os.Stat(filepath.Join(tc.Out(), name, tracedir.TraceFile)); err != nil {
			t.Fatalf("script %q: %v", script, err)
		}
	}
	ents, _ := os.ReadDir(filepath.Dir(tc.Out()))
	if len(ents) != 1 {
		t.Fatalf("the collector wrote beside its output directory: %v", ents)
	}
}

// TestScriptsKept: the sources a client sends go to the session's
// scripts/ under names of memtrace's, with their digests.
func TestScriptsKept(t *testing.T) {
	tc := startCollector(t, Config{})
	data := genTrace(t, 3, 8<<10)
	ctx := context.Background()
	c, err := client.Dial(ctx, client.Options{URL: tc.URL, Token: tc.Token()})
	if err != nil {
		t.Fatal(err)
	}
	c.Script("https://example.com/app.js?v=1", "console.log(1);\n")
	c.Script("../../../etc/passwd", "x")
	c.Script("https://example.com/app.js?v=1", "a second source for the same name is ignored")
	c.Write(data)
	if end, err := c.End(ctx, "exit"); err != nil || end.Status != tracedir.StatusComplete {
		t.Fatalf("%v %+v", err, end)
	}
	dir := filepath.Join(tc.Out(), c.Session())
	src, err := tracedir.ScriptSource(dir, "https://example.com/app.js?v=1")
	if err != nil || string(src) != "console.log(1);\n" {
		t.Fatalf("%q %v", src, err)
	}
	if src, err := tracedir.ScriptSource(dir, "../../../etc/passwd"); err != nil || string(src) != "x" {
		t.Fatalf("%q %v", src, err)
	}
	if s := readSession(t, tc.Out(), c.Session()); s.Scripts != 2 {
		t.Fatalf("session.json says %d scripts", s.Scripts)
	}
}
