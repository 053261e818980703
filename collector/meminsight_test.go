package collector

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/tracedir"
)

// sendMemInsight delivers data as MemInsight's browser logger does
// (spec §5.1): subprotocol mem-trace-protocol at "/", a text startup,
// binary messages of at most 64000 bytes holding whole entries, each sent
// after the "done" of the one before, and a close at the end.
func sendMemInsight(t testing.TB, url string, data []byte) {
	d := websocket.Dialer{Subprotocols: []string{MemInsightSubprotocol}}
	ws, _, err := d.Dial(url, nil)
	if err != nil {
		t.Error(err)
		return
	}
	defer ws.Close()
	if err := ws.WriteMessage(websocket.TextMessage, []byte("startup")); err != nil {
		t.Error(err)
		return
	}
	offs := append(entryOffsets(t, data), int64(len(data)))
	start := 0
	for i := 1; i < len(offs); i++ {
		if offs[i]-int64(start) <= 64000 && i < len(offs)-1 {
			continue
		}
		end := int(offs[i])
		if offs[i]-int64(start) > 64000 {
			end = int(offs[i-1])
		}
		if end <= start {
			t.Error("an entry over 64000 bytes")
			return
		}
		if err := ws.WriteMessage(websocket.BinaryMessage, data[start:end]); err != nil {
			t.Error(err)
			return
		}
		ws.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, _, err := ws.ReadMessage(); err != nil { // any content is an ack
			t.Error(err)
			return
		}
		start = end
		if end < int(offs[i]) {
			i--
		}
	}
	ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
}

func TestMemInsightLoggerTwentyAtOnce(t *testing.T) {
	dir := testcorpus.Dir(t, "meminsight", "traces")
	names, _ := filepath.Glob(filepath.Join(dir, "*.mem-trace"))
	sort.Strings(names)
	if len(names) < 20 {
		t.Fatalf("%d traces in the corpus", len(names))
	}
	// A large one too, so that messages are split.
	big := genTrace(t, 77, 1<<20)
	for _, mode := range []string{"token", "open", "fsync"} {
		t.Run(mode, func(t *testing.T) {
			tc := startCollector(t, Config{Open: mode == "open", Fsync: mode == "fsync"})
			url := tc.URL + "/"
			if mode != "open" {
				url += "?token=" + tc.Token()
			}
			datas := [][]byte{big}
			for _, n := range names {
				b, err := os.ReadFile(n)
				if err != nil {
					t.Fatal(err)
				}
				datas = append(datas, b)
			}
			sem := make(chan struct{}, 20)
			var wg sync.WaitGroup
			for _, data := range datas {
				wg.Add(1)
				sem <- struct{}{}
				go func(data []byte) {
					defer wg.Done()
					defer func() { <-sem }()
					sendMemInsight(t, url, data)
				}(data)
			}
			wg.Wait()
			// Match the sessions to the traces by content.
			want := map[string]bool{}
			for _, d := range datas {
				want[string(d)] = true
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			got := tc.Sessions()
			if len(got) != len(datas) {
				t.Fatalf("%d sessions for %d traces", len(got), len(datas))
			}
			for _, name := range got {
				s, err := tc.Wait(ctx, name)
				if err != nil {
					t.Fatal(err)
				}
				if s.Status != tracedir.StatusComplete || s.Protocol != "meminsight" {
					t.Fatalf("%s: %s %q (%s)", name, s.Status, s.Reason, s.Protocol)
				}
				b := traceBytes(t, tc.Out(), name)
				if !want[string(b)] {
					t.Fatalf("%s: %d bytes that are not one of the traces sent", name, len(b))
				}
				delete(want, string(b))
			}
			if !strings.Contains(tc.log.String(), "new MemInsight session") {
				t.Fatal("the log does not name MemInsight's sessions")
			}
		})
	}
}

func TestMemInsightRefusesBadBytes(t *testing.T) {
	tc := startCollector(t, Config{Open: true})
	check := healthy(t, tc)
	data := genTrace(t, 12, 32<<10)
	d := websocket.Dialer{Subprotocols: []string{MemInsightSubprotocol}}
	ws, _, err := d.Dial(tc.URL+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.WriteMessage(websocket.TextMessage, []byte("startup"))
	ws.WriteMessage(websocket.BinaryMessage, data[:1000])
	ws.ReadMessage()
	ws.WriteMessage(websocket.BinaryMessage, bytes.Repeat([]byte{0xee}, 100))
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := ws.ReadMessage(); err == nil {
		t.Fatal("garbage was acknowledged")
	}
	var name string
	for _, n := range tc.Sessions() {
		if s := tc.lookup(n); s.protocol == "meminsight" {
			name = n
		}
	}
	s := waitEnded(t, tc, name)
	if s.Status != tracedir.StatusIncomplete || s.Violation == nil || s.Violation.Offset < 900 {
		t.Fatalf("session: %s %q %+v", s.Status, s.Reason, s.Violation)
	}
	check()
}
