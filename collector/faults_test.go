package collector

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/memtrace/memtrace/collector/client"
	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/tracedir"
)

// rawConn is a websocket to the collector that the test drives by hand.
type rawConn struct {
	t  testing.TB
	ws *websocket.Conn
}

func dialRaw(t testing.TB, url string, subprotocol string, header http.Header) (*rawConn, *http.Response, error) {
	d := websocket.Dialer{Subprotocols: []string{subprotocol}, HandshakeTimeout: 5 * time.Second}
	ws, resp, err := d.Dial(url, header)
	if err != nil {
		return nil, resp, err
	}
	t.Cleanup(func() { ws.Close() })
	return &rawConn{t: t, ws: ws}, resp, nil
}

func (r *rawConn) hello(token string) map[string]any {
	r.t.Helper()
	r.sendJSON(map[string]any{"type": "hello", "protocol": 1, "token": token, "meta": map[string]any{"kind": "node", "script": "bad.js"}})
	return r.readJSON()
}

func (r *rawConn) sendJSON(v any) {
	r.t.Helper()
	if err := r.ws.WriteJSON(v); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rawConn) readJSON() map[string]any {
	r.t.Helper()
	r.ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	var m map[string]any
	if err := r.ws.ReadJSON(&m); err != nil {
		return map[string]any{"readError": err.Error()}
	}
	return m
}

func (r *rawConn) chunk(seq uint64, b []byte) {
	r.t.Helper()
	msg := make([]byte, 8+len(b))
	binary.BigEndian.PutUint64(msg, seq)
	copy(msg[8:], b)
	r.ws.WriteMessage(websocket.BinaryMessage, msg)
}

// healthy runs a good session alongside a fault and checks that it ends
// complete and whole.
func healthy(t *testing.T, tc *testCollector) func() { return healthySized(t, tc, 2<<20) }

func healthySized(t *testing.T, tc *testCollector, size int64) func() {
	data := genTrace(t, 99, size)
	done := make(chan struct{})
	var c *client.Client
	var end *client.Ended
	go func() {
		defer close(done)
		c, end = send(t, tc.URL, tc.Token(), data, client.Options{ChunkSize: 32 << 10})
	}()
	return func() {
		t.Helper()
		<-done
		if end == nil || end.Status != tracedir.StatusComplete {
			t.Fatalf("the healthy session alongside did not complete: %+v", end)
		}
		if !bytes.Equal(traceBytes(t, tc.Out(), c.Session()), data) {
			t.Fatal("the healthy session's trace differs from what was sent")
		}
	}
}

// waitEnded waits for the session to end and returns its session.json.
func waitEnded(t *testing.T, tc *testCollector, name string) *tracedir.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := tc.Wait(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// entryOffsets are the byte offsets where data's entries start.
func entryOffsets(t testing.TB, data []byte) []int64 {
	r := trace.NewReader(bytes.NewReader(data))
	var offs []int64
	for {
		_, err := r.Next()
		if err != nil {
			break
		}
		offs = append(offs, r.Offset())
	}
	return offs
}

func TestBadEntryEndsSessionKeepingBytesBefore(t *testing.T) {
	tc := startCollector(t, Config{})
	check := healthy(t, tc)
	data := genTrace(t, 5, 256<<10)
	offs := entryOffsets(t, data)
	cut := offs[len(offs)/2]
	// A type byte no entry has, in the middle of a chunk.
	bad := append(append([]byte(nil), data[:cut]...), 0x7f, 0, 0, 0, 1)
	r, _, err := dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := r.hello(tc.Token())
	name := w["session"].(string)
	half := len(bad) / 3
	r.chunk(0, bad[:half])
	if m := r.readJSON(); m["type"] != "ack" {
		t.Fatalf("first chunk: %v", m)
	}
	r.chunk(1, bad[half:])
	m := r.readJSON()
	if m["type"] != "ended" || m["status"] != tracedir.StatusIncomplete {
		t.Fatalf("bad chunk: %v", m)
	}
	s := waitEnded(t, tc, name)
	if s.Violation == nil || s.Violation.Offset != cut || s.Violation.Rule != string(trace.RuleFormat) || s.Violation.Index != int64(len(offs)/2) {
		t.Fatalf("violation %+v, want offset %d index %d rule format", s.Violation, cut, len(offs)/2)
	}
	if !strings.Contains(s.Reason, "breaks the rule format") {
		t.Fatalf("reason %q", s.Reason)
	}
	if got := traceBytes(t, tc.Out(), name); !bytes.Equal(got, data[:cut]) {
		t.Fatalf("kept %d bytes, want the %d before the bad entry", len(got), cut)
	}
	// A client that lost the connection before it read the end learns it
	// when it comes back; the session is not reopened.
	r2, _, err := dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2.sendJSON(map[string]any{"type": "hello", "protocol": 1, "token": tc.Token(), "session": name, "resume": w["resume"]})
	if m := r2.readJSON(); m["type"] != "ended" || m["status"] != tracedir.StatusIncomplete || m["reason"] != s.Reason || m["bytes"] != float64(cut) {
		t.Fatalf("resuming an ended session: %v", m)
	}
	if got := waitEnded(t, tc, name); got.Received.Resumes != s.Received.Resumes || got.Reason != s.Reason {
		t.Fatalf("the session changed when its client came back: %+v", got)
	}
	check()
}

func TestRuleViolationAcrossChunks(t *testing.T) {
	tc := startCollector(t, Config{})
	data := genTrace(t, 6, 128<<10)
	offs := entryOffsets(t, data)
	cut := offs[len(offs)/2]
	// An entry that decodes but breaks a rule: FUNCTION_ENTER of an object
	// never created.
	bad := append([]byte(nil), data[:cut]...)
	bad = append(bad, byte(trace.FunctionEnter), 0, 0, 0, 9, 0x10, 0, 0, 0)
	r, _, err := dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
	if err != nil {
		t.Fatal(err)
	}
	name := r.hello(tc.Token())["session"].(string)
	// The bad entry spans two chunks.
	r.chunk(0, bad[:cut+3])
	if m := r.readJSON(); m["type"] != "ack" {
		t.Fatalf("first chunk: %v", m)
	}
	r.chunk(1, bad[cut+3:])
	r.readJSON()
	s := waitEnded(t, tc, name)
	if s.Violation == nil || s.Violation.Offset != cut || s.Violation.Rule == string(trace.RuleFormat) {
		t.Fatalf("violation %+v, want a rule broken at %d", s.Violation, cut)
	}
	if got := traceBytes(t, tc.Out(), name); !bytes.Equal(got, data[:cut]) {
		t.Fatalf("kept %d bytes, want %d", len(got), cut)
	}
}

func TestTruncatedTraceEndsIncomplete(t *testing.T) {
	tc := startCollector(t, Config{})
	defer healthy(t, tc)()
	data := genTrace(t, 7, 64<<10)
	offs := entryOffsets(t, data)
	cut := offs[len(offs)-3] + 2
	c, end := send(t, tc.URL, tc.Token(), data[:cut], client.Options{ChunkSize: 4096})
	if end.Status != tracedir.StatusIncomplete || !strings.Contains(end.Reason, "ends inside entry") {
		t.Fatalf("ended %+v", end)
	}
	if got := traceBytes(t, tc.Out(), c.Session()); !bytes.Equal(got, data[:cut]) {
		t.Fatal("the bytes received are not all kept")
	}
}

func TestOversizedFrame(t *testing.T) {
	tc := startCollector(t, Config{MaxFrame: 64 << 10, ResumeWait: 300 * time.Millisecond})
	check := healthy(t, tc)
	r, _, err := dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
	if err != nil {
		t.Fatal(err)
	}
	name := r.hello(tc.Token())["session"].(string)
	data := genTrace(t, 8, 256<<10)
	r.chunk(0, data[:100<<10])
	_, _, err = r.ws.ReadMessage()
	var ce *websocket.CloseError
	if !errorsAs(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
		t.Fatalf("read after an oversized frame: %v", err)
	}
	s := waitEnded(t, tc, name)
	if s.Status != tracedir.StatusIncomplete || !strings.Contains(s.Reason, "over the frame limit of 65536 bytes") || !strings.Contains(s.Reason, "did not come back") {
		t.Fatalf("session: %s %q", s.Status, s.Reason)
	}
	check()
}

func TestSessionLimit(t *testing.T) {
	tc := startCollector(t, Config{MaxSession: 100 << 10})
	defer healthySized(t, tc, 64<<10)()
	data := genTrace(t, 9, 400<<10)
	c, end := send(t, tc.URL, tc.Token(), data, client.Options{ChunkSize: 16 << 10})
	if end == nil || end.Status != tracedir.StatusIncomplete || !strings.Contains(end.Reason, "over the session limit of 102400 bytes") {
		t.Fatalf("ended %+v", end)
	}
	got := traceBytes(t, tc.Out(), c.Session())
	if len(got) > 100<<10 || !bytes.Equal(got, data[:len(got)]) {
		t.Fatalf("kept %d bytes", len(got))
	}
}

func TestTokenRequired(t *testing.T) {
	tc := startCollector(t, Config{})
	check := healthy(t, tc)
	for _, tok := range []string{"", "0123456789abcdef0123456789abcdef"} {
		r, _, err := dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
		if err != nil {
			t.Fatal(err)
		}
		m := r.hello(tok)
		if m["type"] != "error" || !strings.Contains(fmt.Sprint(m["reason"]), "token") {
			t.Fatalf("hello with token %q: %v", tok, m)
		}
	}
	// MemInsight's protocol without a token in the URL.
	_, resp, err := dialRaw(t, tc.URL+"/", MemInsightSubprotocol, nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("MemInsight without a token: %v %v", err, resp)
	}
	check()
	if n := len(tc.Sessions()); n != 1 {
		t.Fatalf("%d sessions, want only the healthy one", n)
	}
	if !strings.Contains(tc.log.String(), "no token") || !strings.Contains(tc.log.String(), "a wrong token") {
		t.Fatalf("the log does not say why:\n%s", tc.log.String())
	}
}

func TestWrongProtocol(t *testing.T) {
	tc := startCollector(t, Config{ResumeWait: 200 * time.Millisecond})
	check := healthy(t, tc)
	// No subprotocol.
	if _, resp, err := dialRaw(t, tc.URL+CollectPath, "chat", nil); err == nil || resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("wrong subprotocol: %v", err)
	}
	// A first message that is not a hello.
	r, _, _ := dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
	r.ws.WriteMessage(websocket.BinaryMessage, []byte{1, 2, 3})
	if m := r.readJSON(); m["type"] != "error" {
		t.Fatalf("binary hello: %v", m)
	}
	// A protocol of the future.
	r, _, _ = dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
	r.sendJSON(map[string]any{"type": "hello", "protocol": 2, "token": tc.Token()})
	if m := r.readJSON(); m["type"] != "error" || !strings.Contains(fmt.Sprint(m["reason"]), "protocol 2") {
		t.Fatalf("protocol 2: %v", m)
	}
	// Text that is not JSON after the welcome: the connection closes, the
	// session waits, then ends.
	r, _, _ = dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
	name := r.hello(tc.Token())["session"].(string)
	r.ws.WriteMessage(websocket.TextMessage, []byte("{not json"))
	if m := r.readJSON(); m["type"] != "error" || !strings.Contains(fmt.Sprint(m["reason"]), "not JSON") {
		t.Fatalf("garbage text: %v", m)
	}
	s := waitEnded(t, tc, name)
	if s.Status != tracedir.StatusIncomplete || !strings.Contains(s.Reason, "not JSON") {
		t.Fatalf("session: %s %q", s.Status, s.Reason)
	}
	// A gap in the sequence.
	r, _, _ = dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
	r.hello(tc.Token())
	r.chunk(3, []byte{23, 0, 0, 0, 0})
	if m := r.readJSON(); m["type"] != "error" || !strings.Contains(fmt.Sprint(m["reason"]), "chunk 3 came before chunk 0") {
		t.Fatalf("gap: %v", m)
	}
	check()
}

func TestSilentClients(t *testing.T) {
	tc := startCollector(t, Config{HelloTimeout: 300 * time.Millisecond, Heartbeat: 200 * time.Millisecond, ResumeWait: 200 * time.Millisecond})
	check := healthy(t, tc)
	// No hello at all.
	r, _, _ := dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
	start := time.Now()
	if _, _, err := r.ws.ReadMessage(); err == nil || time.Since(start) > 5*time.Second {
		t.Fatalf("a connection without a hello stayed open: %v", err)
	}
	// A client that stops reading and answering pings: gorilla answers
	// pings in its read loop, which this client never runs.
	r, _, _ = dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
	r.sendJSON(map[string]any{"type": "hello", "protocol": 1, "token": tc.Token()})
	var w map[string]any
	r.ws.ReadJSON(&w)
	r.ws.SetPingHandler(func(string) error { return nil }) // no pongs
	go func() {
		for {
			if _, _, err := r.ws.ReadMessage(); err != nil {
				return
			}
		}
	}()
	s := waitEnded(t, tc, w["session"].(string))
	if s.Status != tracedir.StatusIncomplete || !strings.Contains(s.Reason, "silent for three heartbeats") {
		t.Fatalf("session: %s %q", s.Status, s.Reason)
	}
	check()
}

func TestConnectionFlood(t *testing.T) {
	tc := startCollector(t, Config{MaxConns: 8, HelloTimeout: 2 * time.Second})
	var conns []*rawConn
	refused := 0
	for i := 0; i < 20; i++ {
		r, resp, err := dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
		if err != nil {
			if resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
				t.Fatalf("connection %d: %v", i, err)
			}
			refused++
			continue
		}
		conns = append(conns, r)
	}
	if len(conns) != 8 || refused != 12 {
		t.Fatalf("%d accepted, %d refused", len(conns), refused)
	}
	// Once they go (the hello timeout), sessions are taken again.
	for _, r := range conns {
		r.ws.Close()
	}
	deadline := time.Now().Add(10 * time.Second)
	for tc.conns.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	check := healthy(t, tc)
	check()
}

func TestOriginPolicy(t *testing.T) {
	tc := startCollector(t, Config{AllowOrigins: []string{"https://app.example"}})
	defer healthy(t, tc)()
	for _, c := range []struct {
		origin string
		ok     bool
	}{
		{"", true},
		{"https://app.example", true},
		{"http://" + strings.TrimPrefix(tc.HTTP, "http://"), true},
		{"https://evil.example", false},
	} {
		h := http.Header{}
		if c.origin != "" {
			h.Set("Origin", c.origin)
		}
		r, resp, err := dialRaw(t, tc.URL+CollectPath, Subprotocol, h)
		if c.ok != (err == nil) {
			t.Fatalf("origin %q: %v", c.origin, err)
		}
		if !c.ok && resp.StatusCode != http.StatusForbidden {
			t.Fatalf("origin %q: %s", c.origin, resp.Status)
		}
		if r != nil {
			r.ws.Close()
		}
	}
}

func TestDiskFull(t *testing.T) {
	var mu sync.Mutex
	free := int64(1 << 40)
	tc := startCollector(t, Config{MinFree: 1 << 30, FreeSpace: func() (int64, error) {
		mu.Lock()
		defer mu.Unlock()
		return free, nil
	}})
	ctx := context.Background()
	c, err := client.Dial(ctx, client.Options{URL: tc.URL, Token: tc.Token(), ChunkSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	data := genTrace(t, 3, 512<<10)
	c.Write(data[:100<<10])
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	free = 1 << 20
	mu.Unlock()
	s := waitEnded(t, tc, c.Session())
	if s.Status != tracedir.StatusIncomplete || !strings.Contains(s.Reason, "disk full: 1048576 bytes free") {
		t.Fatalf("session: %s %q", s.Status, s.Reason)
	}
	got := traceBytes(t, tc.Out(), c.Session())
	if len(got) == 0 || !bytes.Equal(got, data[:len(got)]) {
		t.Fatalf("kept %d bytes", len(got))
	}
	// New sessions are refused while the disk is full.
	_, err = client.Dial(ctx, client.Options{URL: tc.URL, Token: tc.Token()})
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("a new session with the disk full: %v", err)
	}
}

// flakyDial breaks each connection after a random number of bytes written.
func flakyDial(rng *rand.Rand, mu *sync.Mutex, max int) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		mu.Lock()
		n := 2000 + rng.IntN(max)
		mu.Unlock()
		return &flakyConn{Conn: c, left: n}, nil
	}
}

type flakyConn struct {
	net.Conn
	mu   sync.Mutex
	left int
}

func (f *flakyConn) Write(p []byte) (int, error) {
	f.mu.Lock()
	if f.left <= 0 {
		f.mu.Unlock()
		f.Conn.Close()
		return 0, net.ErrClosed
	}
	n := min(len(p), f.left)
	f.left -= n
	f.mu.Unlock()
	m, err := f.Conn.Write(p[:n])
	if err == nil && n < len(p) {
		f.Conn.Close()
		return m, net.ErrClosed
	}
	return m, err
}

func TestRandomDisconnectsGiveTheSameTrace(t *testing.T) {
	// With --fsync the acknowledgements come from the sync rounds, while
	// the session goes on: a resent chunk written and not yet synced is
	// acknowledged by its round.
	for _, fsync := range []bool{false, true} {
		t.Run(fmt.Sprintf("fsync=%v", fsync), func(t *testing.T) { testRandomDisconnects(t, fsync) })
	}
}

func testRandomDisconnects(t *testing.T, fsync bool) {
	tc := startCollector(t, Config{Fsync: fsync})
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(1, 2))
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			data := genTrace(t, uint64(20+i), 4<<20)
			c, end := send(t, tc.URL, tc.Token(), data, client.Options{ChunkSize: 16 << 10, NetDial: flakyDial(rng, &mu, 400<<10)})
			if end.Status != tracedir.StatusComplete {
				t.Errorf("session %d ended %s: %s", i, end.Status, end.Reason)
				return
			}
			if !bytes.Equal(traceBytes(t, tc.Out(), c.Session()), data) {
				t.Errorf("session %d: the trace differs from what was sent", i)
			}
			s := readSession(t, tc.Out(), c.Session())
			if c.Reconnects() < 3 || s.Received.Resumes != c.Reconnects() {
				t.Errorf("session %d: %d reconnections, %d resumes recorded", i, c.Reconnects(), s.Received.Resumes)
			}
		}(i)
	}
	wg.Wait()
}

func TestClientBoundDropsAndSays(t *testing.T) {
	// A collector that stops acknowledging: the client's bound fills.
	tc := startCollector(t, Config{Window: 1 << 30})
	defer healthy(t, tc)()
	ctx := context.Background()
	c, err := client.Dial(ctx, client.Options{URL: tc.URL, Token: tc.Token(), ChunkSize: 8 << 10, MaxBuffer: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	data := genTrace(t, 4, 1<<20)
	// Hold the session's lock so that nothing is written or acknowledged
	// while the client writes.
	s := tc.lookup(c.Session())
	s.mu.Lock()
	c.Write(data)
	s.mu.Unlock()
	end, err := c.End(ctx, "exit")
	if err != nil {
		t.Fatal(err)
	}
	if end.Status != tracedir.StatusIncomplete || !strings.Contains(end.Reason, "the client dropped") {
		t.Fatalf("ended %+v", end)
	}
	ss := readSession(t, tc.Out(), c.Session())
	d := ss.Dropped
	if d == nil || d.FromByte != 64<<10 || d.FromSeq != 8 || d.FromByte+d.Bytes != int64(len(data)) || !strings.Contains(d.Why, "keeps at most 65536") {
		t.Fatalf("dropped %+v (trace %d bytes)", d, len(data))
	}
	if got := traceBytes(t, tc.Out(), c.Session()); !bytes.Equal(got, data[:64<<10]) {
		t.Fatalf("kept %d bytes", len(got))
	}
}

func errorsAs(err error, target any) bool {
	return err != nil && json.Valid([]byte("1")) && asErr(err, target)
}

func asErr(err error, target any) bool {
	ce, ok := target.(**websocket.CloseError)
	if !ok {
		return false
	}
	c, ok := err.(*websocket.CloseError)
	if ok {
		*ce = c
	}
	return ok
}

// TestFsyncAcknowledgesAfterTheSync: with --fsync a client that sends
// without waiting gets cumulative acknowledgements from the sync rounds,
// in order, up to its last chunk; a chunk sent again is acknowledged
// again, never written twice.
func TestFsyncAcknowledgesAfterTheSync(t *testing.T) {
	tc := startCollector(t, Config{Fsync: true})
	data := genTrace(t, 31, 2<<20)
	const chunk = 32 << 10
	r, _, err := dialRaw(t, tc.URL+CollectPath, Subprotocol, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := r.hello(tc.Token())
	name, _ := w["session"].(string)
	n := 0
	for off := 0; off < len(data); off += chunk {
		r.chunk(uint64(n), data[off:min(off+chunk, len(data))])
		n++
	}
	last := -1.0
	for last < float64(n-1) {
		m := r.readJSON()
		if m["type"] != "ack" {
			t.Fatalf("after %d chunks: %v", n, m)
		}
		seq := m["seq"].(float64)
		if seq < last || seq > float64(n-1) {
			t.Fatalf("acknowledgement %v after %v (chunks 0..%d)", seq, last, n-1)
		}
		last = seq
	}
	// The first chunk again: acknowledged (everything up to the last is
	// synced), not written.
	r.chunk(0, data[:chunk])
	if m := r.readJSON(); m["type"] != "ack" || m["seq"] != float64(n-1) {
		t.Fatalf("a chunk sent again: %v", m)
	}
	r.sendJSON(map[string]any{"type": "end", "reason": "exit", "last": n - 1, "bytes": len(data)})
	if m := r.readJSON(); m["type"] != "ended" || m["status"] != tracedir.StatusComplete {
		t.Fatalf("end: %v", m)
	}
	if !bytes.Equal(traceBytes(t, tc.Out(), name), data) {
		t.Fatal("the trace is not the bytes sent")
	}
}
