package collector

import (
	"bytes"
	"crypto/subtle"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
)

// Websocket close codes the collector sends.
const (
	closeNormal    = websocket.CloseNormalClosure
	closeGoingAway = websocket.CloseGoingAway
	closeProtocol  = websocket.CloseProtocolError
	closePolicy    = websocket.ClosePolicyViolation
	closeTooBig    = websocket.CloseMessageTooBig
)

const writeWait = 10 * time.Second

// peer is one client connection: writes are serialised.
type peer struct {
	ws     *websocket.Conn
	remote string
	origin string
	mu     sync.Mutex
	closed bool
	// welcomed: the welcome is sent, so that acknowledgements from the
	// sync rounds (--fsync) may follow it.
	welcomed atomic.Bool
}

func newPeer(ws *websocket.Conn, r *http.Request) *peer {
	return &peer{ws: ws, remote: r.RemoteAddr, origin: r.Header.Get("Origin")}
}

// send writes one JSON text message (errors: the read loop sees the
// connection fail).
func (p *peer) send(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	p.sendRaw(websocket.TextMessage, b)
}

func (p *peer) sendRaw(mt int, b []byte) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return net.ErrClosed
	}
	p.ws.SetWriteDeadline(time.Now().Add(writeWait))
	err := p.ws.WriteMessage(mt, b)
	if err != nil {
		p.closed = true
		p.ws.Close()
	}
	return err
}

func (p *peer) ping() error {
	return p.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait))
}

// closeWith closes the connection with code and reason (a close frame's
// reason holds at most 123 bytes).
func (p *peer) closeWith(code int, reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.closed = true
	if len(reason) > 120 {
		reason = reason[:120]
	}
	p.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(time.Second))
	p.ws.Close()
}

// hello is a client's first message.
type hello struct {
	Type     string `json:"type"`
	Protocol int    `json:"protocol"`
	Token    string `json:"token"`
	Session  string `json:"session"`
	Resume   string `json:"resume"`
	// Client is a name the client chose for its new session (random), by
	// which its beacon finds the session when the page went away before
	// the welcome arrived.
	Client string `json:"client"`
	Meta   Meta   `json:"meta"`
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (c *Collector) upgrader(subprotocol string) *websocket.Upgrader {
	return &websocket.Upgrader{
		HandshakeTimeout: c.cfg.HelloTimeout,
		ReadBufferSize:   64 << 10,
		WriteBufferSize:  4 << 10,
		Subprotocols:     []string{subprotocol},
		CheckOrigin:      func(*http.Request) bool { return true }, // originOK, before
		Error: func(w http.ResponseWriter, r *http.Request, status int, reason error) {
			http.Error(w, "memtrace collect: "+reason.Error(), status)
		},
	}
}

func hasSubprotocol(r *http.Request, want string) bool {
	for _, p := range websocket.Subprotocols(r) {
		if p == want {
			return true
		}
	}
	return false
}

// admit applies the origin policy, the subprotocol and the connection
// limit to an upgrade; false when it refused it (the response written).
func (c *Collector) admit(w http.ResponseWriter, r *http.Request, subprotocol string) bool {
	if !c.originOK(r) {
		c.logf("refused a connection from %s: origin %s is not allowed (--allow-origin)", r.RemoteAddr, r.Header.Get("Origin"))
		http.Error(w, "memtrace collect: origin "+r.Header.Get("Origin")+" is not allowed", http.StatusForbidden)
		return false
	}
	if !hasSubprotocol(r, subprotocol) {
		http.Error(w, "memtrace collect: the websocket subprotocol "+subprotocol+" is required (docs/protocol.md)", http.StatusBadRequest)
		return false
	}
	if !c.acquireConn() {
		c.logf("refused a connection from %s: %d connections are open (--max-conns)", r.RemoteAddr, c.cfg.MaxConns)
		http.Error(w, "memtrace collect: too many connections", http.StatusServiceUnavailable)
		return false
	}
	return true
}

// readMessage reads one message into a pooled buffer (the limit is the
// connection's read limit).
func readMessage(ws *websocket.Conn, buf *bytes.Buffer) (int, error) {
	mt, r, err := ws.NextReader()
	if err != nil {
		return 0, err
	}
	buf.Reset()
	_, err = buf.ReadFrom(r)
	return mt, err
}

// describeReadError says why a connection ended, for the log and the
// session's wait.
func describeReadError(err error) string {
	var ce *websocket.CloseError
	switch {
	case errors.Is(err, websocket.ErrReadLimit):
		return "a message over the frame limit"
	case errors.As(err, &ce):
		if ce.Text != "" {
			return fmt.Sprintf("the client closed the connection (%d: %s)", ce.Code, ce.Text)
		}
		return fmt.Sprintf("the client closed the connection (%d)", ce.Code)
	case isTimeout(err):
		return "the connection was silent for three heartbeats"
	default:
		return "the connection was lost (" + err.Error() + ")"
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// open upgrades an admitted request and reads its first message (within
// HelloTimeout) into a pooled buffer; ws is nil when the upgrade failed
// (the response written), err the first read's.
func (c *Collector) open(w http.ResponseWriter, r *http.Request, subprotocol string) (*websocket.Conn, *peer, *bytes.Buffer, int, error) {
	ws, err := c.upgrader(subprotocol).Upgrade(w, r, nil)
	if err != nil {
		return nil, nil, nil, 0, err
	}
	ws.SetReadLimit(int64(c.cfg.MaxFrame))
	buf := bufPool.Get().(*bytes.Buffer)
	ws.SetReadDeadline(time.Now().Add(c.cfg.HelloTimeout))
	mt, err := readMessage(ws, buf)
	return ws, newPeer(ws, r), buf, mt, err
}

// close ends a connection open made.
func (c *Collector) close(ws *websocket.Conn, buf *bytes.Buffer) {
	ws.Close()
	if buf.Cap() <= 1<<20 {
		bufPool.Put(buf)
	}
}

// serveCollect serves memtrace's protocol (docs/protocol.md).
func (c *Collector) serveCollect(w http.ResponseWriter, r *http.Request) {
	if !c.admit(w, r, Subprotocol) {
		return
	}
	defer c.releaseConn()
	ws, p, buf, mt, err := c.open(w, r, Subprotocol)
	if ws == nil {
		return
	}
	defer c.close(ws, buf)
	if err != nil {
		c.logf("%s: no hello: %s", r.RemoteAddr, describeReadError(err))
		p.closeWith(closeProtocol, "no hello")
		return
	}
	var h hello
	if mt != websocket.TextMessage || json.Unmarshal(buf.Bytes(), &h) != nil || h.Type != "hello" {
		c.refuse(p, closeProtocol, "the first message must be a hello (docs/protocol.md)")
		return
	}
	if h.Protocol != ProtocolVersion {
		c.refuse(p, closeProtocol, fmt.Sprintf("protocol %d: this collector speaks %d", h.Protocol, ProtocolVersion))
		return
	}
	if h.Meta.Format == "" {
		h.Meta.Format = "meminsight"
	}
	if h.Meta.Format != "meminsight" {
		c.refuse(p, closeProtocol, fmt.Sprintf("trace format %q: this collector reads meminsight", h.Meta.Format))
		return
	}
	if !c.SessionTokenOK(h.Token) {
		what := "a wrong token"
		if h.Token == "" {
			what = "no token"
		}
		c.refuse(p, closePolicy, "refused: "+what+" (the collector prints its token when it starts)")
		return
	}
	var s *session
	if h.Session != "" {
		s = c.lookup(h.Session)
		if s == nil || s.resume == "" || subtle.ConstantTimeCompare([]byte(h.Resume), []byte(s.resume)) != 1 {
			c.refuse(p, closePolicy, "no session "+strconv.Quote(h.Session)+" to resume with that secret")
			return
		}
	} else {
		if c.diskFull.Load() {
			c.refuse(p, closeGoingAway, c.diskFullReason())
			return
		}
		if s, err = c.newSessionFor(h.Client, &h.Meta, "memtrace"); err != nil {
			c.refuse(p, closeGoingAway, "no session could be made: "+err.Error())
			return
		}
		c.logf("%s: new session from %s (%s %s)", s.name, r.RemoteAddr, h.Meta.Kind, h.Meta.label())
	}
	next, f := s.attach(p, h.Session != "")
	if f != nil && f.ended {
		// A client that lost the connection before it read the session's
		// end (the collector ended it) learns the end when it resumes.
		s.mu.Lock()
		msg := endedMessage(&s.sess)
		s.mu.Unlock()
		c.logf("%s: %s came back after the session ended", s.name, r.RemoteAddr)
		p.send(msg)
		p.closeWith(f.code, "ended")
		return
	}
	if f != nil {
		c.refuse(p, f.code, f.reason)
		return
	}
	defer s.detachLater(p)
	p.send(map[string]any{"type": "welcome", "session": s.name, "resume": s.resume, "next": next,
		"maxFrame": c.cfg.MaxFrame, "window": c.cfg.Window, "heartbeat": int(c.cfg.Heartbeat / time.Second)})
	p.welcomed.Store(true)

	stopPing := c.heartbeat(p)
	defer stopPing()
	deadline := 3 * c.cfg.Heartbeat
	ws.SetPongHandler(func(string) error { return ws.SetReadDeadline(time.Now().Add(deadline)) })
	ack := make([]byte, 0, 40)
	for {
		ws.SetReadDeadline(time.Now().Add(deadline))
		mt, err := readMessage(ws, buf)
		if err != nil {
			why := describeReadError(err)
			if errors.Is(err, websocket.ErrReadLimit) {
				why = fmt.Sprintf("a message over the frame limit of %d bytes", c.cfg.MaxFrame)
				p.closeWith(closeTooBig, why)
			}
			s.detachWhy(p, why)
			return
		}
		switch mt {
		case websocket.BinaryMessage:
			b := buf.Bytes()
			if len(b) < 8 {
				s.protocolFault(p, fmt.Sprintf("a chunk of %d bytes has no sequence number", len(b)))
				return
			}
			seq, f := s.writeChunk(binary.BigEndian.Uint64(b), b[8:])
			if f != nil {
				s.faulted(p, f)
				return
			}
			if seq == deferAck {
				continue // the sync round acknowledges it
			}
			ack = append(ack[:0], `{"type":"ack","seq":`...)
			ack = strconv.AppendUint(ack, seq, 10)
			ack = append(ack, '}')
			if p.sendRaw(websocket.TextMessage, ack) != nil {
				s.detachWhy(p, "the connection was lost")
				return
			}
		case websocket.TextMessage:
			var m struct {
				Type   string `json:"type"`
				Name   string `json:"name"`
				Source string `json:"source"`
			}
			if json.Unmarshal(buf.Bytes(), &m) != nil {
				s.protocolFault(p, "a text message that is not JSON")
				return
			}
			switch m.Type {
			case "script":
				if err := s.addScript(m.Name, []byte(m.Source)); err != nil {
					c.logf("%s: the source of %q is not kept: %v", s.name, m.Name, err)
				}
			case "end":
				var e endMsg
				json.Unmarshal(buf.Bytes(), &e)
				s.clientEnd(&e)
				s.mu.Lock()
				msg := endedMessage(&s.sess)
				s.mu.Unlock()
				p.send(msg)
				p.closeWith(closeNormal, "ended")
				return
			case "ping":
				p.send(map[string]any{"type": "pong"})
			default:
				s.protocolFault(p, fmt.Sprintf("a message of unknown type %q", m.Type))
				return
			}
		}
	}
}

// refuse answers a connection that gets no session.
func (c *Collector) refuse(p *peer, code int, reason string) {
	c.logf("refused a connection from %s: %s", p.remote, reason)
	p.send(map[string]any{"type": "error", "reason": reason})
	p.closeWith(code, reason)
}

// protocolFault closes a connection that broke the protocol; its session
// waits for the client to come back.
func (s *session) protocolFault(p *peer, reason string) {
	s.c.logf("%s: closed the connection from %s: %s", s.name, p.remote, reason)
	p.send(map[string]any{"type": "error", "reason": reason})
	p.closeWith(closeProtocol, reason)
	s.detachWhy(p, reason)
}

// faulted closes the connection after f.
func (s *session) faulted(p *peer, f *fault) {
	if f.ended {
		s.mu.Lock()
		msg := endedMessage(&s.sess)
		s.mu.Unlock()
		p.send(msg)
	} else {
		s.c.logf("%s: closed the connection from %s: %s", s.name, p.remote, f.reason)
		p.send(map[string]any{"type": "error", "reason": f.reason})
	}
	p.closeWith(f.code, f.reason)
	s.detachWhy(p, f.reason)
}

func (s *session) detachWhy(p *peer, why string) { s.detach(p, "the connection ended: "+why) }

// detachLater is the deferred detach of a connection loop that returned
// without saying why.
func (s *session) detachLater(p *peer) { s.detach(p, "the connection ended") }

// heartbeat pings p every Heartbeat until the returned stop is called.
func (c *Collector) heartbeat(p *peer) func() {
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(c.cfg.Heartbeat)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if p.ping() != nil {
					return
				}
			}
		}
	}()
	return func() { close(stop) }
}

// serveMemInsight serves MemInsight's protocol at "/" (spec §5.1): a text
// startup, binary messages of whole entries each answered "done", close
// = end.
func (c *Collector) serveMemInsight(w http.ResponseWriter, r *http.Request) {
	if !c.admit(w, r, MemInsightSubprotocol) {
		return
	}
	defer c.releaseConn()
	if !c.SessionTokenOK(r.URL.Query().Get("token")) {
		c.logf("refused a MemInsight connection from %s: no token in its URL (run with --open, or dial /?token=...)", r.RemoteAddr)
		http.Error(w, "memtrace collect: a token is required (?token=...), or run the collector with --open", http.StatusUnauthorized)
		return
	}
	ws, p, buf, mt, err := c.open(w, r, MemInsightSubprotocol)
	if ws == nil {
		return
	}
	defer c.close(ws, buf)
	if err != nil || mt != websocket.TextMessage || buf.String() != "startup" {
		c.logf("refused a MemInsight connection from %s: the first message must be the text startup", r.RemoteAddr)
		p.closeWith(closeProtocol, "the first message must be startup")
		return
	}
	if c.diskFull.Load() {
		p.closeWith(closeGoingAway, c.diskFullReason())
		return
	}
	meta := Meta{Kind: "meminsight", URL: r.Header.Get("Origin"), UserAgent: r.Header.Get("User-Agent"), Format: "meminsight"}
	s, err := c.newSession(&meta, "meminsight")
	if err != nil {
		p.closeWith(closeGoingAway, "no session could be made")
		return
	}
	c.logf("%s: new MemInsight session from %s", s.name, r.RemoteAddr)
	if _, f := s.attach(p, false); f != nil {
		p.closeWith(f.code, f.reason)
		return
	}
	defer s.detachLater(p)
	stopPing := c.heartbeat(p)
	defer stopPing()
	deadline := 3 * c.cfg.Heartbeat
	ws.SetPongHandler(func(string) error { return ws.SetReadDeadline(time.Now().Add(deadline)) })
	done := []byte("done")
	for {
		ws.SetReadDeadline(time.Now().Add(deadline))
		mt, err := readMessage(ws, buf)
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				s.detach(p, "closed") // the end of a MemInsight trace
				return
			}
			why := describeReadError(err)
			if errors.Is(err, websocket.ErrReadLimit) {
				why = fmt.Sprintf("a message over the frame limit of %d bytes", c.cfg.MaxFrame)
				p.closeWith(closeTooBig, why)
			}
			s.fail("the connection ended: " + why)
			return
		}
		if mt != websocket.BinaryMessage {
			continue // the logger sends nothing else; text is ignored
		}
		if buf.Len() == 0 {
			if p.sendRaw(websocket.TextMessage, done) != nil {
				s.detach(p, "closed")
				return
			}
			continue
		}
		s.mu.Lock()
		seq := s.next
		s.mu.Unlock()
		if _, f := s.writeChunk(seq, buf.Bytes()); f != nil {
			p.closeWith(f.code, f.reason)
			s.detach(p, f.reason)
			return
		}
		if p.sendRaw(websocket.TextMessage, done) != nil {
			s.detach(p, "closed")
			return
		}
	}
}
