package lifetime

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/memtrace/memtrace/trace"
)

// stackNode is one frame of a call stack shared between the objects
// created under it: the call site and the caller's frame.
type stackNode struct {
	site   Loc
	parent *stackNode
}

// allocInfo is MemInsight's AllocInfo: how an object came to be.
type allocInfo struct {
	kind    ObjectKind
	site    Loc
	created int64
	stack   *stackNode // innermost call first
}

// staleObj is the streaming client's state of one object it still tracks:
// live (created, not reported), pending (reported, record not written yet)
// or both (re-created while pending).
type staleObj struct {
	info    luInfo
	hasInfo bool
	live    *allocInfo
	pend    *allocInfo
}

// updRec is one UPDATE_IID record of updiid-trace.
type updRec struct {
	id      int32
	created int64
	site    Loc
	seq     int64
}

const updRecSize = 4 + 8 + 8 + 8

func encUpd(b []byte, v updRec) {
	binary.BigEndian.PutUint32(b, uint32(v.id))
	binary.BigEndian.PutUint64(b[4:], uint64(v.created))
	putLoc(b[12:], v.site)
	binary.BigEndian.PutUint64(b[20:], uint64(v.seq))
}

func decUpd(b []byte) updRec {
	return updRec{
		id:      int32(binary.BigEndian.Uint32(b)),
		created: int64(binary.BigEndian.Uint64(b[4:])),
		site:    getLoc(b[12:]),
		seq:     int64(binary.BigEndian.Uint64(b[20:])),
	}
}

// StalenessOptions configure a StalenessWriter.
type StalenessOptions struct {
	// Records receive the staleness-trace records (JSON lines), written
	// at every END_LAST_USE and at the end. Nil entries are skipped.
	Records []io.Writer
	// Text, if set, also receives the records and, at the end, the "last
	// use" and "unreachable" sections: MemInsight's client with debug on.
	Text *bufio.Writer
	// LastUse, Unreachable and UpdIID receive the binary tables
	// (lastuse-trace, unreachable-trace, updiid-trace) at the end.
	LastUse, Unreachable, UpdIID io.Writer
	// TempDir holds the temporary files of the external sorts ("" =
	// os.TempDir()).
	TempDir string
}

// StalenessWriter is MemInsight's streaming staleness client
// (StreamingStalenessAnalysis). It writes one record per reported object
// when the trace ends a last-use block, and at the end the three binary
// tables of the enhanced trace: last uses sorted by time, unreachability
// sorted by time (then by last use), and UPDATE_IID records sorted by
// creation time.
//
// It is streaming: it keeps state only for objects that are live or whose
// record is not written yet, and for the DOM tree. Written objects go to an
// external sorter (in memory up to 64K objects, then in temporary files),
// which the end tables are merged from. Call Close when done.
type StalenessWriter struct {
	NopListener
	opts  StalenessOptions
	eng   *Engine
	recs  []*bufio.Writer
	text  *bufio.Writer
	objs  map[int32]*staleObj
	pend  []int32
	stack *stackNode

	dom        map[int32]map[int32]struct{}
	twoParents map[int32]bool

	store *infoStore
	upd   *extSorter[updRec]
	seq   int64

	buf []byte
	err error
}

// NewStalenessWriter returns a StalenessWriter. Attach it to the engine
// that feeds it.
func NewStalenessWriter(opts StalenessOptions) *StalenessWriter {
	s := &StalenessWriter{
		opts:       opts,
		text:       opts.Text,
		objs:       make(map[int32]*staleObj),
		dom:        make(map[int32]map[int32]struct{}),
		twoParents: make(map[int32]bool),
		store:      newInfoStore(opts.TempDir),
	}
	s.upd = newExtSorter(updRecSize, encUpd, decUpd, func(a, b updRec) int {
		if c := cmp.Compare(a.created, b.created); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	}, opts.TempDir)
	for _, w := range opts.Records {
		if w != nil {
			s.recs = append(s.recs, bufio.NewWriterSize(w, 64<<10))
		}
	}
	if s.text != nil {
		s.recs = append(s.recs, s.text)
	}
	return s
}

// Attach tells the writer which engine feeds it: it resolves locations
// through it and locates errors.
func (s *StalenessWriter) Attach(e *Engine) { s.eng = e }

// Err returns the first error.
func (s *StalenessWriter) Err() error { return s.err }

// Close removes the temporary files.
func (s *StalenessWriter) Close() error {
	err := s.store.close()
	if e := s.upd.Close(); err == nil {
		err = e
	}
	return err
}

func (s *StalenessWriter) fail(format string, args ...any) {
	if s.err != nil {
		return
	}
	msg := "lifetime: staleness: " + fmt.Sprintf(format, args...)
	if s.eng != nil {
		s.err = &trace.FormatError{Offset: s.eng.Offset(), Index: s.eng.Index(), Msg: msg}
	} else {
		s.err = fmt.Errorf("%s", msg)
	}
}

// get returns the state of id, reloading what a written object left in
// the store.
func (s *StalenessWriter) get(id int32) *staleObj {
	if st, ok := s.objs[id]; ok {
		return st
	}
	st := &staleObj{info: defaultLU}
	info, ok, err := s.store.lookup(id)
	if err != nil && s.err == nil {
		s.err = err
	}
	if ok {
		st.info, st.hasInfo = info, true
	}
	s.objs[id] = st
	return st
}

// release stops tracking an object that is neither live nor pending.
func (s *StalenessWriter) release(id int32, st *staleObj) {
	if st.live != nil || st.pend != nil {
		return
	}
	if st.hasInfo {
		s.store.put(idInfo{id, st.info})
	}
	delete(s.objs, id)
}

func (s *StalenessWriter) useAt(st *staleObj, t int64, site Loc) {
	st.hasInfo = true
	if st.info.luTime < t {
		st.info.luTime, st.info.luSite = t, site
	}
}

// Create implements Listener.
func (s *StalenessWriter) Create(c CreateEvent) {
	if c.ID == 1 && (c.Kind == KindObject || c.Kind == KindDOM) {
		return
	}
	st := s.get(c.ID)
	st.live = &allocInfo{kind: c.Kind, site: c.Site, created: c.Time, stack: s.stack}
	s.useAt(st, c.Time, c.Site)
}

// FunctionEnter implements Listener.
func (s *StalenessWriter) FunctionEnter(c CallEvent) {
	s.stack = &stackNode{site: c.CallSite, parent: s.stack}
}

// FunctionExit implements Listener.
func (s *StalenessWriter) FunctionExit(CallEvent) {
	if s.stack != nil {
		s.stack = s.stack.parent
	}
}

// LastUse implements Listener.
func (s *StalenessWriter) LastUse(id int32, t int64, site Loc) {
	if id == 1 {
		return
	}
	st := s.get(id)
	s.useAt(st, t, site)
	if st.info.unTime > 0 && st.info.unTime < t {
		// A use after the reported unreachability: MemInsight moves the
		// unreachability to the use.
		st.info.unTime, st.info.unSite = t, site
	}
	s.release(id, st)
}

// UpdateIID implements Listener.
func (s *StalenessWriter) UpdateIID(id int32, site Loc, _ int64) {
	st := s.objs[id]
	if st == nil || st.live == nil {
		s.fail("UPDATE_IID of object %d, which is not live", id)
		return
	}
	st.live.site = site
	st.live.stack = s.stack
	s.upd.Add(updRec{id: id, created: st.live.created, site: site, seq: s.seq})
	s.seq++
}

// DOMRoot implements Listener.
func (s *StalenessWriter) DOMRoot(id int32, _ int64) {
	s.dom[id] = make(map[int32]struct{})
}

// AddDOMChild implements Listener.
func (s *StalenessWriter) AddDOMChild(parent, child int32, _ int64) {
	ch, ok := s.dom[parent]
	if !ok {
		return
	}
	ch[child] = struct{}{}
	if _, in := s.dom[child]; !in {
		s.dom[child] = make(map[int32]struct{})
	} else {
		// Moved: added at its new place before its removal from the old.
		s.twoParents[child] = true
	}
	st := s.get(child)
	if st.live == nil {
		st.live = &allocInfo{kind: KindDOM, site: LocUnknown}
	}
}

// RemoveDOMChild implements Listener.
func (s *StalenessWriter) RemoveDOMChild(parent, child int32, t int64) {
	ch, ok := s.dom[parent]
	if !ok {
		return
	}
	delete(ch, child)
	work := []int32{child}
	for len(work) > 0 {
		cur := work[0]
		work = work[1:]
		if s.twoParents[cur] {
			delete(s.twoParents, cur)
			continue
		}
		st := s.get(cur)
		st.hasInfo = true
		st.info.luTime, st.info.luSite = t, LocRemoveFromDOM
		s.release(cur, st)
		kids, ok := s.dom[cur]
		if !ok {
			s.fail("DOM node %d removed with child %d from parent %d is not in the DOM tree", cur, child, parent)
			return
		}
		work = appendSortedKeys(work, kids)
		delete(s.dom, cur)
	}
}

// appendSortedKeys appends the members of a set in ascending order (the
// iteration order of Java's HashSet for small non-negative integers).
func appendSortedKeys(dst []int32, set map[int32]struct{}) []int32 {
	n := len(dst)
	for k := range set {
		dst = append(dst, k)
	}
	add := dst[n:]
	sort.Slice(add, func(a, b int) bool { return add[a] < add[b] })
	return dst
}

// Unreachable implements Listener.
func (s *StalenessWriter) Unreachable(u Unreachability) {
	st := s.get(u.ID)
	st.hasInfo = true
	if st.info.unTime < u.Time {
		st.info.unTime, st.info.unSite = u.Time, u.Loc
	}
	if _, in := s.dom[u.ID]; in {
		// Still in the visible DOM: its unreachability is its last use.
		st.info.luTime, st.info.luSite = u.Time, u.Loc
		delete(s.dom, u.ID)
	}
	var a *allocInfo
	switch {
	case st.live != nil:
		a, st.live = st.live, nil
	case st.pend != nil:
		a = st.pend
	default:
		// Reported again after its record was written, or never created.
		a = &allocInfo{kind: KindDOM, site: LocUnknown}
	}
	if st.pend == nil {
		s.pend = append(s.pend, u.ID)
	}
	st.pend = a
}

// EndLastUse implements Listener.
func (s *StalenessWriter) EndLastUse() { s.flushPending() }

func (s *StalenessWriter) site(l Loc) string {
	if s.eng != nil {
		if w := s.eng.Location(l); w != nil {
			return w.String()
		}
	}
	s.fail("no source location for %s", l)
	return l.String()
}

func (s *StalenessWriter) flushPending() {
	for _, id := range s.pend {
		st := s.objs[id]
		if st == nil || st.pend == nil {
			continue
		}
		s.writeRecord(id, st.pend, &st.info)
		st.pend = nil
		s.release(id, st)
	}
	s.pend = s.pend[:0]
}

func (s *StalenessWriter) writeRecord(id int32, a *allocInfo, in *luInfo) {
	b := s.buf[:0]
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, ',', '"')
	b = append(b, a.kind.String()...)
	b = append(b, '"', ',')
	b = appendGsonString(b, s.site(a.site))
	b = append(b, ',')
	b = strconv.AppendInt(b, a.created, 10)
	b = append(b, ',', '[')
	for f := a.stack; f != nil; f = f.parent {
		if f != a.stack {
			b = append(b, ',')
		}
		b = appendGsonString(b, s.site(f.site))
	}
	b = append(b, ']', ',')
	b = strconv.AppendInt(b, in.luTime, 10)
	b = append(b, ',')
	b = appendGsonString(b, s.site(in.luSite))
	b = append(b, ',')
	b = strconv.AppendInt(b, in.unTime, 10)
	b = append(b, ',')
	b = appendGsonString(b, s.site(in.unSite))
	b = append(b, ']', '\n')
	for _, w := range s.recs {
		w.Write(b)
	}
	s.buf = b
}

// lastUseKey orders by last-use time with 0 (unknown) last.
func lastUseKey(v idInfo) int64 {
	if v.luTime == 0 {
		return 1<<63 - 1
	}
	return v.luTime
}

// End implements Listener: it writes the last records and the tables.
func (s *StalenessWriter) End(EndEvent) {
	s.flushPending()
	for id, st := range s.objs {
		if st.hasInfo {
			s.store.put(idInfo{id, st.info})
		}
	}
	clear(s.objs)
	dir := s.opts.TempDir
	lu := newExtSorter(idInfoSize, encIDInfo, decIDInfo, func(a, b idInfo) int {
		if c := cmp.Compare(a.luTime, b.luTime); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	}, dir)
	defer lu.Close()
	un := newExtSorter(idInfoSize, encIDInfo, decIDInfo, func(a, b idInfo) int {
		if c := cmp.Compare(a.unTime, b.unTime); c != 0 {
			return c
		}
		if c := cmp.Compare(lastUseKey(a), lastUseKey(b)); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	}, dir)
	defer un.Close()
	err := s.store.each(func(v idInfo) error {
		if v.luTime != 0 {
			lu.Add(v)
		}
		un.Add(v)
		return nil
	})
	if err != nil && s.err == nil {
		s.err = err
	}
	s.writeTable("last use", lu, s.opts.LastUse, func(v idInfo) (int64, Loc) { return v.luTime, v.luSite })
	s.writeTable("unreachable", un, s.opts.Unreachable, func(v idInfo) (int64, Loc) { return v.unTime, v.unSite })
	if s.opts.UpdIID != nil {
		w := bufio.NewWriterSize(s.opts.UpdIID, 64<<10)
		rec := make([]byte, 12)
		err := s.upd.Each(func(v updRec) error {
			binary.BigEndian.PutUint32(rec, uint32(v.id))
			putLoc(rec[4:], v.site)
			_, err := w.Write(rec)
			return err
		})
		if err == nil {
			err = w.Flush()
		}
		if err != nil && s.err == nil {
			s.err = err
		}
	}
	for _, w := range s.recs {
		if err := w.Flush(); err != nil && s.err == nil {
			s.err = err
		}
	}
}

func (s *StalenessWriter) writeTable(title string, srt *extSorter[idInfo], out io.Writer, f func(idInfo) (int64, Loc)) {
	var bw *bufio.Writer
	if out != nil {
		bw = bufio.NewWriterSize(out, 64<<10)
	}
	if s.text != nil {
		s.text.WriteString(title)
		s.text.WriteByte('\n')
	}
	rec := make([]byte, 20)
	err := srt.Each(func(v idInfo) error {
		t, site := f(v)
		if s.text != nil {
			b := append(s.buf[:0], '[')
			b = strconv.AppendInt(b, int64(v.id), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, t, 10)
			b = append(b, ',')
			b = appendGsonString(b, s.site(site))
			b = append(b, ']', '\n')
			s.text.Write(b)
			s.buf = b
		}
		if bw != nil {
			binary.BigEndian.PutUint32(rec, uint32(v.id))
			binary.BigEndian.PutUint64(rec[4:], uint64(t))
			putLoc(rec[12:], site)
			if _, err := bw.Write(rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil && bw != nil {
		err = bw.Flush()
	}
	if err != nil && s.err == nil {
		s.err = err
	}
}
