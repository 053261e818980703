package collector

import (
	"bytes"
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
