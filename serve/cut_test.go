package serve

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/memtrace/memtrace/collector"
	"github.com/memtrace/memtrace/internal/flakynet"
	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

// TestPageSocketCut: a page's socket to the collector is cut eight times
// while it streams 4 MB of trace; the page reconnects and resumes, and
// the collector's trace, complete, is byte for byte what the page sent
// (its chunks as Chromium's DevTools saw them leave, each sequence number
// once, each time with the same bytes). The page is then left (pagehide) while its session is open: it
// ends complete, with its final last-use block last.
func TestPageSocketCut(t *testing.T) {
	dir := filepath.Join("testdata", "cut")
	srv := httptest.NewUnstartedServer(nil)
	relay := flakynet.Start(t, srv.Listener.Addr().String(), 64<<10, 512<<10, 8)
	c, err := collector.New(collector.Config{Out: filepath.Join(t.TempDir(), "traces"), Log: log.New(io.Discard, "", 0),
		AllowOrigins: []string{"http://" + srv.Listener.Addr().String()}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Options{Dir: dir, Collector: c, CollectURL: "ws://" + relay.Addr + "/__memtrace__/collect"})
	if err != nil {
		t.Fatal(err)
	}
	srv.Config.Handler = s
	srv.Start()
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
		c.Close()
		s.Close()
	})
	sent := browseFrames(t, srv.URL+"/index.html")
	sessions := waitSessions(t, c, 1)
	if sessions[0].Status != tracedir.StatusComplete {
		t.Fatalf("the session ended %s: %s", sessions[0].Status, sessions[0].Reason)
	}
	if got := relay.Cuts.Load(); got != 8 {
		t.Fatalf("the relay cut %d connections, want 8", got)
	}
	got, err := os.ReadFile(filepath.Join(c.Out(), c.Sessions()[0], tracedir.TraceFile))
	if err != nil {
		t.Fatal(err)
	}
	// What the page sent, chunk by chunk in sequence order.
	var seqs []uint64
	for q := range sent {
		seqs = append(seqs, q)
	}
	sort.Slice(seqs, func(i, j int) bool { return seqs[i] < seqs[j] })
	var want []byte
	for i, q := range seqs {
		if q != uint64(i) {
			t.Fatalf("the page sent no chunk %d over its socket (the next is %d)", i, q)
		}
		want = append(want, sent[q]...)
	}
	// (The chunks the page sends as it goes away, DevTools may not report:
	// the collector has checked their count and bytes against the page's
	// end, or the session would not be complete.)
	if !bytes.HasPrefix(got, want) || len(got)-len(want) > 64<<10 {
		t.Fatalf("the collector's trace (%d bytes) is not what the page sent (%d bytes in %d chunks, then its last ones)", len(got), len(want), len(seqs))
	}
	if len(got) < 1<<20 {
		t.Fatalf("the page's trace is %d bytes: too little to cut", len(got))
	}
	// The final last-use block ends the trace.
	r := trace.NewReader(bytes.NewReader(got))
	var last trace.Kind
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		last = e.Kind
	}
	if last != trace.EndLastUse {
		t.Fatalf("the trace ends with %v, not the final last-use block", last)
	}
}

// browseFrames opens page in headless Chromium, waits for
// window.__memTestDone, leaves the page, and returns the chunks the page
// sent over its websockets (binary frames: [seq: 8 bytes][bytes]).
func browseFrames(t *testing.T, page string) map[uint64][]byte {
	t.Helper()
	ctx := newBrowser(t)
	var mu sync.Mutex
	sent := map[uint64][]byte{}
	chromedp.Listen(ctx, func(ev any) {
		e, ok := ev.(*network.EventWebSocketFrameSent)
		if !ok || e.Response.Opcode != 2 {
			return
		}
		b := e.Response.PayloadData // decoded by cdproto
		if len(b) < 8 {
			t.Errorf("a binary frame of the page that is not a chunk: %d bytes", len(b))
			return
		}
		q := binary.BigEndian.Uint64(b)
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := sent[q]; ok && !bytes.Equal(prev, b[8:]) {
			t.Errorf("chunk %d sent twice with different bytes", q)
		}
		sent[q] = b[8:]
	})
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	tctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	for done := false; !done; time.Sleep(50 * time.Millisecond) {
		var err error
		done, err = chromedp.Run(tctx, chromedp.Evaluate[bool]("window.__memTestDone === true"))
		if tctx.Err() != nil {
			t.Fatalf("the page did not finish: %v", err)
		}
	}
	if err := chromedp.Do(tctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the last frames' events
	mu.Lock()
	defer mu.Unlock()
	out := make(map[uint64][]byte, len(sent))
	for k, v := range sent {
		out[k] = v
	}
	return out
}
