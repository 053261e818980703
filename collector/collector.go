// Package collector receives traces over websockets (docs/protocol.md):
// from memtrace's shims (a Node process now, pages and workers later)
// and from MemInsight's browser logger, any number of sessions at once,
// each in a trace directory of its own under the output directory.
//
// A chunk is acknowledged only once it is written (and, with Fsync,
// synced: syncs are batched across sessions); a session's state is kept
// on disk beside its trace, so that a client that reconnects resumes
// with no gap and no duplicate, even with a collector restarted after
// kill -9. Every byte goes through the trace checker as it arrives: the
// first broken rule ends that session with the rule, keeping every byte
// before it. Nothing a client sends becomes a path.
//
// A Collector is an http.Handler: memtrace collect serves it, and the
// proxy mounts it on every origin under /__memtrace__/.
package collector

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/memtrace/memtrace/internal/safefs"
	"github.com/memtrace/memtrace/tracedir"
)

// Paths the collector serves (Prefix is mounted on every origin the proxy
// serves).
const (
	Prefix      = "/__memtrace__/"
	CollectPath = Prefix + "collect"
	StatusPath  = Prefix + "status.json"
	StopPath    = Prefix + "stop"
	BeaconPath  = Prefix + "beacon"
	// ReportPath serves an ended session's report (memtrace report's
	// page), made when first asked and kept in its directory.
	ReportPath = Prefix + "report"
	// Subprotocol is memtrace's (docs/protocol.md); MemInsightSubprotocol
	// MemInsight's browser logger's, dialled at "/".
	Subprotocol           = "memtrace.trace.v1"
	MemInsightSubprotocol = "mem-trace-protocol"
	ProtocolVersion       = 1
)

// Files of the output directory and of a session's directory that are
// the collector's own.
const (
	MarkFile    = ".memtrace-collector"
	TokenFile   = ".memtrace-token"
	LockFile    = ".memtrace-lock"
	ChunksFile  = ".memtrace-chunks"
	ResumeFile  = ".memtrace-resume"
	SummaryFile = "summary.json"
	EngineOut   = "engine.out"
	EngineErr   = "engine.err"
)

// Config is what memtrace collect's flags set.
type Config struct {
	Out   string // the output directory (claimed; one directory per session in it)
	Token string // "" = the one kept in Out, or a new one
	Open  bool   // accept sessions without the token
	// AllowOrigins lists the browser origins (scheme://host[:port], or
	// "*") allowed besides the collector's own host.
	AllowOrigins []string
	MaxFrame     int           // bytes per message (default 4 MiB)
	MaxSession   int64         // bytes per session (0: 1 TiB)
	Window       int           // bytes a client may have unacknowledged (default 16 MiB)
	Heartbeat    time.Duration // between pings (default 15 s)
	ResumeWait   time.Duration // how long a session waits for its client (default 60 s)
	HelloTimeout time.Duration // default 10 s
	MaxConns     int           // open connections (default 256)
	Fsync        bool          // sync before each acknowledgement
	MinFree      int64         // bytes free below which writing stops (default 256 MiB)
	// Sources, when set, gives the original source of a script a
	// session's trace enters (by its name), for the session's scripts/:
	// memtrace serve's pages' scripts, which the pages do not send.
	Sources   func(name string) []byte
	Engine    string      // "" or "builtin"
	EngineCmd []string    // a command per session, the trace on its stdin
	Version   string      // memtrace's, for session.json
	Log       *log.Logger // nil: standard error
	// FreeSpace reports the bytes free for Out's file system (nil:
	// statfs). Tests set it.
	FreeSpace func() (int64, error)
}

func (c *Config) defaults() {
	if c.MaxFrame <= 0 {
		c.MaxFrame = 4 << 20
	}
	if c.MaxSession <= 0 {
		c.MaxSession = 1 << 40
	}
	if c.Window <= 0 {
		c.Window = 16 << 20
	}
	if c.Heartbeat <= 0 {
		c.Heartbeat = 15 * time.Second
	}
	if c.ResumeWait <= 0 {
		c.ResumeWait = 60 * time.Second
	}
	if c.HelloTimeout <= 0 {
		c.HelloTimeout = 10 * time.Second
	}
	if c.MaxConns <= 0 {
		c.MaxConns = 256
	}
	if c.MinFree == 0 {
		c.MinFree = 256 << 20
	}
	if c.Log == nil {
		c.Log = log.New(os.Stderr, "memtrace collect: ", log.LstdFlags)
	}
}

// Collector receives sessions. Its methods are safe for concurrent use.
type Collector struct {
	cfg       Config
	uninstFn  atomic.Pointer[func(*tracedir.Session) []tracedir.Uninstrumented]
	sourcesFn atomic.Pointer[func(string) []byte] // SetSources'
	dir       *safefs.Dir
	lock      *safefs.Lock
	token     string
	start     time.Time

	mu       sync.Mutex
	sessions map[string]*session
	byClient map[string]*session // by the name a client chose (hello's client)
	order    []*session
	seq      int // sessions named so far in this run
	closing  bool

	conns    atomic.Int64
	diskFull atomic.Bool
	free     atomic.Int64
	syncer   *syncer
	done     chan struct{}
	wg       sync.WaitGroup
	// reportMu makes one report at a time (each reads a whole trace
	// twice).
	reportMu sync.Mutex
}

// New claims cfg.Out (a new or empty directory, or one an earlier
// collector wrote: its sessions whose clients may come back wait for them
// again) and returns the collector.
func New(cfg Config) (*Collector, error) {
	cfg.defaults()
	if cfg.Engine != "" && cfg.Engine != "builtin" {
		return nil, fmt.Errorf("unknown engine %q (builtin, or a command with --engine-cmd)", cfg.Engine)
	}
	d, err := safefs.Claim(cfg.Out, MarkFile, "memtrace collector output directory\n")
	if err != nil {
		var w *safefs.InTheWayError
		if errors.As(err, &w) {
			return nil, fmt.Errorf("%s holds %s, which memtrace did not write: give --out a new or empty directory (or one an earlier memtrace collect wrote)", w.Dir, w.File)
		}
		return nil, err
	}
	lk, err := d.TryLock(LockFile)
	if err != nil {
		d.Close()
		return nil, err
	}
	c := &Collector{cfg: cfg, dir: d, lock: lk, start: time.Now(), sessions: map[string]*session{}, byClient: map[string]*session{}, done: make(chan struct{})}
	if c.token, err = c.loadToken(cfg.Token); err != nil {
		c.release()
		return nil, err
	}
	if c.cfg.FreeSpace == nil {
		path := cfg.Out
		c.cfg.FreeSpace = func() (int64, error) {
			var st unix.Statfs_t
			if err := unix.Statfs(path, &st); err != nil {
				return 0, err
			}
			return int64(st.Bavail) * int64(st.Bsize), nil
		}
	}
	c.checkDisk()
	c.syncer = newSyncer()
	if err := c.recover(); err != nil {
		c.syncer.stop()
		c.release()
		return nil, err
	}
	c.wg.Add(1)
	go c.watchDisk(c.done)
	return c, nil
}

func (c *Collector) release() {
	c.lock.Unlock()
	c.dir.Close()
}

// loadToken returns the collector's token: the one given (then kept), the
// one an earlier run kept in the output directory, or a new one. The file
// is readable by its owner only.
func (c *Collector) loadToken(given string) (string, error) {
	if given != "" {
		return given, c.dir.WriteFile(TokenFile, []byte(given+"\n"), 0o600)
	}
	if st, err := c.dir.Lstat(TokenFile); err == nil {
		if st.Mode&0o077 != 0 {
			return "", fmt.Errorf("%s can be read by others (mode %o): remove it or make it private (chmod 600)", c.dir.Path(TokenFile), st.Mode&0o777)
		}
		if b, err := c.dir.ReadFile(TokenFile); err == nil {
			if t := strings.TrimSpace(string(b)); t != "" {
				return t, nil
			}
		}
	}
	t := randomHex(16)
	return t, c.dir.WriteFile(TokenFile, []byte(t+"\n"), 0o600)
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on Linux
	}
	return hex.EncodeToString(b)
}

// SetSources sets Config.Sources (memtrace serve's, made after the
// collector); nil: none.
func (c *Collector) SetSources(f func(name string) []byte) {
	c.sourcesFn.Store(&f)
}

func (c *Collector) sources() func(string) []byte {
	if f := c.sourcesFn.Load(); f != nil && *f != nil {
		return *f
	}
	return c.cfg.Sources
}

// SetUninstrumented sets what lists, when a session ends, the scripts
// its page ran as they were (the proxy's: a script that could not be
// instrumented is served unchanged); a session with any ends incomplete.
// f is called with the session's description and must not call the
// collector.
func (c *Collector) SetUninstrumented(f func(s *tracedir.Session) []tracedir.Uninstrumented) {
	c.uninstFn.Store(&f)
}

func (c *Collector) uninstrumented(s *tracedir.Session) []tracedir.Uninstrumented {
	if f := c.uninstFn.Load(); f != nil && *f != nil {
		return (*f)(s)
	}
	return nil
}

// Token is the token clients must present.
func (c *Collector) Token() string { return c.token }

// Out is the output directory.
func (c *Collector) Out() string { return c.cfg.Out }

func (c *Collector) logf(format string, args ...any) { c.cfg.Log.Printf(format, args...) }

// tokenOK reports whether t is the collector's token (or none is needed):
// what the status, the stop command and everything but a session's own
// traffic need.
func (c *Collector) tokenOK(t string) bool {
	if c.cfg.Open {
		return true
	}
	return subtle.ConstantTimeCompare([]byte(t), []byte(c.token)) == 1
}

// PageToken is a fresh token for one page (or process) to deliver its
// trace with: "p" + a random part + "." + its MAC under the collector's
// token, so no state is kept. It opens sessions (the hello, the beacon,
// MemInsight's protocol) and the instrument service of memtrace serve
// and the proxy, never the status or the stop command: a page of any
// site the proxy serves holds one, and must not read the others'
// sessions.
func (c *Collector) PageToken() string {
	r := randomHex(12)
	return "p" + r + "." + c.pageMAC(r)
}

func (c *Collector) pageMAC(r string) string {
	m := hmac.New(sha256.New, []byte(c.token))
	io.WriteString(m, "memtrace page token\x00"+r)
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// SessionTokenOK reports whether t may open a session: the collector's
// token or one of its PageTokens (or none is needed).
func (c *Collector) SessionTokenOK(t string) bool {
	if c.tokenOK(t) {
		return true
	}
	r, mac, ok := strings.Cut(t, ".")
	if !ok || len(r) != 25 || r[0] != 'p' {
		return false
	}
	return hmac.Equal([]byte(mac), []byte(c.pageMAC(r[1:])))
}

// originOK applies the origin policy to a websocket upgrade or a status
// request: no Origin (not a browser), the collector's own host, or one
// AllowOrigins lists.
func (c *Collector) originOK(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	for _, a := range c.cfg.AllowOrigins {
		if a == "*" || strings.EqualFold(strings.TrimRight(a, "/"), o) {
			return true
		}
	}
	u, err := url.Parse(o)
	if err != nil {
		return false
	}
	return strings.EqualFold(u.Host, r.Host)
}

// ServeHTTP serves the collector's websockets and pages.
func (c *Collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == CollectPath:
		c.serveCollect(w, r)
	case r.URL.Path == "/" && isWebsocket(r):
		c.serveMemInsight(w, r)
	case r.URL.Path == StatusPath:
		c.serveStatusJSON(w, r)
	case r.URL.Path == StopPath:
		c.serveStop(w, r)
	case r.URL.Path == BeaconPath:
		c.serveBeacon(w, r)
	case r.URL.Path == ReportPath:
		c.serveReport(w, r)
	case r.URL.Path == Prefix:
		c.serveStatusPage(w, r)
	case r.URL.Path == "/":
		u := Prefix
		if r.URL.RawQuery != "" {
			u += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, u, http.StatusFound)
	default:
		http.NotFound(w, r)
	}
}

func isWebsocket(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// acquireConn counts a connection against MaxConns.
func (c *Collector) acquireConn() bool {
	if c.conns.Add(1) > int64(c.cfg.MaxConns) {
		c.conns.Add(-1)
		return false
	}
	return true
}

func (c *Collector) releaseConn() { c.conns.Add(-1) }

// Shutdown asks every connected client to end its session (stop) and
// waits for them until ctx ends; the sessions still open then end
// incomplete ("the collector shut down"). The collector takes no new
// session once Shutdown has begun.
func (c *Collector) Shutdown(ctx context.Context) error {
	c.mu.Lock()
	c.closing = true
	ss := append([]*session(nil), c.order...)
	c.mu.Unlock()
	for _, s := range ss {
		s.requestStop("the collector is shutting down")
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
wait:
	for {
		open := 0
		for _, s := range ss {
			if !s.ended() && s.connected() {
				open++
			}
		}
		if open == 0 {
			break
		}
		select {
		case <-ctx.Done():
			break wait
		case <-tick.C:
		}
	}
	for _, s := range ss {
		s.interrupt()
	}
	return c.Close()
}

// Close ends what is left without waiting: sessions still streaming or
// waiting keep their state on disk, so that a collector started later on
// the same directory resumes them; engines are stopped.
func (c *Collector) Close() error {
	c.mu.Lock()
	if c.done == nil {
		c.mu.Unlock()
		return nil
	}
	close(c.done)
	c.done = nil
	c.closing = true
	ss := append([]*session(nil), c.order...)
	c.mu.Unlock()
	for _, s := range ss {
		s.abandon()
	}
	c.wg.Wait()
	c.syncer.stop()
	c.release()
	return nil
}

// Sessions lists the sessions' names in the order they began.
func (c *Collector) Sessions() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, s := range c.order {
		out = append(out, s.name)
	}
	return out
}

// Wait waits until the session named name has ended (or ctx ends) and
// returns its session.json.
func (c *Collector) Wait(ctx context.Context, name string) (*tracedir.Session, error) {
	c.mu.Lock()
	s := c.sessions[name]
	c.mu.Unlock()
	if s == nil {
		return nil, fmt.Errorf("no session %q", name)
	}
	select {
	case <-s.endedCh:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return tracedir.ReadSession(c.dir.Path(name))
}

// watchDisk checks the free space every second until done closes (given
// by New: a Close that comes first sets c.done to nil).
func (c *Collector) watchDisk(done chan struct{}) {
	defer c.wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if c.checkDisk() {
				c.mu.Lock()
				ss := append([]*session(nil), c.order...)
				c.mu.Unlock()
				for _, s := range ss {
					s.fail(c.diskFullReason())
				}
			}
		}
	}
}

// checkDisk measures the free space and reports whether it is under the
// floor.
func (c *Collector) checkDisk() bool {
	free, err := c.cfg.FreeSpace()
	if err != nil {
		return c.diskFull.Load()
	}
	c.free.Store(free)
	full := c.cfg.MinFree > 0 && free < c.cfg.MinFree
	if full && !c.diskFull.Load() {
		c.logf("disk full: %d bytes free under %s (floor %d): no more chunks are written", free, c.cfg.Out, c.cfg.MinFree)
	}
	c.diskFull.Store(full)
	return full
}

func (c *Collector) diskFullReason() string {
	return fmt.Sprintf("disk full: %d bytes free (the floor is %d)", c.free.Load(), c.cfg.MinFree)
}

// newSessionName makes a directory for a new session: the time, the last
// part of what runs reduced to safe characters, and a number; never a
// path the client chose.
func (c *Collector) newSession(meta *Meta, protocol string) (*session, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.newSessionLocked(meta, protocol)
}

// newSessionLocked is newSession with c.mu held.
func (c *Collector) newSessionLocked(meta *Meta, protocol string) (*session, error) {
	if c.closing {
		return nil, errors.New("the collector is shutting down")
	}
	base := safeName(meta.label())
	if base == "" {
		base = "session"
	}
	stamp := time.Now().UTC().Format("20060102-150405")
	for {
		c.seq++
		name := fmt.Sprintf("%s-%s-%d", stamp, base, c.seq)
		if c.dir.Exists(name) {
			continue
		}
		sd, err := c.dir.Sub(name, 0o755, true)
		if err != nil {
			return nil, err
		}
		if names, _ := sd.Names(); len(names) > 0 {
			sd.Close() // raced with another maker: not ours
			continue
		}
		parent := ""
		if p := c.byClient[meta.ParentClient]; meta.ParentClient != "" && p != nil {
			parent = p.name
		}
		s, err := createSession(c, name, sd, meta, protocol, parent)
		if err != nil {
			sd.Close()
			return nil, err
		}
		c.sessions[name] = s
		c.order = append(c.order, s)
		return s, nil
	}
}

// newSessionFor is newSession for a client that named its session
// client: a second hello or beacon with that name finds it (the first
// one made wins).
// The lookup and the making are one step: a page's hello and its beacon
// (the page went away before its welcome) may arrive at once, and must
// find one session.
func (c *Collector) newSessionFor(client string, meta *Meta, protocol string) (*session, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if client != "" {
		if s := c.byClient[client]; s != nil {
			return s, nil
		}
	}
	s, err := c.newSessionLocked(meta, protocol)
	if err != nil || client == "" || len(client) > 64 {
		return s, err
	}
	c.byClient[client] = s
	return s, nil
}

func (c *Collector) lookupClient(client string) *session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byClient[client]
}

func (c *Collector) lookup(name string) *session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessions[name]
}

// safeName is a name of at most 40 safe characters for a session's
// directory (tracedir.SafeBase: never a path, never hidden).
func safeName(s string) string {
	b := tracedir.SafeBase(s)
	if len(b) > 40 {
		b = b[:40]
	}
	return strings.TrimRight(b, ".")
}

// recover finds the sessions an earlier collector left open in the
// output directory: each is cut back to its last recorded chunk, checked
// again from the start, and waits for its client (ResumeWait).
func (c *Collector) recover() error {
	names, err := c.dir.Names()
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		if strings.HasPrefix(name, ".") {
			continue
		}
		st, err := c.dir.Lstat(name)
		if err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
			continue
		}
		sd, err := c.dir.Sub(name, 0, false)
		if err != nil {
			continue
		}
		if !sd.Exists(ResumeFile) {
			sd.Close()
			continue
		}
		s, err := reopenSession(c, name, sd)
		if err != nil {
			c.logf("%s: cannot resume: %v", name, err)
			sd.Close()
			continue
		}
		c.sessions[name] = s
		c.order = append(c.order, s)
		c.logf("%s: found open after a restart at chunk %d (%d bytes); waiting %s for its client", name, s.next, s.bytes, c.cfg.ResumeWait)
	}
	return nil
}
