package collector

import (
	"bytes"
	"crypto/subtle"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"

	"github.com/memtrace/memtrace/tracedir"
)

// serveBeacon takes the end of a page's session in one request (POST,
// keepalive): a page that goes away cannot wait for the acknowledgements
// of its last chunks over the socket, so it sends them here too, with its
// end (docs/protocol.md, "The end of a page"). The query names the
// session and its resume secret, and carries the end as JSON; the body is
// chunks, each [seq: uint64][length: uint32][bytes], big-endian. A chunk
// the socket delivered already is not written again.
func (c *Collector) serveBeacon(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	if !c.originOK(r) {
		http.Error(w, "memtrace collect: origin not allowed", http.StatusForbidden)
		return
	}
	q := r.URL.Query()
	var s *session
	if q.Get("session") != "" {
		s = c.lookup(q.Get("session"))
		if s == nil || s.resume == "" || subtle.ConstantTimeCompare([]byte(q.Get("resume")), []byte(s.resume)) != 1 {
			http.Error(w, "memtrace collect: no such session to end", http.StatusNotFound)
			return
		}
	} else {
		// The page went away before its welcome: the session by the name
		// it chose, made here if its hello never arrived.
		if !c.SessionTokenOK(q.Get("token")) {
			http.Error(w, "memtrace collect: a wrong or missing token", http.StatusUnauthorized)
			return
		}
		client := q.Get("client")
		if client == "" {
			http.Error(w, "memtrace collect: a beacon names its session or its client", http.StatusBadRequest)
			return
		}
		var meta Meta
		json.Unmarshal([]byte(q.Get("meta")), &meta)
		var err error
		if s, err = c.newSessionFor(client, &meta, "memtrace"); err != nil {
			http.Error(w, "memtrace collect: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
	}
	// A session the socket has ended already (its end came first): what
	// the beacon repeats is there.
	s.mu.Lock()
	over := s.state == tracedir.StatusComplete || s.state == tracedir.StatusIncomplete
	s.mu.Unlock()
	if over {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(4*c.cfg.MaxFrame)))
	if err != nil {
		c.logf("%s: a beacon that could not be read: %v", s.name, err)
		http.Error(w, "memtrace collect: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	for p := 0; p < len(body); {
		if len(body)-p < 12 {
			c.logf("%s: a beacon whose chunk header is cut at byte %d", s.name, p)
			break
		}
		seq := binary.BigEndian.Uint64(body[p:])
		n := int(binary.BigEndian.Uint32(body[p+8:]))
		p += 12
		if n > len(body)-p || n == 0 {
			c.logf("%s: a beacon whose chunk %d is cut", s.name, seq)
			break
		}
		if _, f := s.writeChunk(seq, body[p:p+n]); f != nil {
			c.logf("%s: a beacon's chunk %d: %s", s.name, seq, f.reason)
			break
		}
		p += n
	}
	if e := q.Get("end"); e != "" {
		var m endMsg
		if err := json.NewDecoder(bytes.NewReader([]byte(e))).Decode(&m); err == nil && m.Type == "end" {
			s.clientEnd(&m)
		}
	}
	w.WriteHeader(http.StatusNoContent)
}
