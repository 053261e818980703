package lifetime

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"unsafe"

	"github.com/memtrace/memtrace/trace"
)

// DefaultCycleQueueLimit is MemInsight's cycle-queue limit: a flush that
// leaves more entries than this in the cycle queue runs a cycle collection.
const DefaultCycleQueueLimit = 50000

// Options configure an Engine. The zero value is MemInsight's default
// configuration.
type Options struct {
	// CycleQueueLimit overrides DefaultCycleQueueLimit when > 0.
	CycleQueueLimit int
	// KeepArguments, when set, stops the engine from ignoring objects
	// declared under the name "arguments" (MemInsight ignores them: they
	// are never reported).
	KeepArguments bool
	// MemInsightReturns, when set, decides the flush of a return
	// statement's argument (a TOP_LEVEL_FLUSH directly followed by RETURN)
	// as MemInsight's engine does: first, so that a fresh object only the
	// return statement holds (`return function () { … }`, `return () => o`,
	// `return {a: {}}`) is reclaimed with its out-edges there and re-added
	// without them when the caller stores it. A returned closure then loses
	// its context and what it captures dies at the function's exit, which
	// V8 does not do. MemInsight's goldens encode it (testRefCount5: RC 1
	// where V8 keeps 2), so the fidelity tests set it. By default the
	// flush is held until the function's exit, which protects the returned
	// object as V8's collector sees it.
	MemInsightReturns bool
	// MemInsightPrototypes, when set, makes the prototype object id+1
	// that a CREATE_FUN announces for every function, as MemInsight's
	// engine does, also for a function whose FREE_VARS say it has none
	// (trace.NoPrototypeMarker: an arrow, a method, an accessor, an async
	// function). By default no such object exists: a site counts the
	// objects the program made.
	MemInsightPrototypes bool
}

// Interned names with a fixed meaning.
const (
	nameContext   int32 = iota // "_CONTEXT_": function → creating context
	namePrototype              // "prototype": function → id+1
	nameParent                 // "~PARENT-CONTEXT~": context → parent
	nameDOMChild               // "~dom-child~": DOM child-set member
	nameArguments              // "arguments"
	numFixedNames
)

var fixedNames = [numFixedNames]string{"_CONTEXT_", "prototype", "~PARENT-CONTEXT~", "~dom-child~", "arguments"}

type collectKind uint8

const (
	collectRegular collectKind = iota
	collectForce
	collectEnd
)

type candItem struct {
	key  nodeKey
	prev int32 // the node's cand value before it joined this set
}

type candSet struct {
	items []candItem
	head  int
}

type queueEntry struct {
	key  nodeKey
	loc  Loc
	time int64
}

// Engine is MemInsight's reference-counting lifetime engine. It consumes
// trace entries one at a time (Run) and reports unreachable objects to a
// Listener. An Engine is single-use and not safe for concurrent use.
type Engine struct {
	opts  Options
	limit int
	l     Listener

	now     int64
	index   int64
	offset  int64
	curSID  int32
	ended   bool
	noCycle bool

	// AtOffsets's callback and the offset it waits for.
	atOffset func(e *Engine) int64
	nextAt   int64

	// A TOP_LEVEL_FLUSH waits for the next entry (see Run): when that is
	// a RETURN, the returned object is protected first.
	held     bool
	heldLoc  Loc
	heldTime int64

	src      sourceMap
	sites    []*Location // every mapped location, by Location.idx; objInfo.site = idx+1
	freeVars map[int32][]int32
	noProto  map[int32]bool // Fe iids of functions without a prototype (trace.NoPrototypeMarker)

	names     map[string]int32
	nameStr   []string
	nameCache [nameCacheSize]nameCacheEntry
	siteCache [siteCacheSize]siteCacheEntry

	lastLoc   Loc
	lastWhere *Location

	objs       objTable
	g          graph
	closureCtx map[int32]*Context

	global   *Context
	ctxStack []*Context
	cands    []candSet
	queue    []queueEntry
	rets     []int32

	// scratch
	stack  []nodeKey
	order  []int32
	marks  []int32
	unrefs []int32

	err error
}

// NewEngine returns an Engine that reports to l (which may be nil).
func NewEngine(opts Options, l Listener) *Engine {
	if l == nil {
		l = NopListener{}
	}
	e := &Engine{
		opts:       opts,
		limit:      DefaultCycleQueueLimit,
		l:          l,
		curSID:     -1,
		src:        newSourceMap(),
		freeVars:   make(map[int32][]int32),
		noProto:    make(map[int32]bool),
		names:      make(map[string]int32),
		closureCtx: make(map[int32]*Context),
		index:      -1,
	}
	if opts.CycleQueueLimit > 0 {
		e.limit = opts.CycleQueueLimit
	}
	for _, n := range fixedNames {
		e.intern(n)
	}
	for _, l := range []Loc{LocEndOfProgram, LocUnknown, LocInitialDOM, LocRemoveFromDOM} {
		e.sites = append(e.sites, e.src.get(l))
	}
	e.g.init()
	e.global = &Context{global: true, live: true}
	e.ctxStack = append(e.ctxStack, e.global)
	e.pushCands()
	e.ensureVertex(nodeKey{ctx: e.global})
	return e
}

const nameCacheSize = 1024

type nameCacheEntry struct {
	p  *byte
	n  int
	id int32
}

// intern returns the id of a name. The trace reader interns short strings,
// so a recurring name usually has the same backing bytes: a direct-mapped
// cache keyed by the string's data pointer avoids hashing it.
func (e *Engine) intern(s string) int32 {
	p := unsafe.StringData(s)
	h := (uintptr(unsafe.Pointer(p)) >> 3) ^ uintptr(len(s))
	c := &e.nameCache[h%nameCacheSize]
	if c.p == p && c.n == len(s) && p != nil {
		return c.id
	}
	id, ok := e.names[s]
	if !ok {
		id = int32(len(e.nameStr))
		e.names[s] = id
		e.nameStr = append(e.nameStr, s)
	}
	*c = nameCacheEntry{p, len(s), id}
	return id
}

// where resolves a report location, caching the last one (a flush reports
// many objects at the same location).
func (e *Engine) where(l Loc) *Location {
	if l == e.lastLoc && e.lastWhere != nil {
		return e.lastWhere
	}
	w := e.src.get(l)
	e.lastLoc, e.lastWhere = l, w
	return w
}

// Analyze runs a new Engine over the binary trace read from r and reports
// to l. Malformed input yields an error that wraps a *trace.FormatError
// (byte offset and entry index of the entry at fault).
func Analyze(r io.Reader, opts Options, l Listener) error {
	return NewEngine(opts, l).Run(trace.NewReader(r))
}

// Run processes every entry of r, then ends the execution (the final
// collection and the End event). It returns the first error: a decoding
// error from r, or a *trace.FormatError for an entry MemInsight's engine
// would reject (the Java engine aborts with an assertion or exception on
// those).
func (e *Engine) Run(r *trace.Reader) error {
	if e.ended {
		return errors.New("lifetime: engine already ended")
	}
	for {
		en, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("lifetime: %w", err)
		}
		e.index, e.offset = r.Index(), r.Offset()
		if en.Kind.IsMeta() {
			// The Java timer has already ticked past the previous
			// counted entry.
			e.now = r.Counted()
		} else {
			e.now = r.Time()
		}
		e.objs.maybeSweep()
		if e.held {
			// The flush of a return statement's argument comes before
			// its RETURN (the return value is computed, then returned):
			// the object it returns is protected at that flush too, so
			// that a fresh object (a closure, a literal with children)
			// is not reclaimed with its edges before the caller gets it.
			if en.Kind == trace.Return {
				if err := e.step(en); err != nil {
					return err
				}
				e.releaseHeld()
				continue
			}
			e.releaseHeld()
		}
		if err := e.step(en); err != nil {
			return err
		}
		if e.atOffset != nil && e.offset >= e.nextAt && !e.held {
			e.nextAt = e.atOffset(e)
		}
	}
	if e.held {
		e.releaseHeld()
	}
	e.index, e.offset = r.Index()+1, r.End()
	e.now = r.Counted() - 1
	if b, ok := e.l.(BeforeEnder); ok {
		b.BeforeEnd(e)
	}
	return e.finish()
}

// AtOffsets has f called between two entries once the trace's byte offset
// reaches at, and then again at each offset f returns (math.MaxInt64:
// never again). The heap is consistent then (no return value held
// between its flush and its RETURN), so f may ask for Retainers.
func (e *Engine) AtOffsets(at int64, f func(e *Engine) (next int64)) {
	e.nextAt, e.atOffset = at, f
}

// Index returns the index of the entry being processed (the number of
// entries after the last one while the execution ends).
func (e *Engine) Index() int64 { return e.index }

// Offset returns the byte offset of the entry being processed.
func (e *Engine) Offset() int64 { return e.offset }

// Now returns the current logical time.
func (e *Engine) Now() int64 { return e.now }

// Location resolves a source-location id, nil if the trace has not mapped
// it (yet).
func (e *Engine) Location(l Loc) *Location { return e.src.get(l) }

// AllocSite returns the current allocation site of an object, nil if none.
func (e *Engine) AllocSite(id int32) *Location {
	if s := e.objs.site(id); s > 0 {
		return e.sites[s-1]
	}
	return nil
}

// RefCount returns the object's reference count (its in-degree in the
// heap graph; 0 if it is not in the graph).
func (e *Engine) RefCount(id int32) int { return int(e.rcOf(objKey(id))) }

func (e *Engine) fail(format string, args ...any) error {
	return &trace.FormatError{Offset: e.offset, Index: e.index, Msg: "lifetime: " + fmt.Sprintf(format, args...)}
}

// --- node helpers ---

func (e *Engine) slotOf(k nodeKey) int32 {
	if k.ctx != nil {
		return k.ctx.slot - 1
	}
	return e.objs.peek(k.id).slot - 1
}

func (e *Engine) rcOf(k nodeKey) int32 {
	if s := e.slotOf(k); s >= 0 {
		return e.g.verts[s].rc
	}
	return 0
}

func (e *Engine) ensureVertex(k nodeKey) int32 {
	if k.ctx != nil {
		if k.ctx.slot == 0 {
			k.ctx.slot = e.g.newVertex(k.ctx, -1) + 1
		}
		return k.ctx.slot - 1
	}
	o := e.objs.hot(k.id)
	if o.slot == 0 {
		o.slot = e.g.newVertex(nil, k.id) + 1
	}
	return o.slot - 1
}

func (e *Engine) keyOfSlot(s int32) nodeKey {
	v := &e.g.verts[s]
	if v.ctx != nil {
		return nodeKey{ctx: v.ctx}
	}
	return nodeKey{id: v.id}
}

func (e *Engine) removeVertex(s int32) {
	v := &e.g.verts[s]
	if v.ctx != nil {
		v.ctx.slot = 0
	} else {
		e.objs.hot(v.id).slot = 0
	}
	e.g.removeVertex(s)
}

func (e *Engine) candPtr(k nodeKey) *int32 {
	if k.ctx != nil {
		return &k.ctx.cand
	}
	return &e.objs.hot(k.id).cand
}

func (e *Engine) qposPtr(k nodeKey) *int32 {
	if k.ctx != nil {
		return &k.ctx.qpos
	}
	return &e.objs.hot(k.id).qpos
}

func (e *Engine) isCand(k nodeKey) bool {
	if k.ctx != nil {
		return k.ctx.cand != 0
	}
	return e.objs.peek(k.id).cand != 0
}

func (e *Engine) qposOf(k nodeKey) int32 {
	if k.ctx != nil {
		return k.ctx.qpos
	}
	return e.objs.peek(k.id).qpos
}

func (e *Engine) inRet(id int32) bool {
	return len(e.rets) > 0 && e.objs.peek(id).ret
}

// --- candidate sets ---

func (e *Engine) pushCands() {
	n := len(e.cands)
	if n < cap(e.cands) {
		e.cands = e.cands[:n+1]
		e.cands[n].items = e.cands[n].items[:0]
		e.cands[n].head = 0
	} else {
		e.cands = append(e.cands, candSet{})
	}
}

// popCands removes the top candidate set and detaches its remaining
// members, which are returned (valid until the next push).
func (e *Engine) popCands() []candItem {
	n := len(e.cands) - 1
	s := &e.cands[n]
	rest := s.items[s.head:]
	for i := len(rest) - 1; i >= 0; i-- {
		*e.candPtr(rest[i].key) = rest[i].prev
	}
	e.cands = e.cands[:n]
	return rest
}

// addCand adds a node to the top candidate set (objects 0 and 1 never).
func (e *Engine) addCand(k nodeKey) {
	if k.ctx == nil && (k.id == 0 || k.id == 1) {
		return
	}
	n := len(e.cands)
	if n == 0 {
		return
	}
	e.addCandAt(e.candPtr(k), k)
}

// addCandAt is addCand with the node's cand field at hand.
func (e *Engine) addCandAt(p *int32, k nodeKey) {
	n := len(e.cands)
	if n == 0 || *p == int32(n) {
		return
	}
	s := &e.cands[n-1]
	s.items = append(s.items, candItem{key: k, prev: *p})
	*p = int32(n)
}

func (e *Engine) handleValue(id int32) {
	if id == 0 || id == 1 {
		return
	}
	k := objKey(id)
	if e.rcOf(k) == 0 {
		e.addCand(k)
	}
}

// --- cycle queue ---

func (e *Engine) enqueue(k nodeKey, loc Loc, t int64) {
	e.enqueueAt(e.qposPtr(k), k, loc, t)
}

// enqueueAt is enqueue with the node's queue-position field at hand.
func (e *Engine) enqueueAt(p *int32, k nodeKey, loc Loc, t int64) {
	if *p != 0 {
		q := &e.queue[*p-1]
		q.loc, q.time = loc, t
		return
	}
	e.queue = append(e.queue, queueEntry{key: k, loc: loc, time: t})
	*p = int32(len(e.queue))
}

// --- reference operations ---

// decRef removes edge ei, whose target is the node at slot to, and then
// queues or stamps the target.
func (e *Engine) decRef(ei int32, loc Loc) {
	to := e.g.edges[ei].to
	e.g.removeEdge(ei)
	e.decRefTarget(to, loc)
}

func (e *Engine) decRefTarget(to int32, loc Loc) {
	k := e.keyOfSlot(to)
	if e.g.verts[to].rc > 0 {
		e.enqueue(k, loc, e.now)
	} else {
		e.addCand(k)
	}
}

// addRef sets the named edge (from, name) to point to object `to` (0 =
// delete), releasing the old target.
func (e *Engine) addRef(from nodeKey, name int32, to int32, loc Loc) {
	fs := e.ensureVertex(from)
	ts := e.ensureVertex(objKey(to))
	ei := e.g.findNamed(fs, name)
	switch {
	case ei < 0:
		if to != 0 {
			e.g.addEdge(fs, ts, name, false)
		}
	case to == 0:
		e.decRef(ei, loc)
	default:
		// Replace the target: the same as decRef then addEdge, without
		// the index updates.
		old := e.g.unlinkNamed(ei)
		e.decRefTarget(old, loc)
		e.g.relinkNamed(ei, ts)
	}
}

func (e *Engine) report(id int32, loc Loc, t int64, slot int32) {
	if id == -1 {
		return
	}
	pv := e.objs.pv(id)
	if pv&pvIgnored != 0 {
		return
	}
	u := Unreachability{ID: id, Time: t, Loc: loc, Where: e.where(loc)}
	if s := pv & pvSiteMask; s > 0 {
		u.AllocSite = e.sites[s-1]
	}
	if slot >= 0 {
		u.OutDegree = int(e.g.verts[slot].outN)
	}
	e.l.Unreachable(u)
}

// --- flushing ---

// releaseHeld performs the held TOP_LEVEL_FLUSH at its own time.
func (e *Engine) releaseHeld() {
	e.held = false
	now := e.now
	e.now = e.heldTime
	e.flush(e.heldLoc)
	e.now = now
}

// flush processes the top candidate set.
func (e *Engine) flush(loc Loc) {
	s := &e.cands[len(e.cands)-1]
	for s.head < len(s.items) {
		it := s.items[s.head]
		s.head++
		if it.key.ctx != nil {
			it.key.ctx.cand = it.prev
			e.flushOne(it.key, loc)
		} else {
			// flushOne for an object, with one lookup of its state.
			h := e.objs.hot(it.key.id)
			h.cand = it.prev
			if it.prev == 0 && !(len(e.rets) > 0 && h.ret) {
				if h.slot == 0 || e.g.verts[h.slot-1].rc == 0 {
					e.reclaim(it.key, loc)
				} else {
					e.enqueueAt(&h.qpos, it.key, loc, e.now)
				}
			}
		}
		s = &e.cands[len(e.cands)-1]
	}
	s.items = s.items[:0]
	s.head = 0
	if len(e.queue) > e.limit && !e.noCycle {
		e.collect(collectRegular)
	}
}

func (e *Engine) flushOne(k nodeKey, loc Loc) {
	if k.ctx != nil && k.ctx.live || e.isCand(k) {
		return
	}
	if k.ctx == nil && e.inRet(k.id) {
		return
	}
	if e.rcOf(k) == 0 {
		e.reclaim(k, loc)
	} else {
		e.enqueue(k, loc, e.now)
	}
}

// reclaim frees a node whose reference count is 0 and everything that dies
// with it (MemInsight's decrementReachable).
func (e *Engine) reclaim(o nodeKey, loc Loc) {
	st := append(e.stack[:0], o)
	for len(st) > 0 {
		s := st[len(st)-1]
		st = st[:len(st)-1]
		id := s.id
		var slot int32
		if s.ctx != nil {
			if s.ctx.cand != 0 || s.ctx.live {
				continue
			}
			id = -1
			if len(e.rets) > 0 && e.objs.peek(id).ret {
				continue
			}
			slot = s.ctx.slot - 1
		} else {
			h := e.objs.peek(id)
			if h.cand != 0 || len(e.rets) > 0 && h.ret {
				continue
			}
			slot = h.slot - 1
		}
		if slot < 0 || e.g.verts[slot].rc == 0 {
			e.report(id, loc, e.now, slot)
			if slot >= 0 {
				for _, ei := range e.g.verts[slot].out {
					if ei >= 0 {
						st = append(st, e.keyOfSlot(e.g.edges[ei].to))
					}
				}
				e.removeVertex(slot)
			}
		} else {
			e.enqueue(s, loc, e.now)
		}
	}
	e.stack = st[:0]
}

// --- cycle collection ---

func (e *Engine) collect(kind collectKind) {
	// 1. prune live contexts and nodes with no references.
	j := 0
	for _, q := range e.queue {
		p := e.qposPtr(q.key)
		if q.key.ctx != nil && q.key.ctx.live || e.rcOf(q.key) == 0 {
			*p = 0
			continue
		}
		e.queue[j] = q
		j++
		*p = int32(j)
	}
	clear(e.queue[j:])
	e.queue = e.queue[:j]
	if kind == collectRegular && len(e.queue) < e.limit {
		return
	}
	// 2. roots: latest stamp first, ties in queue order.
	order := e.order[:0]
	for i := range e.queue {
		order = append(order, int32(i))
	}
	sort.SliceStable(order, func(a, b int) bool {
		return e.queue[order[a]].time > e.queue[order[b]].time
	})
	e.order = order
	g := &e.g
	g.epoch++
	if kind != collectEnd {
		e.markLive()
	}
	for _, i := range order {
		q := e.queue[i]
		s := e.slotOf(q.key)
		if s < 0 || g.verts[s].mark == g.epoch {
			continue
		}
		e.collectFrom(q)
	}
	g.epoch++
	for _, q := range e.queue {
		*e.qposPtr(q.key) = 0
	}
	clear(e.queue)
	e.queue = e.queue[:0]
}

// markLive marks everything reachable from the contexts on the stack.
func (e *Engine) markLive() {
	g := &e.g
	wl := e.marks[:0]
	for i := len(e.ctxStack) - 1; i >= 0; i-- {
		c := e.ctxStack[i]
		if c.slot == 0 {
			continue
		}
		wl = append(wl[:0], c.slot-1)
		for h := 0; h < len(wl); h++ {
			s := wl[h]
			v := &g.verts[s]
			if v.mark == g.epoch {
				continue
			}
			v.mark = g.epoch
			for _, ei := range v.out {
				if ei >= 0 {
					if t := g.edges[ei].to; g.verts[t].mark != g.epoch {
						wl = append(wl, t)
					}
				}
			}
		}
	}
	e.marks = wl[:0]
}

// collectFrom reports and removes everything reachable from an unmarked
// queued root, with Merlin stamps.
func (e *Engine) collectFrom(root queueEntry) {
	g := &e.g
	st := append(e.stack[:0], root.key)
	for len(st) > 0 {
		cur := st[len(st)-1]
		st = st[:len(st)-1]
		t, loc := root.time, root.loc
		if p := e.qposOf(cur); p != 0 {
			q := &e.queue[p-1]
			if q.time > t {
				t = q.time
			}
			if t == q.time {
				loc = q.loc
			}
		}
		slot := e.slotOf(cur)
		if cur.ctx == nil {
			e.report(cur.id, loc, t, slot)
		}
		if slot >= 0 {
			v := &g.verts[slot]
			v.mark = g.epoch
			for _, ei := range v.out {
				if ei >= 0 {
					if ts := g.edges[ei].to; g.verts[ts].mark != g.epoch {
						st = append(st, e.keyOfSlot(ts))
					}
				}
			}
			e.removeVertex(slot)
		}
	}
	e.stack = st[:0]
}

// --- contexts ---

// contextSealed releases the variables of a sealed context that no
// closure captured, then queues the context itself.
func (e *Engine) contextSealed(c *Context, loc Loc) {
	if c.slot != 0 {
		s := c.slot - 1
		del := e.unrefs[:0]
		for _, ei := range e.g.verts[s].out {
			if ei >= 0 {
				ed := &e.g.edges[ei]
				if !ed.multi && c.vars.unreferenced(ed.name) {
					del = append(del, ei)
				}
			}
		}
		for _, ei := range del {
			e.decRef(ei, loc)
		}
		e.unrefs = del[:0]
	}
	c.vars.dropUnreferenced()
	k := nodeKey{ctx: c}
	if e.rcOf(k) == 0 {
		e.addCand(k)
	} else {
		e.enqueue(k, loc, e.now)
	}
}

// enterFunction makes the context of a call.
func (e *Engine) enterFunction(fun int32, fe Loc, callSite Loc) error {
	parent, ok := e.closureCtx[fun]
	if !ok {
		return e.fail("call of function %d, which was never created", fun)
	}
	where := e.src.get(fe)
	if where == nil {
		return e.fail("no source location for function-enter site %s", fe)
	}
	c := &Context{parent: parent, where: where, live: true}
	e.ctxStack = append(e.ctxStack, c)
	e.pushCands()
	cs := e.ensureVertex(nodeKey{ctx: c})
	if parent.slot == 0 {
		e.resurrect(parent)
		e.l.Resurrected(e.now, parent.String(), fun)
	}
	if e.g.findNamed(cs, nameParent) < 0 {
		e.g.addEdge(cs, parent.slot-1, nameParent, false)
	}
	e.l.FunctionEnter(CallEvent{Time: e.now, FunID: fun, Loc: fe, CallSite: callSite, Context: c})
	return nil
}

// resurrect re-adds a collected context and its missing ancestors.
func (e *Engine) resurrect(c *Context) {
	e.ensureVertex(nodeKey{ctx: c})
	for it := c; !it.global && it.parent != nil; it = it.parent {
		p := it.parent
		stop := p.slot != 0
		if !stop {
			e.ensureVertex(nodeKey{ctx: p})
		}
		if s := it.slot - 1; e.g.findNamed(s, nameParent) < 0 {
			e.g.addEdge(s, p.slot-1, nameParent, false)
		}
		if stop {
			break
		}
	}
}

func (e *Engine) exitFunction(loc Loc) error {
	if len(e.ctxStack) <= 1 {
		return e.fail("FUNCTION_EXIT without a matching call")
	}
	c := e.ctxStack[len(e.ctxStack)-1]
	e.ctxStack[len(e.ctxStack)-1] = nil
	e.ctxStack = e.ctxStack[:len(e.ctxStack)-1]
	c.seal()
	e.contextSealed(c, loc)
	e.flush(loc)
	// pop the callee's frame; return values move to the caller's set.
	e.popCands()
	for _, id := range e.rets {
		e.objs.hot(id).ret = false
	}
	if len(e.cands) > 0 {
		for _, id := range e.rets {
			e.addCand(objKey(id))
		}
	}
	e.rets = e.rets[:0]
	e.l.FunctionExit(CallEvent{Time: e.now, Loc: loc, Context: c})
	return nil
}

// --- entries ---

func (e *Engine) loc(iid int32) Loc { return Loc{e.curSID, iid} }

func (e *Engine) siteOf(l Loc) (int32, error) {
	where := e.src.get(l)
	if where == nil {
		return 0, e.fail("no source location for %s", l)
	}
	if int(where.idx) >= maxSites {
		return 0, e.fail("more than %d source locations", maxSites)
	}
	return where.idx + 1, nil
}

// parseSite parses a TOP_LEVEL_FLUSH or LAST_USE location. The trace
// reader interns short strings, so a recurring location usually has the
// same backing bytes: a direct-mapped cache keyed by the string's data
// pointer remembers the parsed Loc of each.
func (e *Engine) parseSite(s string) (Loc, error) {
	p := unsafe.StringData(s)
	h := (uintptr(unsafe.Pointer(p)) >> 3) ^ uintptr(len(s))
	c := &e.siteCache[h%siteCacheSize]
	if c.p == p && c.n == len(s) && p != nil {
		return c.loc, nil
	}
	sid, iid, ok := trace.ParseSite(s)
	if !ok {
		return Loc{}, e.fail("location %q is not \"sid:iid\"", s)
	}
	l := Loc{sid, iid}
	*c = siteCacheEntry{p, len(s), l}
	return l, nil
}

const siteCacheSize = 256

type siteCacheEntry struct {
	p   *byte
	n   int
	loc Loc
}

func (e *Engine) step(en *trace.Entry) error {
	switch en.Kind {
	case trace.Declare:
		v := en.Obj
		if v == 1 {
			v = 0
		}
		top := e.ctxStack[len(e.ctxStack)-1]
		name := e.intern(en.Name)
		top.vars.add(name)
		if name == nameArguments && !e.opts.KeepArguments {
			e.objs.setFlag(v, pvIgnored)
		}
		e.addRef(nodeKey{ctx: top}, name, v, e.loc(en.IID))
		// handleValue(v) is a no-op here and below: v is null, or addRef
		// has just given it a reference.

	case trace.CreateObj, trace.CreateDOMNode:
		id := en.Obj
		kind := KindObject
		pv := e.objs.pv(id)
		if en.Kind == trace.CreateDOMNode && pv&pvDOM == 0 {
			pv |= pvDOM
			e.objs.setPV(id, pv)
		}
		if pv&pvDOM != 0 {
			// MemInsight remembers every id ever created as a DOM node.
			kind = KindDOM
		}
		if id != 1 {
			site, err := e.siteOf(e.loc(en.IID))
			if err != nil {
				return err
			}
			// ensureVertex, setSite and handleValue with one lookup of
			// the object's state.
			h := e.objs.hot(id)
			if h.slot == 0 {
				h.slot = e.g.newVertex(nil, id) + 1
			}
			e.objs.setPV(id, pv&^pvSiteMask|uint32(site))
			if id != 0 && e.g.verts[h.slot-1].rc == 0 {
				e.addCandAt(&h.cand, objKey(id))
			}
		}
		e.l.Create(CreateEvent{ID: id, Kind: kind, Site: e.loc(en.IID), Time: e.now})

	case trace.CreateFun:
		id := en.Obj
		p := id + 1
		site, err := e.siteOf(e.loc(en.IID))
		if err != nil {
			return err
		}
		top := e.ctxStack[len(e.ctxStack)-1]
		if fv, ok := e.freeVars[en.FunIID]; ok && len(fv) > 0 {
			top.addRefs(fv)
		}
		e.closureCtx[id] = top
		// A function without a prototype object (trace.NoPrototypeMarker)
		// gets none; id+1 stays reserved.
		proto := !e.noProto[en.FunIID]
		fs := e.ensureVertex(objKey(id))
		if proto {
			e.ensureVertex(objKey(p))
		}
		if !top.global {
			if top.slot == 0 {
				return e.fail("no such vertex in graph: context %s", top)
			}
			if e.g.findNamed(fs, nameContext) < 0 {
				e.g.addEdge(fs, top.slot-1, nameContext, false)
			}
		}
		if proto {
			e.addRef(objKey(id), namePrototype, p, e.loc(en.IID))
		}
		e.objs.setSite(id, site)
		if proto {
			e.objs.setSite(p, site)
		}
		e.handleValue(id)
		if proto {
			e.handleValue(p)
		}
		e.l.Create(CreateEvent{ID: id, Kind: KindFunction, Site: e.loc(en.IID), Time: e.now})
		if proto {
			e.l.Create(CreateEvent{ID: p, Kind: KindPrototype, Site: e.loc(en.IID), Time: e.now})
		}

	case trace.PutField:
		if en.Base == 1 {
			e.write(en.IID, en.Name, en.Obj)
			break
		}
		v := en.Obj
		if v == 1 {
			v = 0
		}
		if e.objs.flags(en.Base)&pvIgnored == 0 {
			e.addRef(objKey(en.Base), e.intern(en.Name), v, e.loc(en.IID))
		} else {
			e.handleValue(v)
		}

	case trace.Write:
		e.write(en.IID, en.Name, en.Obj)

	case trace.Call:
		return e.enterFunction(en.Obj, Loc{en.SID, en.FunIID}, e.loc(en.IID))

	case trace.FunctionEnter:
		return e.enterFunction(en.Obj, e.loc(en.IID), LocUnknown)

	case trace.Return:
		if o := e.objs.hot(en.Obj); !o.ret {
			o.ret = true
			e.rets = append(e.rets, en.Obj)
		}

	case trace.FunctionExit:
		return e.exitFunction(e.loc(en.IID))

	case trace.TopLevelFlush:
		l, err := e.parseSite(en.Name)
		if err != nil {
			return err
		}
		if !e.opts.MemInsightReturns {
			e.held, e.heldLoc, e.heldTime = true, l, e.now
		} else {
			e.flush(l)
		}

	case trace.Debug:
		e.collect(collectForce)
		cs := e.loc(en.IID)
		e.l.Debug(DebugEvent{Time: e.now, CallSite: cs, Where: e.src.get(cs), ID: en.Obj,
			AllocSite: e.AllocSite(en.Obj), RefCount: int(e.rcOf(objKey(en.Obj)))})

	case trace.UpdateIID:
		site, err := e.siteOf(e.loc(en.IID))
		if err != nil {
			return err
		}
		e.objs.setSite(en.Obj, site)
		e.l.UpdateIID(en.Obj, e.loc(en.IID), e.now)

	case trace.AddDOMChild:
		if en.Base == 0 || en.Obj == 0 {
			return e.fail("ADD_DOM_CHILD with a null parent or child")
		}
		e.addChild(objKey(en.Base), nameDOMChild, en.Obj)
		e.l.AddDOMChild(en.Base, en.Obj, e.now)

	case trace.RemoveDOMChild:
		if en.Base == 0 || en.Obj == 0 {
			return e.fail("REMOVE_DOM_CHILD with a null parent or child")
		}
		// A page's node the engine has reclaimed (only the browser held
		// it, which the trace does not show: a node an event hands back)
		// may leave its parent later: nothing to remove. (MemInsight's
		// engine asserts.)
		if !e.reclaimedDOM(en.Base) && !e.reclaimedDOM(en.Obj) {
			if err := e.removeChild(objKey(en.Base), nameDOMChild, en.Obj, LocUnknown); err != nil {
				return err
			}
		}
		e.l.RemoveDOMChild(en.Base, en.Obj, e.now)

	case trace.AddToChildSet:
		if en.Obj == 1 {
			break
		}
		e.addChild(e.childSetParent(en.Base), e.intern(en.Name), en.Obj)

	case trace.RemoveFromChildSet:
		if en.Obj == 1 {
			break
		}
		return e.removeChild(e.childSetParent(en.Base), e.intern(en.Name), en.Obj, e.loc(en.IID))

	case trace.DOMRoot:
		e.l.DOMRoot(en.Obj, e.now)

	case trace.ScriptEnter:
		e.src.scripts[en.SID] = en.Name

	case trace.ScriptExit:

	case trace.LastUse:
		l, err := e.parseSite(en.Name)
		if err != nil {
			return err
		}
		e.l.LastUse(en.Obj, int64(en.UseTime), l)

	case trace.EndLastUse:
		e.l.EndLastUse()

	case trace.FreeVars:
		var set []int32
		names, no := noPrototype(en.Names)
		if no || e.noProto[en.IID] {
			e.noProto[en.IID] = no && !e.opts.MemInsightPrototypes
		}
		if !en.AnyVars {
			set = make([]int32, 0, len(names))
			for _, n := range names {
				set = append(set, e.intern(n))
			}
		}
		if set == nil {
			set = []int32{}
		}
		e.freeVars[en.IID] = set

	case trace.SourceMapping:
		l := e.loc(en.IID)
		if e.src.get(l) != nil {
			return e.fail("already have a mapping for SourceLocId %s", l)
		}
		file, ok := e.src.scripts[l.SID]
		if !ok {
			return e.fail("SOURCE_MAPPING for unknown script id %d", l.SID)
		}
		loc := newLocation(file, en.Range)
		e.src.put(l, loc)
		e.sites = append(e.sites, loc)

	case trace.UpdateCurrentScript:
		e.curSID = en.SID

	case trace.Unreachable:

	default:
		return e.fail("unknown entry type %d", uint8(en.Kind))
	}
	return nil
}

func (e *Engine) write(iid int32, nameStr string, v int32) {
	if v == 1 {
		v = 0
	}
	name := e.intern(nameStr)
	c := e.ctxStack[len(e.ctxStack)-1].resolve(name)
	e.addRef(nodeKey{ctx: c}, name, v, e.loc(iid))
}

func (e *Engine) childSetParent(p int32) nodeKey {
	if p == 1 {
		return nodeKey{ctx: e.global}
	}
	return objKey(p)
}

func (e *Engine) addChild(parent nodeKey, name int32, child int32) {
	ps := e.ensureVertex(parent)
	cs := e.ensureVertex(objKey(child))
	if e.g.findMulti(ps, name, cs) < 0 {
		e.g.addEdge(ps, cs, name, true)
	}
}

func (e *Engine) removeChild(parent nodeKey, name int32, child int32, loc Loc) error {
	ps := e.slotOf(parent)
	cs := e.slotOf(objKey(child))
	if ps < 0 || cs < 0 {
		return e.fail("removal of child %d from a child set of %s: a node is not in the graph", child, e.nodeName(parent))
	}
	if ei := e.g.findMulti(ps, name, cs); ei >= 0 {
		e.g.removeEdge(ei)
	}
	e.decRefTarget(cs, loc)
	return nil
}

// reclaimedDOM reports whether id was a DOM node the engine has reclaimed.
func (e *Engine) reclaimedDOM(id int32) bool {
	return e.slotOf(objKey(id)) < 0 && e.objs.pv(id)&pvDOM != 0
}

func (e *Engine) nodeName(k nodeKey) string {
	if k.ctx != nil {
		return k.ctx.String()
	}
	return strconv.Itoa(int(k.id))
}

// finish ends the execution (MemInsight's endExecution).
func (e *Engine) finish() error {
	e.ended = true
	g := e.global
	g.seal()
	e.contextSealed(g, LocEndOfProgram)
	e.noCycle = true
	for len(e.cands) > 0 {
		items := e.popCands()
		for _, it := range items {
			e.flushOne(it.key, LocEndOfProgram)
		}
	}
	e.collect(collectEnd)
	if s := e.objs.peek(0).slot; s != 0 {
		e.removeVertex(s - 1)
	}
	var rem []string
	if e.g.nVerts > 0 {
		type vs struct {
			seq  uint64
			name string
		}
		var list []vs
		for i := range e.g.verts {
			v := &e.g.verts[i]
			if !v.used {
				continue
			}
			n := strconv.Itoa(int(v.id))
			if v.ctx != nil {
				n = v.ctx.String()
			}
			list = append(list, vs{v.seq, n})
		}
		sort.Slice(list, func(a, b int) bool { return list[a].seq < list[b].seq })
		for _, x := range list {
			rem = append(rem, x.name)
		}
	}
	e.l.End(EndEvent{Time: e.now, Remaining: rem})
	return nil
}
