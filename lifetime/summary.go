package lifetime

import (
	"bufio"
	"encoding/json"
	"io"
	"sort"
)

// The JSON summary per allocation site (our own format, documented in
// docs/lifetime-json.md). It is a client of the second pass, which
// delivers each object's last use and unreachability at their times, so
// that "live" and "stale" are exact at every moment of the trace:
//
//   - live: created and not yet unreachable;
//   - stale: live and past its last use (MemInsight's last use: the last
//     LAST_USE record, creation counting as a use, removal from the
//     visible DOM, or unreachability while in the DOM);
//   - idle point: the call stack (functions and scripts) becomes empty.
//
// Its state is one record per live object and one per site: memory does
// not grow with the trace's length.

// SiteSummary is one allocation site of the JSON summary.
type SiteSummary struct {
	// Site is the allocation site, "file:startLine:startCol:endLine:endCol"
	// (or a special location such as "unknown").
	Site string `json:"site"`
	// Allocated counts the objects created at the site.
	Allocated int64 `json:"allocated"`
	// MaxLive is the largest number of the site's objects alive at once.
	MaxLive int64 `json:"maxLive"`
	// MaxStale is the largest number of the site's objects that were
	// reachable after their last use at once.
	MaxStale int64 `json:"maxStale"`
	// Leaking: the site's stale objects kept accumulating until the end
	// of the run. Sampled at every idle point from the site's first
	// allocation on (LeakMinIdlePoints at least), the stale count at the
	// last idle point is the largest of all samples, at least
	// LeakMinGrowth more than at the idle point halfway through, and it
	// grew both before and after the idle point three quarters through:
	// a set of stale objects that levels off (a bounded cache, a ring
	// buffer, a pool) or shrinks is not a leak, nor are objects that turn
	// stale only in the last callbacks; one still growing is.
	Leaking bool `json:"leaking"`
	// Unused counts the objects never used after their creation.
	Unused int64 `json:"unused"`
	// OneAliveAtATime: never more than one of the site's objects alive.
	OneAliveAtATime bool `json:"oneAliveAtATime"`
	// NonEscaping: every object of the site became unreachable while the
	// invocation (function call or script) that created it was still
	// running.
	NonEscaping bool `json:"nonEscaping"`
	// Retainers: what holds the site's objects still reachable at the
	// end, the shortest paths from the roots grouped by shape, the most
	// common first (at most RetainerShapes, of RetainerSample objects).
	Retainers []Retainer `json:"retainers,omitempty"`
}

// SummaryTotals are the whole trace's figures.
type SummaryTotals struct {
	Sites                int   `json:"sites"`
	Allocated            int64 `json:"allocated"`
	MaxLive              int64 `json:"maxLive"`
	MaxStale             int64 `json:"maxStale"`
	Unused               int64 `json:"unused"`
	LeakingSites         int   `json:"leakingSites"`
	OneAliveAtATimeSites int   `json:"oneAliveAtATimeSites"`
	NonEscapingSites     int   `json:"nonEscapingSites"`
	IdlePoints           int64 `json:"idlePoints"`
	// LiveAtEnd counts the objects never reported unreachable.
	LiveAtEnd int64 `json:"liveAtEnd"`
}

// Summary is the JSON summary document: sites sorted by MaxStale
// (largest first), then by site.
type Summary struct {
	Sites  []SiteSummary `json:"sites"`
	Totals SummaryTotals `json:"totals"`
}

type sumSite struct {
	SiteSummary
	live, stale int64
	escaped     bool
	dirty       bool
	idle        idleSamples
	x           *siteExtra // with details
}

// The leaking verdict's thresholds (SiteSummary.Leaking).
const (
	// LeakMinIdlePoints is the fewest idle points, from a site's first
	// allocation to the end, on which a site can be found leaking.
	LeakMinIdlePoints = 4
	// LeakMinGrowth is the least growth of a site's stale count over the
	// second half of those idle points for it to be leaking.
	LeakMinGrowth = 2
)

// idleSamples keeps a site's stale count at its idle points in bounded
// memory: the samples at every stride-th idle point since the site's first
// allocation, at most maxIdleSamples (when full, every other one goes and
// the stride doubles), the last sample and the largest.
type idleSamples struct {
	at     []int64
	stride int64
	n      int64 // idle points sampled
	last   int64
	peak   int64
}

const maxIdleSamples = 128

func (x *idleSamples) add(v int64) {
	if x.stride == 0 {
		x.stride = 1
	}
	if x.n%x.stride == 0 {
		x.at = append(x.at, v)
		if len(x.at) == maxIdleSamples {
			for i := 0; i < maxIdleSamples/2; i++ {
				x.at[i] = x.at[2*i]
			}
			x.at = x.at[:maxIdleSamples/2]
			x.stride *= 2
		}
	}
	x.n++
	x.last = v
	x.peak = max(x.peak, v)
}

// leaking is SiteSummary.Leaking: at least LeakMinIdlePoints samples, the
// last the largest, LeakMinGrowth above the sample halfway, and the sample
// three quarters through between the two (each is the one kept nearest to
// its idle point). The last condition keeps out what every run ends with:
// objects used until the last callbacks, stale only once their last use
// has passed.
func (x *idleSamples) leaking() bool {
	if x.n < LeakMinIdlePoints {
		return false
	}
	at := func(k int64) int64 { return x.at[min((k+x.stride/2)/x.stride, int64(len(x.at)-1))] }
	half, late := at((x.n-1)/2), at(3*(x.n-1)/4)
	return x.last >= x.peak && x.last-half >= LeakMinGrowth && half < late && late < x.last
}

type sumObj struct {
	site    int32
	created int64
	frame   uint64 // serial of the creating invocation
	depth   int32  // its position on the stack
	stale   bool
	used    bool
}

type summary struct {
	w      io.Writer
	ret    *firstPass // the first pass's, nil: none
	det    *detailer  // nil: no details
	src    *sourceMap
	sites  []*sumSite
	byLoc  map[Loc]int32
	byName map[string]int32
	objs   map[int32]*sumObj
	frames []uint64
	serial uint64
	dirty  []int32
	tot    SummaryTotals
	live   int64
	stale  int64
	atEnd  []int32 // reported unreachable at the end of the program
	// lastTime is the last tick's.
	lastTime int64
}

func newSummary(w io.Writer, ret *firstPass) *summary {
	return &summary{w: w, ret: ret, byLoc: map[Loc]int32{}, byName: map[string]int32{}, objs: map[int32]*sumObj{}}
}

func (s *summary) begin(src *sourceMap) { s.src = src }

// skipsIterations: synthetic iteration scopes are not objects nor
// invocations of the summary (trace.IterationMarker).
func (s *summary) skipsIterations() {}

func (s *summary) siteOf(l Loc) int32 {
	if i, ok := s.byLoc[l]; ok {
		return i
	}
	name := "unmapped " + l.String()
	if s.src != nil {
		if w := s.src.get(l); w != nil {
			name = w.String()
		}
	}
	i, ok := s.byName[name]
	if !ok {
		i = int32(len(s.sites))
		st := &sumSite{SiteSummary: SiteSummary{Site: name}}
		if s.det != nil {
			st.x = &siteExtra{}
		}
		s.sites = append(s.sites, st)
		s.byName[name] = i
	}
	s.byLoc[l] = i
	return i
}

func (s *summary) create(id int32, site Loc, t int64) {
	if id == 1 {
		// The global object is a root, not an object of the heap.
		return
	}
	if old := s.objs[id]; old != nil {
		// Created again while live: the first object is gone.
		s.die(old, false)
	}
	si := s.siteOf(site)
	st := s.sites[si]
	st.Allocated++
	st.live++
	st.MaxLive = max(st.MaxLive, st.live)
	s.tot.Allocated++
	s.live++
	s.tot.MaxLive = max(s.tot.MaxLive, s.live)
	s.objs[id] = &sumObj{site: si, created: t, frame: s.top(), depth: int32(len(s.frames)) - 1}
	if d := s.det; d != nil {
		b := d.bucket(t)
		st.x.tl.note(b, st.live, st.stale)
		d.tl.note(b, s.live, s.stale)
		d.create(st.x)
		s.markDirty(si)
	}
}

func (s *summary) top() uint64 {
	if len(s.frames) == 0 {
		return 0
	}
	return s.frames[len(s.frames)-1]
}

func (s *summary) markDirty(si int32) {
	if st := s.sites[si]; !st.dirty {
		st.dirty = true
		s.dirty = append(s.dirty, si)
	}
}

func (s *summary) die(o *sumObj, inFrame bool) {
	st := s.sites[o.site]
	st.live--
	s.live--
	if s.det != nil {
		s.markDirty(o.site)
	}
	if o.stale {
		st.stale--
		s.stale--
		s.markDirty(o.site)
	}
	if !o.used {
		st.Unused++
		s.tot.Unused++
	}
	if !inFrame {
		st.escaped = true
	}
}

func (s *summary) putField(base, val int32) {}
func (s *summary) write(val int32)          {}

func (s *summary) enter(call, fn Loc) {
	s.serial++
	s.frames = append(s.frames, s.serial)
	if s.det != nil {
		s.det.enter(call, fn)
	}
}

func (s *summary) exit() {
	if len(s.frames) == 0 {
		return
	}
	s.frames = s.frames[:len(s.frames)-1]
	if s.det != nil {
		s.det.exit()
	}
	if len(s.frames) != 0 {
		return
	}
	s.tot.IdlePoints++
	for _, st := range s.sites {
		st.idle.add(st.stale)
	}
}

func (s *summary) lastUse(id int32, at Loc, t int64) {
	o := s.objs[id]
	if o == nil {
		return
	}
	if s.det != nil {
		if t <= o.created {
			at = LocUnknown // its creation
		}
		s.det.lastUse(s.sites[o.site].x, at)
	}
	if t > o.created {
		o.used = true
	}
	if !o.stale {
		o.stale = true
		s.sites[o.site].stale++
		s.stale++
		s.markDirty(o.site)
	}
}

func (s *summary) unreachable(site Loc, ids []int32, _ int64) {
	if site == LocEndOfProgram {
		// The engine empties the heap when the trace ends, at the trace's
		// last time, which is also the time of its last FUNCTION_EXIT: the
		// final idle point must not see these objects die (a program run
		// by an event loop would never have a leaking site), so they stay
		// live until end.
		s.atEnd = append(s.atEnd, ids...)
		return
	}
	for _, id := range ids {
		o := s.objs[id]
		if o == nil {
			continue
		}
		d := int(o.depth)
		in := d >= 0 && d < len(s.frames) && s.frames[d] == o.frame
		s.die(o, in)
		delete(s.objs, id)
	}
}

// tick records the stale maxima once the time's records are all in (an
// object that dies at its last use is never stale).
func (s *summary) tick(t int64) {
	s.lastTime = t
	var b int32
	if s.det != nil {
		b = s.det.bucket(t)
	}
	for _, si := range s.dirty {
		st := s.sites[si]
		st.dirty = false
		st.MaxStale = max(st.MaxStale, st.stale)
		if st.x != nil {
			st.x.tl.note(b, st.live, st.stale)
		}
	}
	if s.det != nil && len(s.dirty) > 0 {
		s.det.tl.note(b, s.live, s.stale)
	}
	s.dirty = s.dirty[:0]
	s.tot.MaxStale = max(s.tot.MaxStale, s.stale)
}

func (s *summary) failed() error { return nil }

func (s *summary) end(src *sourceMap) error {
	s.tick(s.lastTime)
	for _, id := range s.atEnd {
		if o := s.objs[id]; o != nil {
			s.die(o, false)
			delete(s.objs, id)
		}
	}
	for _, o := range s.objs {
		st := s.sites[o.site]
		st.escaped = true
		if !o.used {
			st.Unused++
			s.tot.Unused++
		}
		s.tot.LiveAtEnd++
	}
	if s.det != nil {
		names := make([]string, len(s.sites))
		extras := make([]*siteExtra, len(s.sites))
		for i, st := range s.sites {
			names[i], extras[i] = st.Site, st.x
		}
		s.det.finish(src, names, extras)
	}
	doc := Summary{Sites: make([]SiteSummary, 0, len(s.sites))}
	for _, st := range s.sites {
		st.Leaking = st.idle.leaking()
		st.OneAliveAtATime = st.MaxLive <= 1
		st.NonEscaping = !st.escaped
		if s.ret != nil {
			st.Retainers = s.ret.top(st.Site)
		}
		doc.Sites = append(doc.Sites, st.SiteSummary)
		if st.Leaking {
			s.tot.LeakingSites++
		}
		if st.OneAliveAtATime {
			s.tot.OneAliveAtATimeSites++
		}
		if st.NonEscaping {
			s.tot.NonEscapingSites++
		}
	}
	sort.Slice(doc.Sites, func(a, b int) bool {
		x, y := &doc.Sites[a], &doc.Sites[b]
		if x.MaxStale != y.MaxStale {
			return x.MaxStale > y.MaxStale
		}
		return x.Site < y.Site
	})
	s.tot.Sites = len(doc.Sites)
	doc.Totals = s.tot
	bw := bufio.NewWriter(s.w)
	enc := json.NewEncoder(bw)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	return bw.Flush()
}
