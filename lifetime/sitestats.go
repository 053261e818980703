package lifetime

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// SiteStats is MemInsight's allocation-site statistics
// (AllocationSiteStats), a client of the second pass. For every site with
// a stale object it decides:
//
//   - leaking: starting from the site's second idle point (call stack
//     empty), its stale count never decreased between idle points and
//     increased at least twice;
//   - non-escaping: every object of the site became unreachable while the
//     invocation that created it was still on the stack (checked with
//     execution indices);
//   - consistently pointed by: the objects' exclusive parent (set by
//     PUTFIELD in the creating invocation), seen when both die at the
//     same time, always comes from the same site.
//
// Where MemInsight's analysis throws (an object never created, an
// execution index too short), the client fails with an error. Its
// per-object state is freed when the object's unreachability is
// delivered; what is left of a collected object is one bit (created).
//
// Objects the engine re-adds after their collection (spec §8.1: a
// PUTFIELD on a collected base, an edge to a collected target; the engine
// keeps the re-added vertex but reports the object at its collection) are
// dead here from their delivered unreachability on, as in the engine's
// reports, where MemInsight's analysis throws a NullPointerException at
// the next PUTFIELD or WRITE that names them (spec §8.2):
//
//   - a PUTFIELD or WRITE of a collected value, or a later last use of
//     it, changes nothing: its statistics are complete (a last use can
//     come after the unreachability when the engine reports a garbage
//     cycle at its stamp, after the trace gave a later use; the site then
//     gets its metadata at that unreachability);
//   - a PUTFIELD on a collected base makes the value's exclusive parent
//     "several" (-1) if it has none yet: the base is the value's parent in
//     the engine's graph but can never die with it, so the value cannot
//     be consistently pointed by anything (a value with a parent already
//     follows MemInsight's rule, which needs no metadata of the base).
//
// An unreachability record at time 0 is the staleness client's default
// for an object never reported (the trace's time 0 is the global object's
// creation): such an object is not unreachable, and stays live to the
// end. None of these occur in MemInsight's goldens, where its analysis
// would have thrown.
type SiteStats struct {
	// Full prints "no escaping from site" and "can be inlined" lines too
	// (MemInsight's dumpFullStats); otherwise only "leaking site" lines.
	Full bool
	// Out receives the lines (nil = none).
	Out io.Writer
	// JSON receives siteStats.json (nil = none).
	JSON io.Writer

	idx   execIndex
	depth int
	objs  map[int32]*ssObj
	sites map[Loc]*ssSite
	order []Loc
	inGrp map[int32]struct{}
	made  idSet // every id created
	err   error
}

// idSet is a set of object ids, one bit per id in pages of 1024 ids.
type idSet map[int32]*[16]uint64

func (s idSet) add(id int32) {
	p := s[id>>10]
	if p == nil {
		p = new([16]uint64)
		s[id>>10] = p
	}
	p[id>>6&15] |= 1 << (id & 63)
}

func (s idSet) has(id int32) bool {
	p := s[id>>10]
	return p != nil && p[id>>6&15]&(1<<(id&63)) != 0
}

type idxPair struct {
	site  Loc
	count int32
	has   bool // false: MemInsight's (null, 0)
}

type counters struct {
	counts map[Loc]int32
	last   idxPair
}

type execIndex struct {
	frames []*counters
	pool   []*counters
}

func (x *execIndex) init() { x.frames = []*counters{{counts: map[Loc]int32{}}} }

func (x *execIndex) inc(site Loc) bool {
	if len(x.frames) == 0 {
		return false
	}
	top := x.frames[len(x.frames)-1]
	c := top.counts[site] + 1
	top.counts[site] = c
	top.last = idxPair{site, c, true}
	return true
}

func (x *execIndex) index() []idxPair {
	out := make([]idxPair, len(x.frames))
	for i, f := range x.frames {
		out[i] = f.last
	}
	return out
}

func (x *execIndex) call() {
	var c *counters
	if n := len(x.pool); n > 0 {
		c = x.pool[n-1]
		x.pool = x.pool[:n-1]
		clear(c.counts)
		c.last = idxPair{}
	} else {
		c = &counters{counts: map[Loc]int32{}}
	}
	x.frames = append(x.frames, c)
}

func (x *execIndex) ret() bool {
	n := len(x.frames)
	if n == 0 {
		return false
	}
	x.pool = append(x.pool, x.frames[n-1])
	x.frames = x.frames[:n-1]
	return true
}

// deviation returns the first position where a and b differ, or len(a);
// ok is false where MemInsight's indexOfDeviation throws (b shorter than a
// and equal on all of b).
func deviation(a, b []idxPair) (int, bool) {
	for i := range a {
		if i >= len(b) {
			return 0, false
		}
		if a[i] != b[i] {
			return i, true
		}
	}
	return len(a), true
}

type ssObj struct {
	ci    []idxPair
	stale bool
	excl  int32 // 0: none yet, -1: several
}

type ownerState uint8

const (
	ownerNone ownerState = iota
	ownerSite
	ownerMany
)

type ssSite struct {
	inc         int
	empty       int
	cur, old    int
	nonEscaping bool
	owner       ownerState
	ownerSite   Loc
}

func (s *SiteStats) init() {
	s.idx.init()
	s.objs = make(map[int32]*ssObj)
	s.sites = make(map[Loc]*ssSite)
	s.inGrp = make(map[int32]struct{})
	s.made = make(idSet)
}

// collected reports whether id was created and its unreachability has
// been delivered since (its metadata is gone).
func (s *SiteStats) collected(id int32) bool {
	_, live := s.objs[id]
	return !live && s.made.has(id)
}

func (s *SiteStats) fail(format string, args ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("lifetime: site statistics: "+format, args...)
	}
}

func (s *SiteStats) failed() error { return s.err }

func allocOf(ci []idxPair) Loc { return ci[len(ci)-1].site }

func (s *SiteStats) create(id int32, site Loc, _ int64) {
	if !s.idx.inc(site) {
		s.fail("object %d created with no frame", id)
		return
	}
	// MemInsight asserts that an id is created once; its command line
	// (without assertions) replaces the metadata, as here.
	s.objs[id] = &ssObj{ci: s.idx.index()}
	s.made.add(id)
}

func (s *SiteStats) putField(base, val int32) {
	if val == 0 {
		return
	}
	m := s.objs[val]
	if m == nil {
		if !s.collected(val) {
			s.fail("PUTFIELD of object %d, which has no metadata", val)
		}
		return
	}
	switch {
	case m.excl == 0:
		b := s.objs[base]
		if b == nil {
			if !s.collected(base) {
				s.fail("PUTFIELD on object %d, which has no metadata", base)
				return
			}
			// A collected base (re-added by the engine) can never die
			// with val: no parent of val can be its owner.
			m.excl = -1
			return
		}
		d, ok := deviation(m.ci, b.ci)
		if !ok {
			s.fail("execution index of object %d is shorter than object %d's", base, val)
			return
		}
		if d == len(m.ci)-1 {
			m.excl = base
		}
	case m.excl != base:
		m.excl = -1
	}
}

func (s *SiteStats) write(val int32) {
	if val == 0 {
		return
	}
	m := s.objs[val]
	if m == nil {
		if !s.collected(val) {
			s.fail("WRITE of object %d, which has no metadata", val)
		}
		return
	}
	m.excl = -1
}

func (s *SiteStats) enter(site, _ Loc) {
	s.depth++
	if !s.idx.inc(site) {
		s.fail("call with no frame")
		return
	}
	s.idx.call()
}

func (s *SiteStats) exit() {
	if !s.idx.ret() {
		s.fail("return with no frame")
		return
	}
	s.depth--
	if s.depth != 0 {
		return
	}
	for _, l := range s.order {
		sm := s.sites[l]
		if sm.inc == -100 && sm.empty > 0 {
			switch {
			case sm.cur > sm.old:
				sm.inc = 1
			case sm.cur < sm.old:
				sm.inc = -1
			default:
				sm.inc = 0
			}
		} else if sm.inc >= 0 {
			if sm.cur < sm.old {
				sm.inc = -1
			} else if sm.cur > sm.old {
				sm.inc++
			}
		}
		sm.old = sm.cur
		sm.empty++
	}
}

func (s *SiteStats) lastUse(id int32, _ Loc, _ int64) {
	m := s.objs[id]
	if m == nil {
		if !s.collected(id) {
			s.fail("last use of object %d, which has no metadata", id)
		}
		return
	}
	m.stale = true
	s.site(allocOf(m.ci)).cur++
}

// site returns the metadata of site a, made at the first last use of one
// of its objects (or at the first unreachability, see unreachable).
func (s *SiteStats) site(a Loc) *ssSite {
	sm := s.sites[a]
	if sm == nil {
		sm = &ssSite{inc: -100, nonEscaping: true}
		s.sites[a] = sm
		s.order = append(s.order, a)
	}
	return sm
}

func (s *SiteStats) unreachable(site Loc, ids []int32, t int64) {
	if t == 0 {
		// Never reported unreachable (the staleness client's default).
		return
	}
	contains := func(id int32) bool {
		for _, x := range ids {
			if x == id {
				return true
			}
		}
		return false
	}
	if len(ids) > 16 {
		clear(s.inGrp)
		for _, x := range ids {
			s.inGrp[x] = struct{}{}
		}
		contains = func(id int32) bool { _, ok := s.inGrp[id]; return ok }
	}
	for _, id := range ids {
		m := s.objs[id]
		if m == nil {
			s.fail("unreachability of object %d, which has no metadata", id)
			return
		}
		a := allocOf(m.ci)
		sm := s.sites[a]
		if sm == nil {
			// No last use of the site's objects yet: the object's only
			// last-use record is later than its unreachability (a
			// garbage cycle reported at its stamp after the trace gave
			// a later use; the repair of spec §6.1 applies only to uses
			// that come after the report). MemInsight's analysis fails
			// an assertion; here the site starts with it.
			sm = s.site(a)
		}
		if m.stale {
			sm.cur--
		}
		if sm.nonEscaping {
			// MemInsight counts the unreachability site in the current
			// frame, once per such object.
			s.idx.inc(site)
			d, ok := deviation(m.ci, s.idx.index())
			if !ok {
				s.fail("execution index shorter than object %d's", id)
				return
			}
			if d < len(m.ci)-1 {
				sm.nonEscaping = false
			}
		}
		if x := m.excl; x != 0 && x != -1 && contains(x) {
			p := s.objs[x]
			if p == nil {
				s.fail("object %d, parent of %d, has no metadata", x, id)
				return
			}
			ps := allocOf(p.ci)
			switch {
			case sm.owner == ownerNone:
				sm.owner, sm.ownerSite = ownerSite, ps
			case sm.owner == ownerSite && sm.ownerSite != ps:
				sm.owner = ownerMany
			}
		}
	}
	for _, id := range ids {
		delete(s.objs, id)
	}
}

func (s *SiteStats) tick(int64) {}

func (s *SiteStats) begin(*sourceMap) {}

func (s *SiteStats) end(src *sourceMap) error {
	name := func(l Loc) (string, error) {
		if w := src.get(l); w != nil {
			return w.String(), nil
		}
		return "", fmt.Errorf("lifetime: site statistics: no source location for site %s", l)
	}
	var out *bufio.Writer
	if s.Out != nil {
		out = bufio.NewWriter(s.Out)
	}
	type result struct {
		leak, nonEsc bool
		by           string
	}
	results := map[string]result{}
	var keys []string
	for _, l := range s.order {
		sm := s.sites[l]
		site, err := name(l)
		if err != nil {
			return err
		}
		var r result
		if sm.inc > 1 {
			r.leak = true
			if out != nil {
				fmt.Fprintf(out, "leaking site %s\n", site)
			}
		}
		if sm.nonEscaping {
			r.nonEsc = true
			if out != nil && s.Full {
				fmt.Fprintf(out, "no escaping from site %s\n", site)
			}
		}
		if sm.owner == ownerSite {
			by, err := name(sm.ownerSite)
			if err != nil {
				return err
			}
			r.by = by
			if out != nil && s.Full {
				fmt.Fprintf(out, "site %s can be inlined into site %s\n", site, by)
			}
		}
		if r.leak || r.nonEsc || r.by != "" {
			if _, ok := results[site]; !ok {
				keys = append(keys, site)
			}
			results[site] = r
		}
	}
	if out != nil {
		if err := out.Flush(); err != nil {
			return err
		}
	}
	if s.JSON != nil {
		b := []byte{'{'}
		for i, k := range keys {
			r := results[k]
			if i > 0 {
				b = append(b, ',')
			}
			b = appendGsonString(b, k)
			b = append(b, `:{"isLeakingDefinitely":`...)
			b = strconv.AppendBool(b, r.leak)
			b = append(b, `,"isNonEscaping":`...)
			b = strconv.AppendBool(b, r.nonEsc)
			if r.by != "" {
				b = append(b, `,"consistentlyPointedBy":`...)
				b = appendGsonString(b, r.by)
			}
			b = append(b, '}')
		}
		b = append(b, '}', '\n')
		if _, err := s.JSON.Write(b); err != nil {
			return err
		}
	}
	return nil
}
