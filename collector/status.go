package collector

import (
	_ "embed"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Status is what the status endpoint returns.
type Status struct {
	Out      string          `json:"out"`
	Start    time.Time       `json:"start"`
	Version  string          `json:"version"`
	Open     int64           `json:"connections"`
	DiskFree int64           `json:"diskFree"`
	DiskFull bool            `json:"diskFull"`
	Sessions []SessionStatus `json:"sessions"`
}

// SessionStatus is one session's line.
type SessionStatus struct {
	Name          string    `json:"name"`
	State         string    `json:"state"`
	Protocol      string    `json:"protocol"`
	Kind          string    `json:"kind"`
	Script        string    `json:"script,omitempty"`
	URL           string    `json:"url,omitempty"`
	Remote        string    `json:"remote,omitempty"`
	Start         time.Time `json:"start"`
	End           time.Time `json:"end,omitzero"`
	Bytes         int64     `json:"bytes"`
	Entries       int64     `json:"entries"`
	EntriesPerSec float64   `json:"entriesPerSecond"`
	Chunks        int64     `json:"chunks"`
	Resumes       int       `json:"resumes"`
	Reason        string    `json:"reason,omitempty"`
	Engine        string    `json:"engine,omitempty"`
	// Report is the link to an ended session's report (ReportPath,
	// relative to the status page, without the token).
	Report string `json:"report,omitempty"`
}

// Status reports every session.
func (c *Collector) Status() Status {
	c.mu.Lock()
	ss := append([]*session(nil), c.order...)
	c.mu.Unlock()
	st := Status{Out: c.cfg.Out, Start: c.start, Version: c.cfg.Version, Open: c.conns.Load(), DiskFree: c.free.Load(), DiskFull: c.diskFull.Load(), Sessions: []SessionStatus{}}
	now := time.Now()
	for _, s := range ss {
		line := s.snapshot()
		end := now
		if !line.End.IsZero() {
			end = line.End
		}
		if d := end.Sub(line.Start).Seconds(); d > 0 {
			line.EntriesPerSec = float64(line.Entries) / d
		}
		st.Sessions = append(st.Sessions, line)
	}
	return st
}

// authorized checks a status request's token (query token= or the
// Authorization: Bearer header) and origin.
func (c *Collector) authorized(w http.ResponseWriter, r *http.Request) bool {
	if !c.originOK(r) {
		http.Error(w, "memtrace collect: origin not allowed", http.StatusForbidden)
		return false
	}
	t := r.URL.Query().Get("token")
	if h := r.Header.Get("Authorization"); t == "" && strings.HasPrefix(h, "Bearer ") {
		t = strings.TrimPrefix(h, "Bearer ")
	}
	if !c.tokenOK(t) {
		http.Error(w, "memtrace collect: the status needs the collector's token (?token=..., printed when it starts)", http.StatusUnauthorized)
		return false
	}
	return true
}

func (c *Collector) serveStatusJSON(w http.ResponseWriter, r *http.Request) {
	if !c.authorized(w, r) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(c.Status())
}

// serveStop ends a session on request (POST, session=NAME): its client is
// asked to stop.
func (c *Collector) serveStop(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	if !c.authorized(w, r) {
		return
	}
	s := c.lookup(r.URL.Query().Get("session"))
	if s == nil {
		http.Error(w, "no such session", http.StatusNotFound)
		return
	}
	if s.connected() {
		s.requestStop("stopped from the status page")
	} else {
		s.fail("stopped from the status page while it waited for its client")
	}
	w.WriteHeader(http.StatusNoContent)
}

//go:embed status.html
var statusPage []byte

func (c *Collector) serveStatusPage(w http.ResponseWriter, r *http.Request) {
	if !c.authorized(w, r) {
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'")
	w.Write(statusPage)
}
