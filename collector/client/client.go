// Package client is a Go client of memtrace's trace protocol
// (docs/protocol.md): it cuts what it is given into chunks, keeps each
// until the collector acknowledges it, reconnects and resumes after a
// lost connection, bounds what it keeps (past the bound it drops the rest
// of the trace and says so in its end), and ends the session in order.
// The tests and the bench drive the collector with it; the shims speak
// the same protocol in JavaScript.
package client

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Options configure a client.
type Options struct {
	URL   string // ws://host:port (the path /__memtrace__/collect is added when none is given)
	Token string // "" = the URL's token parameter
	Meta  map[string]any
	// ChunkSize is the bytes per chunk (default 256 KiB).
	ChunkSize int
	// MaxBuffer bounds the bytes kept unacknowledged (default 64 MiB).
	MaxBuffer int64
	// Block makes Write wait for acknowledgements when MaxBuffer is full,
	// instead of dropping the rest of the trace (a shim never blocks the
	// program; a Go producer may wait).
	Block bool
	// ResumeWait is how long the client tries to reconnect after losing
	// its connection (default 30 s).
	ResumeWait time.Duration
	// NetDial, if set, makes the connections (tests break them with it).
	NetDial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Header is added to the upgrade request (an Origin, for tests).
	Header http.Header
}

// Ended is the collector's answer to the end.
type Ended struct {
	Session string `json:"-"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Bytes   int64  `json:"bytes"`
	Entries int64  `json:"entries"`
}

// Dropped is what the client could not keep (docs/protocol.md).
type Dropped struct {
	FromSeq  int64  `json:"fromSeq"`
	FromByte int64  `json:"fromByte"`
	Chunks   int64  `json:"chunks"`
	Bytes    int64  `json:"bytes"`
	Why      string `json:"why"`
}

type chunk struct {
	seq   uint64
	frame []byte // the binary message: the sequence number, then data
	data  []byte // frame[8:]
}

// Client streams one session. Write, Script and End may be called from
// one goroutine at a time.
type Client struct {
	opts    Options
	dialURL string
	token   string

	mu       sync.Mutex
	cond     *sync.Cond
	cur      []byte  // the chunk being filled: its message (sequence number first)
	chunks   []chunk // sealed, not acknowledged, in order
	kept     int64
	nextSeq  uint64 // of the next chunk sealed
	sendFrom int    // index into chunks of the next to send on this connection
	inflight int64
	bytes    int64 // accepted
	sealed   int64 // in chunks sealed
	ackedSeq int64 // the last acknowledged (-1: none)
	ackedB   int64 // the bytes acknowledged
	endSent  bool  // on this connection
	dropped  *Dropped
	scripts  []map[string]any
	ending   *endReq
	ended    *Ended
	err      error
	free     [][]byte // acknowledged frames, for chunks to come
	sending  []byte   // the frame being written (not freed until it is sent)
	lateFree bool     // sending was acknowledged while it was written
	stop     chan struct{}
	stopOnce sync.Once

	session, resume string
	window          int64
	maxFrame        int
	reconnects      int
	connDone        chan struct{}
	done            chan struct{}
}

type endReq struct{ reason string }

// Dial connects, sends the hello and returns once the collector has
// welcomed the session.
func Dial(ctx context.Context, opts Options) (*Client, error) {
	if opts.ChunkSize <= 0 {
		opts.ChunkSize = 256 << 10
	}
	if opts.MaxBuffer <= 0 {
		opts.MaxBuffer = 64 << 20
	}
	if opts.ResumeWait <= 0 {
		opts.ResumeWait = 30 * time.Second
	}
	u, err := url.Parse(opts.URL)
	if err != nil {
		return nil, err
	}
	token := opts.Token
	if token == "" {
		token = u.Query().Get("token")
	}
	q := u.Query()
	q.Del("token")
	u.RawQuery = q.Encode()
	if u.Path == "" || u.Path == "/" {
		u.Path = "/__memtrace__/collect"
	}
	c := &Client{opts: opts, dialURL: u.String(), token: token, stop: make(chan struct{}), done: make(chan struct{}), ackedSeq: -1}
	c.cond = sync.NewCond(&c.mu)
	ws, err := c.connect(ctx)
	if err != nil {
		return nil, err
	}
	go c.run(ws)
	return c, nil
}

// Session is the session's name in the collector.
func (c *Client) Session() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

// Reconnects is the number of times the client resumed its session.
func (c *Client) Reconnects() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reconnects
}

// Acked returns the last sequence number the collector acknowledged (-1
// for none) and the bytes up to its end.
func (c *Client) Acked() (int64, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ackedSeq, c.ackedB
}

// Stopped is closed when the collector asks the client to end.
func (c *Client) Stopped() <-chan struct{} { return c.stop }

// connect dials and exchanges hello and welcome.
func (c *Client) connect(ctx context.Context) (*websocket.Conn, error) {
	// A write buffer a chunk's message fits in: gorilla's client sends a
	// message longer than its buffer as one frame per buffer (4 KiB by
	// default, 64 frames and 64 writes for a chunk of 256 KiB); a browser
	// sends it as one.
	d := websocket.Dialer{Subprotocols: []string{"memtrace.trace.v1"}, HandshakeTimeout: 10 * time.Second, NetDialContext: c.opts.NetDial,
		WriteBufferSize: 8 + c.opts.ChunkSize}
	ws, resp, err := d.DialContext(ctx, c.dialURL, c.opts.Header)
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("%s: %s", c.dialURL, resp.Status)
		}
		return nil, err
	}
	h := map[string]any{"type": "hello", "protocol": 1, "token": c.token, "session": c.session, "resume": c.resume, "meta": c.opts.Meta}
	if err := ws.WriteJSON(h); err != nil {
		ws.Close()
		return nil, err
	}
	ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	var w struct {
		Type     string `json:"type"`
		Reason   string `json:"reason"`
		Session  string `json:"session"`
		Resume   string `json:"resume"`
		Next     uint64 `json:"next"`
		MaxFrame int    `json:"maxFrame"`
		Window   int64  `json:"window"`
		Status   string `json:"status"`
		Bytes    int64  `json:"bytes"`
		Entries  int64  `json:"entries"`
	}
	if err := ws.ReadJSON(&w); err != nil {
		ws.Close()
		return nil, fmt.Errorf("no welcome: %w", err)
	}
	ws.SetReadDeadline(time.Time{})
	if w.Type == "ended" {
		// The session ended while the connection was down (the collector
		// ended it, and the end was lost with the connection).
		ws.Close()
		return nil, &endedError{Ended{Status: w.Status, Reason: w.Reason, Bytes: w.Bytes, Entries: w.Entries}}
	}
	if w.Type != "welcome" {
		ws.Close()
		return nil, &RefusedError{Reason: w.Reason}
	}
	c.mu.Lock()
	c.session, c.resume, c.window, c.maxFrame = w.Session, w.Resume, w.Window, w.MaxFrame
	// Drop what the collector has; send the rest again.
	c.sendFrom, c.inflight = 0, 0
	c.dropAcked(func(seq uint64) bool { return seq < w.Next })
	c.endSent = false
	c.mu.Unlock()
	return ws, nil
}

// endedError is the answer to a resumption of a session that has ended.
type endedError struct{ e Ended }

func (e *endedError) Error() string { return "the session has ended (" + e.e.Status + ")" }

// RefusedError is a hello the collector refused.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return "the collector refused the session: " + e.Reason }

// Write hands trace bytes over; it never blocks on the network.
func (c *Client) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	n := len(p)
	for len(p) > 0 && c.dropped == nil {
		if c.cur == nil {
			c.cur = c.newFrame()
		}
		take := min(8+c.opts.ChunkSize-len(c.cur), len(p))
		c.cur = append(c.cur, p[:take]...)
		p = p[take:]
		c.bytes += int64(take)
		if len(c.cur) == 8+c.opts.ChunkSize {
			c.seal()
		}
	}
	if c.dropped != nil {
		c.dropped.Bytes += int64(len(p))
	}
	return n, nil
}

// newFrame returns an empty chunk's message: room for the sequence
// number, then up to ChunkSize bytes. It is sent as it is, never copied.
// An acknowledged frame is used again: a client streaming gigabytes
// allocates (and the kernel maps and zeroes) a window's worth, not every
// frame.
func (c *Client) newFrame() []byte {
	if k := len(c.free); k > 0 {
		f := c.free[k-1]
		c.free = c.free[:k-1]
		return f[:8]
	}
	return make([]byte, 8, 8+c.opts.ChunkSize)
}

// release keeps an acknowledged frame for a chunk to come, unless the
// sending goroutine is still writing it (then it does when done).
func (c *Client) release(frame []byte) {
	if c.sending != nil && &c.sending[0] == &frame[0] {
		c.lateFree = true
		return
	}
	if cap(frame) == 8+c.opts.ChunkSize && len(c.free) < 64 {
		c.free = append(c.free, frame)
	}
}

// dropAcked drops the chunks up to seq (acknowledged), keeping their frames.
func (c *Client) dropAcked(below func(seq uint64) bool) {
	i := 0
	for i < len(c.chunks) && below(c.chunks[i].seq) {
		c.kept -= int64(len(c.chunks[i].data))
		c.ackedSeq = int64(c.chunks[i].seq)
		c.ackedB += int64(len(c.chunks[i].data))
		if i < c.sendFrom {
			c.inflight -= int64(len(c.chunks[i].data))
		}
		c.release(c.chunks[i].frame)
		c.chunks[i] = chunk{}
		i++
	}
	c.chunks = c.chunks[i:]
	c.sendFrom = max(c.sendFrom-i, 0)
}

// seal turns the chunk being filled into one to send, or drops it (and
// everything after it) when the bound is full.
func (c *Client) seal() {
	n := len(c.cur) - 8
	if n <= 0 {
		return
	}
	for c.opts.Block && c.kept > 0 && c.kept+int64(n) > c.opts.MaxBuffer && c.err == nil && c.ended == nil {
		c.cond.Wait()
	}
	if c.kept+int64(n) > c.opts.MaxBuffer {
		c.dropped = &Dropped{FromSeq: int64(c.nextSeq), FromByte: c.sealed, Bytes: int64(n),
			Why: fmt.Sprintf("%d bytes waited for the collector's acknowledgement, and the client keeps at most %d", c.kept, c.opts.MaxBuffer)}
		c.cur = nil
		return
	}
	binary.BigEndian.PutUint64(c.cur, c.nextSeq)
	c.chunks = append(c.chunks, chunk{seq: c.nextSeq, frame: c.cur, data: c.cur[8:]})
	c.kept += int64(n)
	c.sealed += int64(n)
	c.nextSeq++
	c.cur = nil
	c.cond.Broadcast()
}

// Script sends a script's original source.
func (c *Client) Script(name string, source string) {
	c.mu.Lock()
	c.scripts = append(c.scripts, map[string]any{"type": "script", "name": name, "source": source})
	c.cond.Broadcast()
	c.mu.Unlock()
}

// End sends what is left, ends the session and waits for the collector's
// answer (or ctx).
func (c *Client) End(ctx context.Context, reason string) (*Ended, error) {
	c.mu.Lock()
	if c.dropped == nil {
		c.seal()
	} else {
		c.cur = nil
	}
	if c.ending == nil {
		c.ending = &endReq{reason: reason}
	}
	c.cond.Broadcast()
	c.mu.Unlock()
	select {
	case <-c.done:
	case <-ctx.Done():
		c.Abort()
		return nil, ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended != nil {
		c.ended.Session = c.session
		return c.ended, nil
	}
	return nil, c.err
}

// Abort drops the connection without ending the session (a process that
// dies).
func (c *Client) Abort() {
	c.mu.Lock()
	if c.err == nil {
		c.err = errors.New("aborted")
	}
	c.cond.Broadcast()
	c.mu.Unlock()
}

// run sends chunks over ws, and over the next connection when it drops.
func (c *Client) run(ws *websocket.Conn) {
	defer close(c.done)
	for {
		lost := c.serve(ws)
		c.mu.Lock()
		finished := c.ended != nil || c.err != nil
		c.mu.Unlock()
		if finished {
			return
		}
		// Reconnect and resume.
		deadline := time.Now().Add(c.opts.ResumeWait)
		backoff := 20 * time.Millisecond
		for {
			c.mu.Lock()
			aborted := c.err != nil
			c.mu.Unlock()
			if aborted {
				return
			}
			ctx, cancel := context.WithDeadline(context.Background(), deadline)
			var err error
			ws, err = c.connect(ctx)
			cancel()
			if err == nil {
				c.mu.Lock()
				c.reconnects++
				c.mu.Unlock()
				break
			}
			var ee *endedError
			if errors.As(err, &ee) {
				c.mu.Lock()
				if c.ended == nil {
					c.ended = &ee.e
				}
				c.cond.Broadcast()
				c.mu.Unlock()
				return
			}
			var re *RefusedError
			if errors.As(err, &re) || time.Now().After(deadline) {
				c.mu.Lock()
				if c.err == nil {
					c.err = fmt.Errorf("the connection was lost (%v) and could not be resumed: %w", lost, err)
				}
				c.cond.Broadcast()
				c.mu.Unlock()
				return
			}
			time.Sleep(backoff)
			backoff = min(2*backoff, time.Second)
		}
	}
}

// serve runs one connection until it is lost (the error) or the session
// ends (nil).
func (c *Client) serve(ws *websocket.Conn) error {
	defer ws.Close()
	readErr := make(chan error, 1)
	go c.readLoop(ws, readErr)
	var lost error
	for {
		c.mu.Lock()
		for {
			if c.err != nil || c.ended != nil || lost != nil {
				break
			}
			select {
			case lost = <-readErr:
				continue
			default:
			}
			if len(c.scripts) > 0 || (c.sendFrom < len(c.chunks) && c.inflight < c.window) ||
				(c.ending != nil && len(c.chunks) == 0 && !c.endSent) {
				break
			}
			c.cond.Wait()
		}
		if c.err != nil || c.ended != nil || lost != nil {
			aborted := c.err != nil
			c.mu.Unlock()
			if lost == nil && !aborted {
				ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
			}
			return lost
		}
		var msg []byte
		var mt int
		switch {
		case len(c.scripts) > 0:
			msg, _ = json.Marshal(c.scripts[0])
			mt = websocket.TextMessage
			c.scripts = c.scripts[1:]
		case c.sendFrom < len(c.chunks) && c.inflight < c.window:
			ch := c.chunks[c.sendFrom]
			c.sendFrom++
			c.inflight += int64(len(ch.data))
			msg = ch.frame
			mt = websocket.BinaryMessage
			c.sending = ch.frame
		default:
			end := map[string]any{"type": "end", "reason": c.ending.reason, "last": int64(c.nextSeq) - 1, "bytes": c.sealed}
			if d := c.dropped; d != nil {
				d.Chunks = (d.Bytes + int64(c.opts.ChunkSize) - 1) / int64(c.opts.ChunkSize)
				end["dropped"] = d
			}
			c.endSent = true
			msg, _ = json.Marshal(end)
			mt = websocket.TextMessage
		}
		c.mu.Unlock()
		ws.SetWriteDeadline(time.Now().Add(10 * time.Second))
		err := ws.WriteMessage(mt, msg)
		if mt == websocket.BinaryMessage {
			c.mu.Lock()
			f := c.sending
			c.sending = nil
			if c.lateFree {
				c.lateFree = false
				c.release(f)
			}
			c.mu.Unlock()
		}
		if err != nil {
			// Wait for the read loop, so that no acknowledgement of this
			// connection arrives after the next one's welcome.
			ws.Close()
			<-readErr
			return err
		}
	}
}

// readLoop reads the collector's messages: acknowledgements, stop, ended.
func (c *Client) readLoop(ws *websocket.Conn, out chan<- error) {
	for {
		var m struct {
			Type    string `json:"type"`
			Seq     uint64 `json:"seq"`
			Reason  string `json:"reason"`
			Status  string `json:"status"`
			Bytes   int64  `json:"bytes"`
			Entries int64  `json:"entries"`
		}
		mt, b, err := ws.ReadMessage()
		if err != nil {
			c.mu.Lock()
			c.cond.Broadcast()
			c.mu.Unlock()
			out <- err
			c.mu.Lock()
			c.cond.Broadcast()
			c.mu.Unlock()
			return
		}
		if mt != websocket.TextMessage || json.Unmarshal(b, &m) != nil {
			continue
		}
		c.mu.Lock()
		switch m.Type {
		case "ack":
			c.dropAcked(func(seq uint64) bool { return seq <= m.Seq })
		case "stop":
			c.stopOnce.Do(func() { close(c.stop) })
		case "ended":
			c.ended = &Ended{Status: m.Status, Reason: m.Reason, Bytes: m.Bytes, Entries: m.Entries}
		case "error":
			if c.err == nil && strings.Contains(m.Reason, "ended") {
				c.err = errors.New("the collector: " + m.Reason)
			}
		}
		c.cond.Broadcast()
		c.mu.Unlock()
	}
}
