package collector

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/memtrace/memtrace/tracedir"
)

// TestHelloAndBeaconRace: a page that goes away before its welcome sends
// its hello and its beacon (its chunks and its end, naming its session by
// its client name) at nearly the same time; whichever the collector takes
// first, the two find one session, which ends complete with the chunks.
func TestHelloAndBeaconRace(t *testing.T) {
	tc := startCollector(t, Config{})
	data := genTrace(t, 3, 20<<10)
	const n = 200
	for i := 0; i < n; i++ {
		client := fmt.Sprintf("%032x", 1000+i)
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			r, _, err := dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
			if err != nil {
				t.Error(err)
				return
			}
			r.sendJSON(map[string]any{"type": "hello", "protocol": 1, "token": tc.Token(), "client": client, "meta": map[string]any{"kind": "page", "url": "http://x/p.html"}})
			r.readJSON()
		}()
		go func() {
			defer wg.Done()
			var body bytes.Buffer
			var h [12]byte
			binary.BigEndian.PutUint64(h[:], 0)
			binary.BigEndian.PutUint32(h[8:], uint32(len(data)))
			body.Write(h[:])
			body.Write(data)
			q := url.Values{"client": {client}, "token": {tc.Token()}, "meta": {`{"kind":"page","url":"http://x/p.html"}`},
				"end": {fmt.Sprintf(`{"type":"end","reason":"pagehide","last":0,"bytes":%d}`, len(data))}}
			resp, err := http.Post(tc.HTTP+BeaconPath+"?"+q.Encode(), "application/octet-stream", &body)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusNoContent {
				t.Errorf("the beacon: %s", resp.Status)
			}
		}()
		wg.Wait()
	}
	names := tc.Sessions()
	if len(names) != n {
		t.Fatalf("%d sessions for %d pages", len(names), n)
	}
	for _, n := range names {
		s, err := tracedir.ReadSession(tc.Out() + "/" + n)
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != tracedir.StatusComplete {
			t.Errorf("%s: %s %s", n, s.Status, s.Reason)
		}
	}
}
