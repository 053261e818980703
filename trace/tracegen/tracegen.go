// Package tracegen writes synthetic traces of any size that obey every rule
// of trace.Check and describe a consistent heap: an object is referenced
// only while it is reachable, so a lifetime engine fed the trace sees the
// same deaths the generator intended. It is for benchmarks and tests.
//
// The simulated program keeps a fixed number of global slots. Each step
// either allocates an object (into a slot, killing what the slot held, or
// into a field of a slot's object), creates a function, calls a function
// (which allocates and returns objects, with the constructor protocol for
// some calls), writes fields, or ends a statement. Last uses are recorded
// and flushed in blocks every 10000 ticks as MemInsight does. The
// generator's memory is bounded by the number of slots, not by the size of
// the trace.
package tracegen

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/memtrace/memtrace/trace"
)

// Options shape a synthetic trace.
type Options struct {
	// Bytes is the approximate size to generate; the trace ends cleanly at
	// the first statement boundary past it.
	Bytes int64
	// Seed makes the trace reproducible.
	Seed uint64
	// Slots is the number of global variables holding objects (default 256).
	Slots int
	// Children is the maximum number of objects hanging off each slot's
	// object (default 8).
	Children int
}

const (
	sid        = 1
	seIID      = 9 // script enter
	srIID      = 17
	flushIID   = 25
	firstSite  = 33 // allocation and statement sites: firstSite + 8k
	numSites   = 64
	numFuncs   = 16
	lastUseGap = 10000
)

type slot struct {
	obj      int32   // 0: empty
	children []int32 // objects held by fields c0..cN of obj
}

type gen struct {
	w       *trace.Writer
	rng     *rand.Rand
	opts    Options
	maxID   int32
	time    int32 // time of the last counted entry
	lastLU  int32 // time of the last last-use flush
	slots   []slot
	funcs   []int32 // function ids
	funSite []int32 // their function-enter iids
	// pending last uses, by object id; bounded because only reachable
	// objects are used and dead ones are dropped at flush time.
	pending  map[int32]int32
	e        trace.Entry
	names    []string
	propName []string
	err      error
}

// Generate writes a synthetic trace to w.
func Generate(w io.Writer, opts Options) error {
	if opts.Slots <= 0 {
		opts.Slots = 256
	}
	if opts.Children <= 0 {
		opts.Children = 8
	}
	g := &gen{
		w:       trace.NewWriter(w),
		rng:     rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15)),
		opts:    opts,
		time:    -1,
		slots:   make([]slot, opts.Slots),
		pending: make(map[int32]int32),
	}
	for i := range g.slots {
		g.names = append(g.names, fmt.Sprintf("g%d", i))
	}
	for i := 0; i < opts.Children; i++ {
		g.propName = append(g.propName, fmt.Sprintf("c%d", i))
	}
	g.prologue()
	for g.err == nil && g.w.Written() < opts.Bytes {
		g.statement()
	}
	g.flushLastUses()
	g.emit(trace.Entry{Kind: trace.ScriptExit, IID: srIID})
	if g.err != nil {
		return g.err
	}
	return g.w.Flush()
}

func (g *gen) emit(e trace.Entry) {
	if g.err != nil {
		return
	}
	if !e.Kind.IsMeta() {
		if e.Kind != trace.TopLevelFlush && g.time-g.lastLU >= lastUseGap {
			g.flushLastUses()
		}
		g.time++
	}
	g.e = e
	g.err = g.w.Write(&g.e)
}

func (g *gen) site(k int) int32 { return firstSite + 8*int32(k%numSites) }

func (g *gen) loc(iid int32) string { return fmt.Sprintf("%d:%d", sid, iid) }

func (g *gen) prologue() {
	g.emit(trace.Entry{Kind: trace.UpdateCurrentScript, SID: 0})
	g.emit(trace.Entry{Kind: trace.CreateObj, IID: -1, Obj: 1})
	g.maxID = 1
	g.emit(trace.Entry{Kind: trace.UpdateCurrentScript, SID: sid})
	g.emit(trace.Entry{Kind: trace.ScriptEnter, IID: seIID, SID: sid, Name: "synthetic/program.js"})
	g.emit(trace.Entry{Kind: trace.SourceMapping, IID: seIID, Range: [4]int32{1, 1, 1000, 1}})
	g.emit(trace.Entry{Kind: trace.SourceMapping, IID: srIID, Range: [4]int32{1, 1, 1000, 1}})
	g.emit(trace.Entry{Kind: trace.SourceMapping, IID: flushIID, Range: [4]int32{2, 1, 2, 10}})
	for k := 0; k < numSites; k++ {
		line := int32(10 + k)
		g.emit(trace.Entry{Kind: trace.SourceMapping, IID: g.site(k), Range: [4]int32{line, 5, line, 30}})
	}
	for f := 0; f < numFuncs; f++ {
		fe := g.site(f) + 2 // function-enter and -exit iids share the site's range
		line := int32(200 + f)
		g.emit(trace.Entry{Kind: trace.SourceMapping, IID: fe, Range: [4]int32{line, 1, line + 5, 2}})
		g.emit(trace.Entry{Kind: trace.SourceMapping, IID: fe + 2, Range: [4]int32{line, 1, line + 5, 2}})
		g.emit(trace.Entry{Kind: trace.FreeVars, IID: fe, Names: []string{"g0", "g1"}})
	}
	for i := range g.slots {
		g.emit(trace.Entry{Kind: trace.Declare, IID: seIID, Name: g.names[i], Obj: 0})
	}
	for f := 0; f < numFuncs; f++ {
		id := g.newID(2)
		fe := g.site(f) + 2
		g.emit(trace.Entry{Kind: trace.CreateFun, IID: g.site(f), FunIID: fe, Obj: id})
		g.emit(trace.Entry{Kind: trace.Declare, IID: seIID, Name: fmt.Sprintf("f%d", f), Obj: id})
		g.funcs = append(g.funcs, id)
		g.funSite = append(g.funSite, fe)
	}
}

func (g *gen) newID(n int32) int32 {
	id := g.maxID + 1
	g.maxID += n
	return id
}

func (g *gen) use(id int32) {
	if id > 1 {
		g.pending[id] = g.time
	}
}

// flushLastUses writes the pending last uses in ascending id order, then
// END_LAST_USE, as MemInsight's LastUseManager does.
func (g *gen) flushLastUses() {
	g.lastLU = g.time
	if len(g.pending) > 0 {
		ids := make([]int32, 0, len(g.pending))
		for id := range g.pending {
			ids = append(ids, id)
		}
		sortInt32(ids)
		for _, id := range ids {
			g.e = trace.Entry{Kind: trace.LastUse, Obj: id, UseTime: g.pending[id], Name: g.loc(flushIID)}
			if g.err == nil {
				g.err = g.w.Write(&g.e)
			}
		}
		clear(g.pending)
	}
	g.e = trace.Entry{Kind: trace.EndLastUse}
	if g.err == nil {
		g.err = g.w.Write(&g.e)
	}
}

func sortInt32(a []int32) {
	// Insertion sort for small blocks, otherwise a simple radix-free quicksort.
	if len(a) < 2 {
		return
	}
	pivot := a[len(a)/2]
	i, j := 0, len(a)-1
	for i <= j {
		for a[i] < pivot {
			i++
		}
		for a[j] > pivot {
			j--
		}
		if i <= j {
			a[i], a[j] = a[j], a[i]
			i++
			j--
		}
	}
	sortInt32(a[:j+1])
	sortInt32(a[i:])
}

// statement runs one top-level statement and ends it with a flush.
func (g *gen) statement() {
	k := g.rng.IntN(numSites)
	site := g.site(k)
	switch r := g.rng.IntN(100); {
	case r < 35: // g[i] = {...}: the old object and its children die
		i := g.rng.IntN(len(g.slots))
		id := g.newID(1)
		g.emit(trace.Entry{Kind: trace.CreateObj, IID: site, Obj: id})
		g.emit(trace.Entry{Kind: trace.Write, IID: site, Name: g.names[i], Obj: id})
		for _, c := range g.slots[i].children {
			delete(g.pending, c)
		}
		delete(g.pending, g.slots[i].obj)
		g.slots[i] = slot{obj: id, children: g.slots[i].children[:0]}
	case r < 60: // g[i].cN = {...}
		i := g.rng.IntN(len(g.slots))
		s := &g.slots[i]
		if s.obj == 0 {
			return
		}
		n := g.rng.IntN(g.opts.Children)
		id := g.newID(1)
		g.emit(trace.Entry{Kind: trace.CreateObj, IID: site, Obj: id})
		g.emit(trace.Entry{Kind: trace.PutField, IID: site, Base: s.obj, Name: g.propName[n], Obj: id})
		g.use(s.obj)
		if n < len(s.children) {
			delete(g.pending, s.children[n])
			s.children[n] = id
		} else {
			s.children = append(s.children, id)
		}
	case r < 70: // g[i].x = primitive; read g[j].cN
		i, j := g.rng.IntN(len(g.slots)), g.rng.IntN(len(g.slots))
		if s := &g.slots[i]; s.obj != 0 {
			g.emit(trace.Entry{Kind: trace.PutField, IID: site, Base: s.obj, Name: "x", Obj: 0})
			g.use(s.obj)
		}
		if s := &g.slots[j]; len(s.children) > 0 {
			g.use(s.children[g.rng.IntN(len(s.children))])
		}
	case r < 95: // g[i] = f(g[j])
		g.call(site, 0)
	default: // g[i] = g[j]: share an object between two slots is avoided to
		// keep ownership simple; write a primitive instead
		i := g.rng.IntN(len(g.slots))
		g.emit(trace.Entry{Kind: trace.Write, IID: site, Name: g.names[i], Obj: 0})
		for _, c := range g.slots[i].children {
			delete(g.pending, c)
		}
		delete(g.pending, g.slots[i].obj)
		g.slots[i] = slot{children: g.slots[i].children[:0]}
	}
	g.emit(trace.Entry{Kind: trace.TopLevelFlush, Name: g.loc(site)})
}

// call invokes a function that allocates a few temporaries and returns a
// new object, stored in a slot by the caller.
func (g *gen) call(site int32, depth int) {
	f := g.rng.IntN(len(g.funcs))
	fid, fe := g.funcs[f], g.funSite[f]
	isNew := g.rng.IntN(4) == 0
	g.emit(trace.Entry{Kind: trace.Call, IID: site, Obj: fid, FunIID: fe, SID: sid})
	g.use(fid)
	var this int32
	if isNew {
		this = g.newID(1)
		g.emit(trace.Entry{Kind: trace.CreateObj, IID: fe, Obj: this})
		g.emit(trace.Entry{Kind: trace.Declare, IID: fe, Name: "this", Obj: this})
	}
	g.emit(trace.Entry{Kind: trace.Declare, IID: fe, Name: "a", Obj: 0})
	g.emit(trace.Entry{Kind: trace.Declare, IID: fe, Name: "t", Obj: 0})
	// Temporaries: allocated, linked, dropped.
	for n := g.rng.IntN(4); n > 0; n-- {
		tmp := g.newID(1)
		g.emit(trace.Entry{Kind: trace.CreateObj, IID: g.site(int(fe)), Obj: tmp})
		g.emit(trace.Entry{Kind: trace.Write, IID: fe, Name: "t", Obj: tmp})
		if this != 0 {
			g.emit(trace.Entry{Kind: trace.PutField, IID: fe, Base: this, Name: "tmp", Obj: tmp})
			g.emit(trace.Entry{Kind: trace.PutField, IID: fe, Base: this, Name: "tmp", Obj: 0})
		}
	}
	if depth < 2 && g.rng.IntN(3) == 0 {
		g.call(fe, depth+1)
	}
	var ret int32
	if this != 0 {
		ret = this
	} else {
		ret = g.newID(1)
		g.emit(trace.Entry{Kind: trace.CreateObj, IID: fe, Obj: ret})
	}
	g.emit(trace.Entry{Kind: trace.Return, Obj: ret})
	g.emit(trace.Entry{Kind: trace.FunctionExit, IID: fe + 2})
	if isNew {
		g.emit(trace.Entry{Kind: trace.UpdateIID, Obj: this, IID: site})
		g.emit(trace.Entry{Kind: trace.PutField, IID: site, Base: this, Name: "__proto__", Obj: fid + 1})
	}
	// The caller stores the result: in a slot at top level, otherwise in
	// the enclosing function's local t.
	if depth == 0 {
		i := g.rng.IntN(len(g.slots))
		g.emit(trace.Entry{Kind: trace.Write, IID: site, Name: g.names[i], Obj: ret})
		for _, c := range g.slots[i].children {
			delete(g.pending, c)
		}
		delete(g.pending, g.slots[i].obj)
		g.slots[i] = slot{obj: ret, children: g.slots[i].children[:0]}
	} else {
		g.emit(trace.Entry{Kind: trace.Write, IID: site, Name: "t", Obj: ret})
	}
}
