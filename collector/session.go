package collector

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
	"golang.org/x/sys/unix"

	"github.com/memtrace/memtrace/internal/directio"
	"github.com/memtrace/memtrace/internal/safefs"
	"github.com/memtrace/memtrace/tracedir"
)

// Meta is what a client says of itself in its hello (docs/protocol.md).
type Meta struct {
	Kind            string   `json:"kind"`
	Script          string   `json:"script"`
	Args            []string `json:"args"`
	URL             string   `json:"url"`
	UserAgent       string   `json:"userAgent"`
	Node            string   `json:"node"`
	PID             int      `json:"pid"`
	ShimVersion     string   `json:"shimVersion"`
	MemtraceVersion string   `json:"memtraceVersion"`
	Format          string   `json:"format"`
	DebugFun        string   `json:"debugFun"`
	AllUses         bool     `json:"allUses"`
	AllPutFields    bool     `json:"allPutFields"`
	Compact         bool     `json:"compact"`
	Exclude         []string `json:"exclude"`
	// ParentClient is, for a frame's page, the client name (hello's
	// client) of the page that holds the frame.
	ParentClient string `json:"parentClient"`
}

// label is what names a session's directory: the script's or the page's
// last name part.
func (m *Meta) label() string {
	name := m.Script
	if name == "" {
		name = m.URL
		if i := strings.IndexAny(name, "?#"); i >= 0 {
			name = name[:i]
		}
		name = strings.TrimRight(name, "/")
	}
	if i := strings.LastIndexAny(name, "/\\"); i >= 0 {
		name = name[i+1:]
	}
	if name == "" {
		name = m.Kind
	}
	return name
}

// fault is why a connection (and maybe its session) ends.
type fault struct {
	code   int    // websocket close code
	reason string // for the client, the log and (ended) session.json
	ended  bool   // the session has ended (else it waits for its client)
}

func (f *fault) Error() string { return f.reason }

// session is one trace being received.
type session struct {
	c        *Collector
	name     string
	dir      *safefs.Dir
	resume   string // the secret that resumes it ("" for MemInsight's protocol)
	protocol string
	endedCh  chan struct{}

	// bytes and entries are read by the status page without the lock.
	bytesA   atomic.Int64
	entriesA atomic.Int64

	mu       sync.Mutex
	state    string // tracedir.Status*
	sess     tracedir.Session
	f        *os.File           // mem-trace
	w        *directio.Appender // writes f: whole blocks direct, the tail buffered
	j        *os.File           // .memtrace-chunks
	next     uint64             // the sequence number expected next
	bytes    int64              // the trace's length on disk
	check    *streamCheck
	peer     *peer // the connected client, nil when none
	wait     *time.Timer
	scripts  *tracedir.ScriptStore
	entered  []string        // scripts the last chunk entered (watchScripts)
	asked    map[string]bool // the names Sources was asked for
	engine   *engine
	lastSeen time.Time

	// With --fsync: the last chunk synced, and whether the syncer has
	// the session in its queue. A chunk is acknowledged by the sync round
	// after its write (syncRound), while the session goes on.
	syncedSeq  int64
	syncQueued bool
	// fileMu is held (read) while the syncer syncs f and j, and (write)
	// while they are closed.
	fileMu      sync.RWMutex
	filesClosed bool
}

// deferAck is writeChunk's word that the chunk's acknowledgement comes
// later (from the sync round that covers it).
const deferAck = ^uint64(0)

// journal records: the sequence number and the trace's length after it.
const journalRecord = 16

// parent: the session of the page whose frame this session's page is
// ("" for none).
func createSession(c *Collector, name string, sd *safefs.Dir, meta *Meta, protocol, parent string) (*session, error) {
	s := &session{c: c, name: name, dir: sd, protocol: protocol, endedCh: make(chan struct{}), state: tracedir.StatusStreaming, lastSeen: time.Now(), syncedSeq: -1}
	if protocol == "memtrace" {
		s.resume = randomHex(16)
	}
	s.sess = tracedir.Session{
		Schema: tracedir.SchemaVersion, Tool: "memtrace collect", Version: c.cfg.Version,
		ShimVersion: meta.ShimVersion, Kind: meta.Kind, Script: meta.Script, Args: meta.Args,
		Start: time.Now().UTC(), Status: tracedir.StatusStreaming, DebugFun: meta.DebugFun,
		AllUses: meta.AllUses, AllPutFields: meta.AllPutFields, Compact: meta.Compact, Exclude: meta.Exclude,
		Protocol: protocol, URL: meta.URL, UserAgent: meta.UserAgent, NodeVersion: meta.Node, PID: meta.PID,
		Format: meta.Format, Received: &tracedir.Received{LastSeq: -1}, Parent: parent,
	}
	if s.sess.Kind == "" {
		s.sess.Kind = "unknown"
	}
	if err := sd.WriteFile(tracedir.MarkFile, []byte("memtrace trace directory\n"), 0o644); err != nil {
		return nil, err
	}
	var err error
	if s.f, err = sd.OpenFile(tracedir.TraceFile, true, 0o644); err != nil {
		return nil, err
	}
	if s.j, err = sd.OpenFile(ChunksFile, true, 0o644); err != nil {
		s.f.Close()
		return nil, err
	}
	s.w = directio.NewAppender(s.f, 0)
	// The resume file marks a session that is not over (recover), also
	// one of MemInsight's protocol, which cannot resume: a restarted
	// collector then ends it.
	if err := sd.WriteFile(ResumeFile, []byte(s.resume+"\n"), 0o600); err != nil {
		s.closeFiles()
		return nil, err
	}
	if err := tracedir.WriteSession(sd, &s.sess); err != nil {
		s.closeFiles()
		return nil, err
	}
	if s.scripts, err = tracedir.OpenScriptStore(sd); err != nil {
		s.closeFiles()
		return nil, err
	}
	if c.cfg.Fsync {
		// The new directory and its files' names survive a power cut
		// before the first chunk is acknowledged.
		if err := sd.Sync(); err != nil {
			s.closeFiles()
			return nil, err
		}
		if err := c.dir.Sync(); err != nil {
			s.closeFiles()
			return nil, err
		}
	}
	s.check = newStreamCheck()
	s.watchScripts()
	s.startEngine()
	return s, nil
}

// reopenSession takes up a session an earlier collector left open: its
// trace cut back to the last chunk its journal records, checked again,
// waiting for its client.
func reopenSession(c *Collector, name string, sd *safefs.Dir) (*session, error) {
	s := &session{c: c, name: name, dir: sd, endedCh: make(chan struct{}), state: tracedir.StatusWaiting, lastSeen: time.Now()}
	b, err := sd.ReadFile(ResumeFile)
	if err != nil {
		return nil, err
	}
	s.resume = strings.TrimSpace(string(b))
	sb, err := sd.ReadFile(tracedir.SessionFile)
	if err != nil {
		return nil, err
	}
	ps, err := tracedir.ParseSession(sd.Path(tracedir.SessionFile), sb)
	if err != nil {
		return nil, err
	}
	s.sess = *ps
	s.protocol = s.sess.Protocol
	if s.sess.Received == nil {
		s.sess.Received = &tracedir.Received{LastSeq: -1}
	}
	if s.f, err = sd.OpenFile(tracedir.TraceFile, false, 0); err != nil {
		return nil, err
	}
	if s.j, err = sd.OpenFile(ChunksFile, false, 0); err != nil {
		s.f.Close()
		return nil, err
	}
	if s.scripts, err = tracedir.OpenScriptStore(sd); err != nil {
		s.closeFiles()
		return nil, err
	}
	// The journal's last whole record that the trace file covers.
	jst, err := s.j.Stat()
	if err != nil {
		s.closeFiles()
		return nil, err
	}
	fst, err := s.f.Stat()
	if err != nil {
		s.closeFiles()
		return nil, err
	}
	n := jst.Size() / journalRecord
	rec := make([]byte, journalRecord)
	for ; n > 0; n-- {
		if _, err := s.j.ReadAt(rec, (n-1)*journalRecord); err != nil {
			s.closeFiles()
			return nil, err
		}
		seq := binary.BigEndian.Uint64(rec)
		end := int64(binary.BigEndian.Uint64(rec[8:]))
		if seq == uint64(n-1) && end <= fst.Size() {
			s.next, s.bytes = seq+1, end
			break
		}
	}
	if err := s.f.Truncate(s.bytes); err != nil {
		s.closeFiles()
		return nil, err
	}
	s.w = directio.NewAppender(s.f, s.bytes)
	if err := s.j.Truncate(int64(s.next) * journalRecord); err != nil {
		s.closeFiles()
		return nil, err
	}
	s.check = newStreamCheck()
	s.watchScripts()
	buf := make([]byte, 1<<20)
	var res feedResult
	for off := int64(0); off < s.bytes; {
		m, err := s.f.ReadAt(buf[:min(int64(len(buf)), s.bytes-off)], off)
		if m > 0 {
			res = s.check.Feed(buf[:m])
			off += int64(m)
		}
		if res.violation != nil {
			break
		}
		if err != nil && !errors.Is(err, io.EOF) {
			s.closeFiles()
			return nil, err
		}
	}
	s.entriesA.Store(res.entries)
	s.bytesA.Store(s.bytes)
	s.sess.Received.Chunks = int64(s.next)
	s.sess.Received.LastSeq = int64(s.next) - 1
	s.sess.Status = tracedir.StatusWaiting
	s.syncedSeq = int64(s.next) - 1 // what a restart finds is what it keeps
	s.startEngine()
	if res.violation != nil {
		s.mu.Lock()
		s.violate(res)
		s.mu.Unlock()
		return s, nil
	}
	if s.resume == "" {
		s.mu.Lock()
		s.finishLocked(tracedir.StatusIncomplete, fmt.Sprintf("the collector restarted during the session, which MemInsight's protocol cannot resume; the trace holds chunks 0..%d (%d bytes)", int64(s.next)-1, s.bytes))
		s.mu.Unlock()
		return s, nil
	}
	s.mu.Lock()
	s.startWait("the collector restarted")
	s.mu.Unlock()
	return s, nil
}

func (s *session) closeFiles() {
	s.fileMu.Lock()
	defer s.fileMu.Unlock()
	s.filesClosed = true
	if s.w != nil {
		s.w.Close()
	}
	if s.f != nil {
		s.f.Close()
	}
	if s.j != nil {
		s.j.Close()
	}
}

func (s *session) ended() bool {
	select {
	case <-s.endedCh:
		return true
	default:
		return false
	}
}

func (s *session) connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peer != nil
}

// attach makes p the session's client (a reconnecting client replaces a
// connection the collector has not seen drop yet) and returns the
// sequence number it expects next.
func (s *session) attach(p *peer, resuming bool) (uint64, *fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == tracedir.StatusComplete || s.state == tracedir.StatusIncomplete {
		return 0, &fault{code: closeNormal, reason: "the session has ended (" + s.state + ")", ended: true}
	}
	if old := s.peer; old != nil && old != p {
		old.closeWith(closeNormal, "replaced by a reconnection of the same session")
	}
	if s.wait != nil {
		s.wait.Stop()
		s.wait = nil
	}
	if resuming {
		s.sess.Received.Resumes++
	}
	if s.c.cfg.Fsync && s.syncedSeq < int64(s.next)-1 {
		// The welcome's next promises every chunk before it is on the
		// disk: sync those a round has not synced yet.
		if err := s.syncFiles(); err != nil {
			s.finishLocked(tracedir.StatusIncomplete, "the trace could not be synced: "+err.Error())
			return 0, &fault{code: closeGoingAway, reason: s.sess.Reason, ended: true}
		}
		s.syncedSeq = int64(s.next) - 1
	}
	s.peer = p
	s.state = tracedir.StatusStreaming
	s.sess.Status = tracedir.StatusStreaming
	s.sess.Remote, s.sess.Origin = p.remote, p.origin
	s.lastSeen = time.Now()
	return s.next, nil
}

// detach is called when p's connection is gone: the session waits for
// its client (MemInsight's protocol: it ends).
func (s *session) detach(p *peer, why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.peer != p {
		return
	}
	s.peer = nil
	if s.state != tracedir.StatusStreaming {
		return
	}
	if s.protocol == "meminsight" {
		s.finishLocked(tracedir.StatusComplete, "")
		return
	}
	s.startWait(why)
}

// startWait leaves the session waiting for its client for ResumeWait.
func (s *session) startWait(why string) {
	s.state = tracedir.StatusWaiting
	s.sess.Status = tracedir.StatusWaiting
	if s.wait != nil {
		s.wait.Stop()
	}
	next, bytes := int64(s.next), s.bytes
	wait := s.c.cfg.ResumeWait
	s.wait = time.AfterFunc(wait, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.state != tracedir.StatusWaiting {
			return
		}
		s.finishLocked(tracedir.StatusIncomplete, fmt.Sprintf("%s after chunk %d (%d bytes) and the client did not come back within %s: the last sequence number is %d", why, next-1, bytes, wait, next-1))
	})
	s.c.logf("%s: %s; waiting %s for the client", s.name, why, wait)
}

// writeChunk writes chunk seq (bytes data) and returns the sequence number
// to acknowledge.
func (s *session) writeChunk(seq uint64, data []byte) (uint64, *fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastSeen = time.Now()
	// (Waiting: a page's beacon may bring its last chunks after its
	// socket closed.)
	if s.state != tracedir.StatusStreaming && s.state != tracedir.StatusWaiting {
		return 0, &fault{code: closePolicy, reason: "the session has ended (" + s.state + ")", ended: true}
	}
	if seq < s.next {
		// Resent before its acknowledgement arrived. With --fsync, one
		// that is not synced yet is acknowledged by the round that syncs it.
		if !s.c.cfg.Fsync || s.protocol == "meminsight" {
			return s.next - 1, nil
		}
		if int64(seq) > s.syncedSeq {
			return deferAck, nil
		}
		return uint64(s.syncedSeq), nil
	}
	if seq > s.next {
		return 0, &fault{code: closeProtocol, reason: fmt.Sprintf("chunk %d came before chunk %d: the collector resumes from %d", seq, s.next, s.next)}
	}
	if len(data) == 0 {
		return 0, &fault{code: closeProtocol, reason: fmt.Sprintf("chunk %d is empty", seq)}
	}
	if s.c.diskFull.Load() {
		s.finishLocked(tracedir.StatusIncomplete, s.c.diskFullReason())
		return 0, &fault{code: closeGoingAway, reason: s.sess.Reason, ended: true}
	}
	if s.bytes+int64(len(data)) > s.c.cfg.MaxSession {
		s.finishLocked(tracedir.StatusIncomplete, fmt.Sprintf("over the session limit of %d bytes at chunk %d", s.c.cfg.MaxSession, seq))
		return 0, &fault{code: closeTooBig, reason: s.sess.Reason, ended: true}
	}
	res := s.check.Feed(data)
	s.keepSources()
	if res.violation != nil {
		keep := res.violation.Offset - s.bytes
		if keep > 0 {
			if err := s.w.Append(data[:keep]); err != nil {
				keep = 0
			}
		}
		s.violate(res)
		return 0, &fault{code: closePolicy, reason: s.sess.Reason, ended: true}
	}
	if err := s.w.Append(data); err != nil {
		s.w.Truncate(s.bytes)
		reason := "the trace could not be written: " + err.Error()
		if errors.Is(err, syscall.ENOSPC) {
			reason = "disk full: " + err.Error()
		}
		s.finishLocked(tracedir.StatusIncomplete, reason)
		return 0, &fault{code: closeGoingAway, reason: reason, ended: true}
	}
	var rec [journalRecord]byte
	binary.BigEndian.PutUint64(rec[:], seq)
	binary.BigEndian.PutUint64(rec[8:], uint64(s.bytes+int64(len(data))))
	if _, err := s.j.WriteAt(rec[:], int64(seq)*journalRecord); err != nil {
		s.w.Truncate(s.bytes)
		s.finishLocked(tracedir.StatusIncomplete, "the session's journal could not be written: "+err.Error())
		return 0, &fault{code: closeGoingAway, reason: s.sess.Reason, ended: true}
	}
	s.bytes += int64(len(data))
	s.next++
	s.bytesA.Store(s.bytes)
	s.entriesA.Store(res.entries)
	if s.c.cfg.Fsync && s.protocol == "meminsight" {
		// Its protocol acknowledges each message before the next: synced
		// here, before this returns.
		if err := s.syncFiles(); err != nil {
			s.finishLocked(tracedir.StatusIncomplete, "the trace could not be synced: "+err.Error())
			return 0, &fault{code: closeGoingAway, reason: s.sess.Reason, ended: true}
		}
		s.syncedSeq = int64(seq)
		return seq, nil
	}
	if s.c.cfg.Fsync {
		if !s.syncQueued {
			s.syncQueued = true
			s.c.syncer.request(s)
		}
		return deferAck, nil
	}
	return seq, nil
}

// syncFiles syncs the trace and its journal, which must be open: the
// caller holds s.mu (the session has not ended) or fileMu.
func (s *session) syncFiles() error {
	if err := unix.Fdatasync(int(s.f.Fd())); err != nil {
		return err
	}
	return unix.Fdatasync(int(s.j.Fd()))
}

// syncRound syncs what the session has written and acknowledges it to the
// connected client; a sync that fails ends the session. The syncer calls
// it, a round's sessions at once.
func (s *session) syncRound() {
	s.mu.Lock()
	s.syncQueued = false
	upTo := int64(s.next) - 1
	s.mu.Unlock()
	// Not under s.mu: the session writes its next chunks meanwhile.
	var err error
	s.fileMu.RLock()
	if !s.filesClosed {
		err = s.syncFiles()
	}
	s.fileMu.RUnlock()
	s.mu.Lock()
	if s.state != tracedir.StatusStreaming && s.state != tracedir.StatusWaiting {
		s.mu.Unlock()
		return
	}
	p := s.peer
	if err != nil {
		s.finishLocked(tracedir.StatusIncomplete, "the trace could not be synced: "+err.Error())
		msg, reason := endedMessage(&s.sess), s.sess.Reason
		s.mu.Unlock()
		if p != nil {
			p.send(msg)
			p.closeWith(closeGoingAway, reason)
		}
		return
	}
	if upTo > s.syncedSeq {
		s.syncedSeq = upTo
	}
	acked := s.syncedSeq
	s.mu.Unlock()
	if p != nil && p.welcomed.Load() && acked >= 0 {
		ack := strconv.AppendInt([]byte(`{"type":"ack","seq":`), acked, 10)
		p.sendRaw(websocket.TextMessage, append(ack, '}'))
	}
}

// violate ends the session at the first broken rule res holds: the trace
// keeps every byte before the entry at fault.
func (s *session) violate(res feedResult) {
	v := res.violation
	if v.Offset < s.w.Size() {
		s.w.Truncate(v.Offset)
	}
	s.bytes = v.Offset
	s.bytesA.Store(s.bytes)
	s.entriesA.Store(res.entries)
	s.sess.Violation = v
	s.finishLocked(tracedir.StatusIncomplete, fmt.Sprintf("entry %d (at byte %d) breaks the rule %s: %s; the trace keeps the %d bytes before it", v.Index, v.Offset, v.Rule, v.Message, v.Offset))
}

// watchScripts has the session's checker note the scripts the trace
// enters, whose sources the collector's Sources gives (keepSources).
func (s *session) watchScripts() {
	if s.c.sources() == nil {
		return
	}
	s.check.s.Checker().OnScript = func(name string) {
		if len(s.entered) < 1<<16 {
			s.entered = append(s.entered, name)
		}
	}
}

// keepSources keeps the sources of the scripts the last chunk entered
// (s.mu held).
func (s *session) keepSources() {
	for _, name := range s.entered {
		if name == "" || s.asked[name] || len(s.asked) >= 1<<16 {
			continue
		}
		if s.asked == nil {
			s.asked = map[string]bool{}
		}
		s.asked[name] = true
		if src := s.c.sources()(name); src != nil {
			if _, err := s.scripts.Add(name, src); err != nil {
				s.c.logf("%s: the source of %q is not kept: %v", s.name, name, err)
				continue
			}
			s.sess.Scripts = s.scripts.Len()
		}
	}
	s.entered = s.entered[:0]
}

// addScript keeps a script's original source.
func (s *session) addScript(name string, src []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == tracedir.StatusComplete || s.state == tracedir.StatusIncomplete {
		return nil
	}
	if name == "" {
		return errors.New("a script without a name")
	}
	if _, err := s.scripts.Add(name, src); err != nil {
		return err
	}
	s.sess.Scripts = s.scripts.Len()
	return nil
}

// endMsg is a client's end (docs/protocol.md).
type endMsg struct {
	Type    string            `json:"type"`
	Reason  string            `json:"reason"`
	Last    *int64            `json:"last"`
	Bytes   *int64            `json:"bytes"`
	Dropped *tracedir.Dropped `json:"dropped"`
}

// clientEnd ends the session as its client asked and returns the result.
func (s *session) clientEnd(m *endMsg) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != tracedir.StatusStreaming && s.state != tracedir.StatusWaiting {
		return
	}
	s.sess.EndReason = m.Reason
	status, reason := tracedir.StatusComplete, ""
	switch {
	case m.Last != nil && *m.Last != int64(s.next)-1:
		status, reason = tracedir.StatusIncomplete, fmt.Sprintf("the client ended after chunk %d, the collector has chunks up to %d", *m.Last, int64(s.next)-1)
	case m.Bytes != nil && *m.Bytes != s.bytes:
		status, reason = tracedir.StatusIncomplete, fmt.Sprintf("the client ended after %d bytes, the collector has %d", *m.Bytes, s.bytes)
	case m.Dropped != nil:
		s.sess.Dropped = m.Dropped
		status, reason = tracedir.StatusIncomplete, fmt.Sprintf("the client dropped %d bytes (%d chunks) from byte %d (chunk %d) on: %s", m.Dropped.Bytes, m.Dropped.Chunks, m.Dropped.FromByte, m.Dropped.FromSeq, m.Dropped.Why)
	}
	s.finishLocked(status, reason)
}

// fail ends the session incomplete (from outside its connection: the disk
// watcher, a stop), closing its connection.
func (s *session) fail(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != tracedir.StatusStreaming && s.state != tracedir.StatusWaiting {
		return
	}
	s.finishLocked(tracedir.StatusIncomplete, reason)
	if p := s.peer; p != nil {
		p.send(endedMessage(&s.sess))
		p.closeWith(closeGoingAway, reason)
	}
}

// requestStop asks the client to end its session.
func (s *session) requestStop(reason string) {
	s.mu.Lock()
	p := s.peer
	meminsight := s.protocol == "meminsight"
	s.mu.Unlock()
	if p == nil {
		return
	}
	if meminsight {
		// MemInsight's logger has no stop: closing is the end.
		p.closeWith(closeGoingAway, reason)
		return
	}
	p.send(map[string]any{"type": "stop", "reason": reason})
}

// interrupt ends a session still open when the collector shuts down.
func (s *session) interrupt() {
	s.mu.Lock()
	st := s.state
	s.mu.Unlock()
	if st == tracedir.StatusStreaming || st == tracedir.StatusWaiting {
		s.fail(fmt.Sprintf("the collector shut down before the client ended the session (after chunk %d)", int64(s.next)-1))
	}
}

// abandon lets go of a session without ending it (Close): its state
// stays on disk for a later collector.
func (s *session) abandon() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wait != nil {
		s.wait.Stop()
	}
	if s.peer != nil {
		s.peer.closeWith(closeGoingAway, "the collector stopped")
		s.peer = nil
	}
	if s.state == tracedir.StatusStreaming || s.state == tracedir.StatusWaiting {
		s.state = "abandoned"
		s.check.Abandon()
		if s.engine != nil {
			s.engine.abort()
		}
		s.closeFiles()
		s.dir.Close()
		return
	}
	if s.engine != nil {
		s.engine.abort()
	}
}

// finishLocked ends the session: the end-of-trace rules, the files
// closed (synced with Fsync), the session's journal removed and its
// session.json written. s.mu is held.
func (s *session) finishLocked(status, reason string) {
	if s.state == tracedir.StatusComplete || s.state == tracedir.StatusIncomplete {
		return
	}
	if s.wait != nil {
		s.wait.Stop()
		s.wait = nil
	}
	res := s.check.End()
	if res.violation == nil {
		s.entriesA.Store(res.entries)
		if res.incomplete != "" && status == tracedir.StatusComplete {
			status, reason = tracedir.StatusIncomplete, res.incomplete
		}
	}
	if s.c.cfg.Fsync {
		s.f.Sync()
	}
	if u := s.c.uninstrumented(&s.sess); len(u) > 0 {
		s.sess.Uninstrumented = u
		if status == tracedir.StatusComplete {
			status, reason = tracedir.StatusIncomplete, fmt.Sprintf("%d of the page's scripts ran uninstrumented (listed under uninstrumented)", len(u))
		}
	}
	s.closeFiles()
	s.dir.Remove(ChunksFile)
	s.dir.Remove(ResumeFile)
	s.state = status
	s.sess.Status = status
	s.sess.Reason = reason
	s.sess.End = time.Now().UTC()
	s.sess.Bytes = s.bytes
	s.sess.Entries = s.entriesA.Load()
	s.sess.Received.Chunks = int64(s.next)
	s.sess.Received.LastSeq = int64(s.next) - 1
	if s.engine != nil {
		s.sess.Engine = s.engine.state()
	}
	if err := tracedir.WriteSession(s.dir, &s.sess); err != nil {
		s.c.logf("%s: %v", s.name, err)
	}
	if reason != "" {
		s.c.logf("%s: ended %s: %s", s.name, status, reason)
	} else {
		s.c.logf("%s: ended %s (%d bytes, %d entries)", s.name, status, s.bytes, s.sess.Entries)
	}
	close(s.endedCh)
	if s.engine != nil {
		s.engine.traceEnded()
	}
}

// engineDone records the engine's result in session.json.
func (s *session) engineDone(e *tracedir.Engine) {
	<-s.endedCh
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sess.Engine = e
	if err := tracedir.WriteSession(s.dir, &s.sess); err != nil {
		s.c.logf("%s: %v", s.name, err)
	}
	if e.Error != "" {
		s.c.logf("%s: engine %s failed: %s", s.name, e.Kind, e.Error)
	}
}

// snapshot is the session's line of the status.
func (s *session) snapshot() SessionStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := SessionStatus{
		Name: s.name, State: s.state, Protocol: s.protocol, Kind: s.sess.Kind, Script: s.sess.Script,
		URL: s.sess.URL, Remote: s.sess.Remote, Start: s.sess.Start, Reason: s.sess.Reason,
		Bytes: s.bytesA.Load(), Entries: s.entriesA.Load(), Chunks: int64(s.next), Resumes: s.sess.Received.Resumes,
	}
	if !s.sess.End.IsZero() {
		st.End = s.sess.End
	}
	if (s.state == tracedir.StatusComplete || s.state == tracedir.StatusIncomplete) && st.Bytes > 0 {
		st.Report = strings.TrimPrefix(ReportPath, Prefix) + "?session=" + url.QueryEscape(s.name)
	}
	if s.engine != nil {
		e := s.engine.state()
		st.Engine = e.Status
	}
	return st
}

func endedMessage(s *tracedir.Session) map[string]any {
	return map[string]any{"type": "ended", "status": s.Status, "reason": s.Reason, "bytes": s.Bytes, "entries": s.Entries}
}

// syncer batches fsyncs across sessions: a session that wrote a chunk
// waits in the queue for the next round, which syncs every queued
// session's files, syncWorkers at once (each fdatasync waits for the disk,
// and the file system commits the metadata of files synced together in
// one journal transaction), and acknowledges what each had written.
type syncer struct {
	mu     sync.Mutex
	queue  []*session
	notify chan struct{} // a session was queued
	quit   chan struct{}
	wg     sync.WaitGroup
}

const syncWorkers = 16

func newSyncer() *syncer {
	y := &syncer{notify: make(chan struct{}, 1), quit: make(chan struct{})}
	y.wg.Add(1)
	go y.run()
	return y
}

// request queues s for the next round (never blocks).
func (y *syncer) request(s *session) {
	y.mu.Lock()
	y.queue = append(y.queue, s)
	y.mu.Unlock()
	select {
	case y.notify <- struct{}{}:
	default:
	}
}

func (y *syncer) run() {
	defer y.wg.Done()
	for {
		select {
		case <-y.notify:
		case <-y.quit:
			return
		}
		y.mu.Lock()
		round := y.queue
		y.queue = nil
		y.mu.Unlock()
		var next atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < min(syncWorkers, len(round)); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					i := int(next.Add(1) - 1)
					if i >= len(round) {
						return
					}
					round[i].syncRound()
				}
			}()
		}
		wg.Wait()
	}
}

func (y *syncer) stop() {
	close(y.quit)
	y.wg.Wait()
}
