package lifetime

import (
	"math"
	"sort"
	"strings"
)

// This file is what a report shows beyond the summary's figures
// (ReportOptions.Details): the live and stale counts over the run, for
// the whole program and per site, in buckets of logical time; the calling
// contexts that allocate at each site; where its objects were last used;
// what retained them at moments through the run (snapshots) as well as at
// the end; and the DOM nodes detached from the document but still
// reachable at the end. Every part is bounded: by the number of buckets,
// of contexts and last-use sites per site, of snapshots, and of objects
// that get a path; not by the trace's length.

// DetailOptions say how fine the details are (zero values: the defaults).
type DetailOptions struct {
	// Buckets divide the run's logical time for the timelines
	// (DefaultBuckets).
	Buckets int
	// Snapshots is how many times through the run the retaining paths
	// are taken, at equal distances in the trace's bytes (Size), besides
	// the end (0: none; DefaultSnapshots is what memtrace report asks).
	Snapshots int
	// Size is the trace's length in bytes, which places the snapshots
	// (0: unknown, no snapshots).
	Size int64
}

// The details' bounds.
const (
	DefaultBuckets   = 240
	DefaultSnapshots = 16
	// MaxContexts is how many calling contexts a site keeps (the others
	// are counted together); ContextDepth how many frames of each, the
	// innermost.
	MaxContexts  = 32
	ContextDepth = 12
	// MaxLastUses is how many last-use locations a site keeps.
	MaxLastUses = 32
	// SnapshotSample is how many of a site's objects get a retaining path
	// at a snapshot (RetainerSample at the end).
	SnapshotSample = 64
)

// Details is what ReportOptions.Details receives.
type Details struct {
	// End is the trace's last logical time; Times the last time of each
	// bucket of the timelines (ascending).
	End   int64
	Times []int64
	// Live and Stale are the whole program's largest counts in each
	// bucket.
	Live, Stale []int64
	// Sites are the sites' details, by SiteSummary.Site.
	Sites map[string]*SiteDetails
	// Snapshots are the times retaining paths were taken at.
	Snapshots []int64
	// Detached are the DOM nodes off the document (not under the DOM
	// root by child sets) but reachable at the end, by allocation site,
	// the most nodes first.
	Detached []DetachedSite
}

// SiteDetails is one site's part of Details.
type SiteDetails struct {
	// Live and Stale are the site's largest counts in each bucket.
	Live, Stale []int64
	// Contexts are the calling contexts its objects were made in, the
	// most objects first; OtherContexts counts the objects made in
	// contexts past MaxContexts.
	Contexts      []AllocContext
	OtherContexts int64
	// LastUses are where its objects were last used, the most first
	// (Site "" = their creation: never used after it).
	LastUses      []LastUseCount
	OtherLastUses int64
	// EndSampled is how many of its objects live at the end got a
	// retaining path (SiteSummary.Retainers counts among them).
	EndSampled int
	// Snapshots are its retainers at the snapshots where it had live
	// objects.
	Snapshots []SiteSnapshot
}

// AllocContext is a calling context: its frames, innermost first, and
// the objects made in it. Truncated: deeper frames were left out.
type AllocContext struct {
	Objects   int64        `json:"objects"`
	Frames    []StackFrame `json:"frames"`
	Truncated bool         `json:"truncated,omitempty"`
}

// StackFrame is one frame: the function running (its location; a
// script's for its top level) and the call site in its caller that
// called it ("" when a native function or the event loop did).
type StackFrame struct {
	Function string `json:"function"`
	CallSite string `json:"callSite,omitempty"`
}

// LastUseCount is how many of a site's objects were last used at Site.
type LastUseCount struct {
	Site    string `json:"site"`
	Objects int64  `json:"objects"`
}

// SiteSnapshot is a site's retainers at Details.Snapshots[Index]: Live
// objects reached from the roots, Sampled of them given a path.
type SiteSnapshot struct {
	Index     int
	Live      int64
	Sampled   int
	Retainers []Retainer
}

// DetachedSite is a site's DOM nodes detached at the end.
type DetachedSite struct {
	Site      string
	Nodes     int64
	Sampled   int
	Retainers []Retainer
}

// shapeSet groups paths by shape, for one site at one moment.
type shapeSet struct {
	live    int64
	sampled int
	shapes  map[string]*Retainer
}

func (g *shapeSet) add(path []Step) {
	g.sampled++
	if g.shapes == nil {
		g.shapes = map[string]*Retainer{}
	}
	shape := PathShape(path)
	r := g.shapes[shape]
	if r == nil {
		r = &Retainer{Path: append([]Step(nil), path...)}
		g.shapes[shape] = r
	}
	r.Objects++
}

// top lists the most common shapes, RetainerShapes at most.
func (g *shapeSet) top() []Retainer {
	if g == nil {
		return nil
	}
	out := make([]Retainer, 0, len(g.shapes))
	for _, r := range g.shapes {
		out = append(out, *r)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Objects != out[b].Objects {
			return out[a].Objects > out[b].Objects
		}
		return len(out[a].Path) < len(out[b].Path) || len(out[a].Path) == len(out[b].Path) && PathShape(out[a].Path) < PathShape(out[b].Path)
	})
	if len(out) > RetainerShapes {
		out = out[:RetainerShapes]
	}
	return out
}

// snapshotOf takes the retainers of every site's objects reachable now,
// by site (Location.String: the summary's sites, where locations of the
// same text are one), sample of each given a path; detached, when not
// nil, also groups the DOM nodes off the document whose root is domRoot
// (0: no DOM).
func snapshotOf(e *Engine, sample int, domRoot int32, detached map[string]*shapeSet) map[string]*shapeSet {
	sets := map[string]*shapeSet{}
	byLoc := map[*Location]*shapeSet{}
	var inDoc map[int32]bool
	if detached != nil && domRoot != 0 {
		inDoc = e.DOMTree(domRoot)
	}
	var lastLoc *Location
	var lastSet *shapeSet
	setOf := func(id int32) (*Location, *shapeSet) {
		l := e.AllocSite(id)
		if l == nil {
			return nil, nil
		}
		if l == lastLoc {
			return l, lastSet
		}
		g := byLoc[l]
		if g == nil {
			if g = sets[l.String()]; g == nil {
				g = &shapeSet{}
				sets[l.String()] = g
			}
			byLoc[l] = g
		}
		lastLoc, lastSet = l, g
		return l, g
	}
	isDetached := func(id int32) bool { return inDoc != nil && e.IsDOM(id) && !inDoc[id] }
	e.Retainers(func(id int32) bool {
		l, g := setOf(id)
		if g == nil {
			return false
		}
		g.live++
		want := g.sampled < sample
		if isDetached(id) {
			d := detached[l.String()]
			if d == nil {
				d = &shapeSet{}
				detached[l.String()] = d
			}
			d.live++
			want = want || d.sampled < sample
		}
		return want
	}, func(id int32, path []Step) bool {
		l, g := setOf(id)
		if g.sampled < sample {
			g.add(path)
		}
		if isDetached(id) {
			if d := detached[l.String()]; d != nil && d.sampled < sample {
				d.add(path)
			}
		}
		return true
	})
	return sets
}

// snapshots are the first pass's retainers through the run, each site's
// kept as its most common shapes only.
type snapshots struct {
	times []int64
	sets  []map[string]siteSnap
}

type siteSnap struct {
	live    int64
	sampled int
	top     []Retainer
}

// schedule has e take DetailOptions.Snapshots snapshots at equal
// distances in the trace's bytes.
func (s *snapshots) schedule(e *Engine, o DetailOptions) {
	if o.Snapshots <= 0 || o.Size <= 0 {
		return
	}
	n := int64(o.Snapshots)
	k := int64(1)
	at := func(k int64) int64 { return o.Size * k / (n + 1) }
	e.AtOffsets(at(1), func(e *Engine) int64 {
		s.times = append(s.times, e.Now())
		sets := snapshotOf(e, SnapshotSample, 0, nil)
		kept := make(map[string]siteSnap, len(sets))
		for l, g := range sets {
			kept[l] = siteSnap{live: g.live, sampled: g.sampled, top: g.top()}
		}
		s.sets = append(s.sets, kept)
		// One snapshot per interval however long an entry is.
		for k++; k <= n && at(k) <= e.Offset(); k++ {
		}
		if k > n {
			return math.MaxInt64
		}
		return at(k)
	})
}

// IsDOM reports whether object id was made as a DOM node.
func (e *Engine) IsDOM(id int32) bool { return e.objs.pv(id)&pvDOM != 0 }

// DOMTree returns the DOM nodes in the document whose root (its
// documentElement) is root: under root's topmost ancestor by child sets
// (the document, which also holds the doctype), root included.
func (e *Engine) DOMTree(root int32) map[int32]bool {
	g := &e.g
	in := map[int32]bool{}
	s := e.slotOf(objKey(root))
	if s < 0 {
		return in
	}
	// Up to the topmost ancestor (the document walks its own children).
	for seen := map[int32]bool{s: true}; ; {
		up := int32(-1)
		for _, ei := range g.verts[s].in {
			if ei >= 0 && g.edges[ei].name == nameDOMChild && !seen[g.edges[ei].from] && g.verts[g.edges[ei].from].ctx == nil {
				up = g.edges[ei].from
				break
			}
		}
		if up < 0 {
			break
		}
		seen[up] = true
		s = up
	}
	in[g.verts[s].id] = true
	queue := []int32{s}
	for len(queue) > 0 {
		v := &g.verts[queue[len(queue)-1]]
		queue = queue[:len(queue)-1]
		for _, ei := range v.out {
			if ei < 0 || g.edges[ei].name != nameDOMChild {
				continue
			}
			t := g.edges[ei].to
			if id := g.verts[t].id; g.verts[t].ctx == nil && !in[id] {
				in[id] = true
				queue = append(queue, t)
			}
		}
	}
	return in
}

// --- the second pass: timelines, contexts, last uses ---

// tlPoint is a site's counts in one bucket: the largest and the last.
type tlPoint struct {
	b                   int32
	maxLive, maxStale   int32
	lastLive, lastStale int32
}

type timeline []tlPoint

func (tl *timeline) note(b int32, live, stale int64) {
	t := *tl
	if n := len(t); n > 0 && t[n-1].b == b {
		p := &t[n-1]
		p.maxLive = max(p.maxLive, int32(live))
		p.maxStale = max(p.maxStale, int32(stale))
		p.lastLive, p.lastStale = int32(live), int32(stale)
		return
	}
	*tl = append(t, tlPoint{b: b, maxLive: int32(live), maxStale: int32(stale), lastLive: int32(live), lastStale: int32(stale)})
}

// dense spreads the timeline over n buckets (a bucket without a change
// keeps the last counts of the one before).
func (tl timeline) dense(n int) (live, stale []int64) {
	live, stale = make([]int64, n), make([]int64, n)
	var l, s int64
	j := 0
	for b := 0; b < n; b++ {
		if j < len(tl) && int(tl[j].b) == b {
			live[b], stale[b] = int64(tl[j].maxLive), int64(tl[j].maxStale)
			l, s = int64(tl[j].lastLive), int64(tl[j].lastStale)
			j++
			continue
		}
		live[b], stale[b] = l, s
	}
	return live, stale
}

// frame is one frame of the second pass's call stack.
type frame struct {
	call, fn Loc
	h        uint64 // hash of the innermost ContextDepth frames up to this one
}

// ctxInfo is a calling context's frames, kept once for every site that
// allocates in it (by the hash of its frames).
type ctxInfo struct {
	frames    []frame
	truncated bool
}

// siteExtra is a site's details being gathered.
type siteExtra struct {
	tl            timeline
	contexts      map[uint64]int64 // objects by context
	otherContexts int64
	lastUses      map[Loc]int64
	otherLastUses int64
}

// detailer is the summary's part that gathers Details.
type detailer struct {
	out     *Details
	end     int64 // the first pass's last time
	buckets int
	stack   []frame
	pow     uint64 // the hash's base to the ContextDepth
	tl      timeline
	first   *firstPass
	ctxs    map[uint64]*ctxInfo
}

const hashBase = 0x100000001b3

func newDetailer(out *Details, opts DetailOptions, first *firstPass) *detailer {
	n := opts.Buckets
	if n <= 0 {
		n = DefaultBuckets
	}
	d := &detailer{out: out, end: first.end, first: first, ctxs: map[uint64]*ctxInfo{}}
	if d.end < 0 {
		d.end = 0
	}
	d.buckets = int(min(int64(n), d.end+1))
	d.pow = 1
	for i := 0; i < ContextDepth; i++ {
		d.pow *= hashBase
	}
	return d
}

func (d *detailer) bucket(t int64) int32 {
	if t <= 0 || d.end <= 0 {
		return 0
	}
	b := int64(float64(t) * float64(d.buckets) / float64(d.end+1))
	return int32(min(b, int64(d.buckets-1)))
}

func mixLoc(l Loc) uint64 {
	x := uint64(uint32(l.SID))<<32 | uint64(uint32(l.IID))
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb3f53e63b9c5
	x ^= x >> 33
	return x
}

func (d *detailer) enter(call, fn Loc) {
	f := frame{call: call, fn: fn}
	v := mixLoc(call)*31 ^ mixLoc(fn)
	n := len(d.stack)
	if n > 0 {
		f.h = d.stack[n-1].h * hashBase
		if n >= ContextDepth {
			o := d.stack[n-ContextDepth]
			f.h -= (mixLoc(o.call)*31 ^ mixLoc(o.fn)) * d.pow
		}
	}
	f.h += v
	d.stack = append(d.stack, f)
}

func (d *detailer) exit() {
	if n := len(d.stack); n > 0 {
		d.stack = d.stack[:n-1]
	}
}

func (d *detailer) create(x *siteExtra) {
	var h uint64
	if n := len(d.stack); n > 0 {
		h = d.stack[n-1].h
	}
	if _, ok := x.contexts[h]; !ok {
		if len(x.contexts) >= MaxContexts {
			x.otherContexts++
			return
		}
		if x.contexts == nil {
			x.contexts = map[uint64]int64{}
		}
		if d.ctxs[h] == nil {
			n := len(d.stack)
			k := min(n, ContextDepth)
			c := &ctxInfo{frames: make([]frame, k), truncated: n > k}
			for i := 0; i < k; i++ {
				c.frames[i] = d.stack[n-1-i]
			}
			d.ctxs[h] = c
		}
	}
	x.contexts[h]++
}

func (d *detailer) lastUse(x *siteExtra, at Loc) {
	if _, ok := x.lastUses[at]; !ok {
		if len(x.lastUses) >= MaxLastUses {
			x.otherLastUses++
			return
		}
		if x.lastUses == nil {
			x.lastUses = map[Loc]int64{}
		}
	}
	x.lastUses[at]++
}

// contextKey orders contexts of as many objects alike in every run.
func contextKey(c *AllocContext) string {
	var b strings.Builder
	for _, f := range c.Frames {
		b.WriteString(f.Function)
		b.WriteByte(0)
		b.WriteString(f.CallSite)
		b.WriteByte(0)
	}
	return b.String()
}

// finish fills Details for the sites (by name, with their extras).
func (d *detailer) finish(src *sourceMap, names []string, extras []*siteExtra) {
	out := d.out
	out.End = d.end
	out.Times = make([]int64, d.buckets)
	for b := range out.Times {
		// The last time t with bucket(t) == b.
		out.Times[b] = int64(math.Ceil(float64(b+1)*float64(d.end+1)/float64(d.buckets))) - 1
		if b == d.buckets-1 {
			out.Times[b] = d.end
		}
	}
	out.Live, out.Stale = d.tl.dense(d.buckets)
	out.Sites = make(map[string]*SiteDetails, len(names))
	locName := func(l Loc) string {
		if w := src.get(l); w != nil {
			return w.String()
		}
		return ""
	}
	byName := map[string]*SiteDetails{}
	for i, name := range names {
		x := extras[i]
		sd := &SiteDetails{OtherContexts: x.otherContexts, OtherLastUses: x.otherLastUses}
		sd.Live, sd.Stale = x.tl.dense(d.buckets)
		for h, objects := range x.contexts {
			c := d.ctxs[h]
			ac := AllocContext{Objects: objects, Truncated: c.truncated}
			for _, f := range c.frames {
				sf := StackFrame{Function: locName(f.fn)}
				if f.call != LocUnknown && f.call != f.fn {
					sf.CallSite = locName(f.call)
				}
				ac.Frames = append(ac.Frames, sf)
			}
			sd.Contexts = append(sd.Contexts, ac)
		}
		sort.Slice(sd.Contexts, func(a, b int) bool {
			x, y := &sd.Contexts[a], &sd.Contexts[b]
			if x.Objects != y.Objects {
				return x.Objects > y.Objects
			}
			return contextKey(x) < contextKey(y)
		})
		for l, n := range x.lastUses {
			name := ""
			if l != LocUnknown {
				name = locName(l)
				if name == "" {
					name = l.String()
				}
			}
			sd.LastUses = append(sd.LastUses, LastUseCount{Site: name, Objects: n})
		}
		sort.Slice(sd.LastUses, func(a, b int) bool {
			x, y := sd.LastUses[a], sd.LastUses[b]
			if x.Objects != y.Objects {
				return x.Objects > y.Objects
			}
			return x.Site < y.Site
		})
		out.Sites[name] = sd
		byName[name] = sd
	}
	fp := d.first
	if fp == nil {
		return
	}
	out.Snapshots = fp.snaps.times
	for i, t := range out.Snapshots {
		// A metadata entry's time is the next counted entry's.
		out.Snapshots[i] = min(t, d.end)
	}
	for i, set := range fp.snaps.sets {
		for name, g := range set {
			if sd := byName[name]; sd != nil {
				sd.Snapshots = append(sd.Snapshots, SiteSnapshot{Index: i, Live: g.live, Sampled: g.sampled, Retainers: g.top})
			}
		}
	}
	for name, g := range fp.endSets {
		if sd := byName[name]; sd != nil {
			sd.EndSampled = g.sampled
		}
	}
	for name, g := range fp.detached {
		out.Detached = append(out.Detached, DetachedSite{Site: name, Nodes: g.live, Sampled: g.sampled, Retainers: g.top()})
	}
	sort.Slice(out.Detached, func(a, b int) bool {
		x, y := out.Detached[a], out.Detached[b]
		if x.Nodes != y.Nodes {
			return x.Nodes > y.Nodes
		}
		return x.Site < y.Site
	})
}
