package lifetime

import (
	"bytes"
	"fmt"
	"math/rand"
	"strconv"
	"testing"

	"github.com/memtrace/memtrace/trace"
	"github.com/stretchr/testify/require"
)

// gen builds random but well-formed traces: a program of statements over a
// few global and local names, with object and closure creation, field
// writes, calls with parameters and return values, DOM child sets, window
// listener sets and DEBUG entries. It consults the model for the current
// values of names, so every operation is on an object the program can
// still reach.
type gen struct {
	rng     *rand.Rand
	m       *model
	w       *trace.Writer
	buf     bytes.Buffer
	entries []trace.Entry
	nextID  int32
	nextIID int32
	funcs   map[int32]int32 // function id -> function-enter iid
	depth   int
	calls   int

	noReturn bool
}

func newGen(seed int64) *gen {
	g := &gen{rng: rand.New(rand.NewSource(seed)), m: newModel(), nextID: 2, nextIID: 1, funcs: map[int32]int32{}}
	g.w = trace.NewWriter(&g.buf)
	return g
}

func (g *gen) emit(e trace.Entry) {
	if err := g.w.Write(&e); err != nil {
		panic(err)
	}
	e.Names = append([]string(nil), e.Names...)
	g.entries = append(g.entries, e)
	g.m.apply(&e)
}

func (g *gen) iid() int32 {
	iid := g.nextIID
	g.nextIID++
	line := iid
	g.emit(trace.Entry{Kind: trace.SourceMapping, IID: iid, Range: [4]int32{line, 1, line, 10}})
	return iid
}

var (
	globalNames = []string{"g0", "g1", "g2", "g3", "g4"}
	localNames  = []string{"a", "b", "c", "g1"}
	fieldNames  = []string{"f", "g", "h"}
)

func (g *gen) pick(s []string) string { return s[g.rng.Intn(len(s))] }

// name picks a name visible from the current scope.
func (g *gen) name() string {
	if g.depth > 0 && g.rng.Intn(2) == 0 {
		return g.pick(localNames)
	}
	return g.pick(globalNames)
}

// value picks the value of some visible name, or a field of one.
func (g *gen) value() int32 {
	v := g.m.lookup(g.name())
	if v != 0 && g.rng.Intn(4) == 0 {
		if o := g.m.objs[v]; o != nil {
			if f, ok := o.fields[g.pick(fieldNames)]; ok {
				return f
			}
		}
	}
	return v
}

func (g *gen) assign(v int32) {
	n := g.name()
	if g.depth > 0 && g.rng.Intn(3) == 0 {
		g.emit(trace.Entry{Kind: trace.Declare, IID: g.iid(), Name: g.pick(localNames), Obj: v})
		return
	}
	g.emit(trace.Entry{Kind: trace.Write, IID: g.iid(), Name: n, Obj: v})
}

func (g *gen) flush() {
	g.emit(trace.Entry{Kind: trace.TopLevelFlush, Name: "1:" + strconv.Itoa(int(g.iid()))})
}

func (g *gen) statement() {
	switch r := g.rng.Intn(20); {
	case r < 5: // x = {}
		id := g.nextID
		g.nextID++
		kind := trace.CreateObj
		if g.rng.Intn(5) == 0 {
			kind = trace.CreateDOMNode
		}
		g.emit(trace.Entry{Kind: kind, IID: g.iid(), Obj: id})
		if g.rng.Intn(3) == 0 {
			// x = {f: y}
			if v := g.value(); v != 0 {
				g.emit(trace.Entry{Kind: trace.PutField, IID: g.iid(), Base: id, Name: g.pick(fieldNames), Obj: v})
			}
		}
		g.assign(id)
	case r < 7: // x = y
		g.assign(g.value())
	case r < 8: // x = null
		g.assign(0)
	case r < 12: // x.f = y
		if b := g.value(); b != 0 {
			v := g.value()
			if g.rng.Intn(4) == 0 {
				v = 0
			}
			g.emit(trace.Entry{Kind: trace.PutField, IID: g.iid(), Base: b, Name: g.pick(fieldNames), Obj: v})
		}
	case r < 14: // x = function () {...}
		id := g.nextID
		g.nextID += 2
		fe := g.iid()
		var fv []string
		for _, n := range append(append([]string{}, globalNames...), localNames...) {
			if g.rng.Intn(3) == 0 {
				fv = append(fv, n)
			}
		}
		if fv == nil {
			fv = []string{}
		}
		g.emit(trace.Entry{Kind: trace.FreeVars, IID: fe, Names: fv})
		g.emit(trace.Entry{Kind: trace.CreateFun, IID: g.iid(), FunIID: fe, Obj: id})
		g.funcs[id] = fe
		g.assign(id)
	case r < 17: // x = f(y)
		f := g.m.lookup(g.name())
		fe, ok := g.funcs[f]
		if !ok || g.depth >= 3 || g.calls > 200 {
			return
		}
		g.call(f, fe)
	case r < 19: // DOM child sets
		p, c := g.value(), g.value()
		if p == 0 || c == 0 {
			return
		}
		switch g.rng.Intn(4) {
		case 0:
			g.emit(trace.Entry{Kind: trace.AddDOMChild, Base: p, Obj: c})
		case 1:
			if g.m.objs[p] != nil && g.m.objs[p].children["~dom-child~"][c] {
				g.emit(trace.Entry{Kind: trace.RemoveDOMChild, Base: p, Obj: c})
			}
		case 2:
			g.emit(trace.Entry{Kind: trace.AddToChildSet, IID: g.iid(), Base: 1, Name: "~event~click", Obj: c})
		case 3:
			if g.m.globalChildren()["~event~click"][c] {
				g.emit(trace.Entry{Kind: trace.RemoveFromChildSet, IID: g.iid(), Base: 1, Name: "~event~click", Obj: c})
			}
		}
	default: // x = x
		n := g.name()
		g.emit(trace.Entry{Kind: trace.Write, IID: g.iid(), Name: n, Obj: g.m.lookup(n)})
	}
}

func (g *gen) call(f, fe int32) {
	g.calls++
	arg := g.value()
	g.emit(trace.Entry{Kind: trace.Call, IID: g.iid(), Obj: f, FunIID: fe, SID: 1})
	g.depth++
	g.emit(trace.Entry{Kind: trace.Declare, IID: fe, Name: "this", Obj: 1})
	g.emit(trace.Entry{Kind: trace.Declare, IID: fe, Name: "a", Obj: arg})
	for _, n := range []string{"b", "c"} {
		g.emit(trace.Entry{Kind: trace.Declare, IID: fe, Name: n, Obj: 0})
	}
	for n := g.rng.Intn(6); n > 0; n-- {
		g.statement()
		g.flush()
	}
	var ret int32
	if !g.noReturn && g.rng.Intn(2) == 0 {
		ret = g.m.lookup(g.pick(localNames))
		if ret != 0 {
			g.emit(trace.Entry{Kind: trace.Return, Obj: ret})
		}
	}
	g.emit(trace.Entry{Kind: trace.FunctionExit, IID: g.iid()})
	g.depth--
	if ret != 0 {
		g.assign(ret)
	}
}

// program generates a whole trace.
func (g *gen) program(statements int) []byte {
	g.emit(trace.Entry{Kind: trace.UpdateCurrentScript, SID: 0})
	g.emit(trace.Entry{Kind: trace.CreateObj, IID: -1, Obj: 1})
	g.emit(trace.Entry{Kind: trace.ScriptEnter, IID: 1000000, SID: 1, Name: "test/gen.js"})
	g.emit(trace.Entry{Kind: trace.UpdateCurrentScript, SID: 1})
	for i := 0; i < statements; i++ {
		g.statement()
		g.flush()
		if g.rng.Intn(8) == 0 {
			if v := g.value(); v != 0 {
				g.emit(trace.Entry{Kind: trace.Debug, IID: g.iid(), Obj: v})
			}
		}
	}
	g.emit(trace.Entry{Kind: trace.ScriptExit, IID: g.iid()})
	if err := g.w.Flush(); err != nil {
		panic(err)
	}
	return g.buf.Bytes()
}

// recorder logs reports and DEBUG points in order.
type recorder struct {
	NopListener
	eng *Engine
	log []recEvent
	end int64
}

type recEvent struct {
	debug bool
	final bool // made while the execution ends
	id    int32
	time  int64
	loc   Loc
}

func (r *recorder) Unreachable(u Unreachability) {
	r.log = append(r.log, recEvent{id: u.ID, time: u.Time, loc: u.Loc, final: r.eng.ended})
}
func (r *recorder) Debug(d DebugEvent) { r.log = append(r.log, recEvent{debug: true, time: d.Time}) }
func (r *recorder) End(e EndEvent)     { r.end = e.Time }

// checkTrace runs the engine on a generated trace and checks every report
// against the model's mark-sweep reachability.
func checkTrace(t *testing.T, g *gen, opts Options) {
	t.Helper()
	data := g.buf.Bytes()
	rec := &recorder{}
	rec.eng = NewEngine(opts, rec)
	require.NoError(t, rec.eng.Run(trace.NewReader(bytes.NewReader(data))))

	// Replay the trace through a fresh model, keeping the reachable set
	// after every counted entry.
	m := newModel()
	var reach []map[int32]bool
	createdAt := map[int32]int64{}
	for i := range g.entries {
		e := &g.entries[i]
		m.apply(e)
		if !e.Kind.IsMeta() {
			for id := range m.created {
				if _, ok := createdAt[id]; !ok {
					createdAt[id] = int64(len(reach))
				}
			}
			reach = append(reach, m.reachable())
		}
	}
	created := m.created
	reported := map[int32]bool{}
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s\n%s", dumpEntries(g.entries), fmt.Sprintf(format, args...))
	}
	for _, ev := range rec.log {
		if ev.time < 0 || ev.time >= int64(len(reach)) {
			fail("event time %d out of range", ev.time)
		}
		if ev.debug {
			// At a DEBUG right after a top-level flush, the forced
			// collection has decided everything: unreachable objects are
			// reported, reachable ones are not.
			r := reach[ev.time]
			for id := range created {
				if createdAt[id] > ev.time {
					continue
				}
				if !r[id] && !reported[id] {
					fail("object %d is unreachable at DEBUG time %d but was not reported", id, ev.time)
				}
				if r[id] && reported[id] {
					fail("object %d is reachable at DEBUG time %d but was reported", id, ev.time)
				}
			}
			continue
		}
		if !created[ev.id] {
			fail("report of object %d, which was never created", ev.id)
		}
		if ev.final && ev.time == rec.end {
			// The end of the execution: GLOBAL is sealed, nothing is
			// reachable any more.
		} else if reach[ev.time][ev.id] {
			fail("object %d reported unreachable at time %d (%s) but reachable then", ev.id, ev.time, ev.loc)
		}
		reported[ev.id] = true
	}
	for id := range created {
		if !reported[id] {
			fail("object %d never reported", id)
		}
	}
}

func TestPropertyRandomTraces(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 50
	}
	for seed := int64(1); seed <= int64(n); seed++ {
		g := newGen(seed)
		g.program(20 + int(seed%60))
		t.Run(strconv.FormatInt(seed, 10), func(t *testing.T) { checkTrace(t, g, Options{}) })
		if t.Failed() {
			return
		}
	}
}

// With a tiny cycle-queue limit, flushes run regular cycle collections.
// MemInsight's regular collection does not protect return values, so the
// programs here return nothing.
func TestPropertyRegularCollections(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 30
	}
	for seed := int64(1); seed <= int64(n); seed++ {
		g := newGen(seed * 7919)
		g.noReturn = true
		g.program(20 + int(seed%60))
		t.Run(strconv.FormatInt(seed, 10), func(t *testing.T) { checkTrace(t, g, Options{CycleQueueLimit: 1 + int(seed%3)}) })
		if t.Failed() {
			return
		}
	}
}

// dumpEntries renders a trace in the text form with the time of each
// counted entry, for failure messages.
func dumpEntries(es []trace.Entry) string {
	var b bytes.Buffer
	t := 0
	for i := range es {
		e := &es[i]
		if e.Kind == trace.SourceMapping {
			continue
		}
		if e.Kind.IsMeta() {
			b.WriteString("      ")
		} else {
			fmt.Fprintf(&b, "t%-4d ", t)
			t++
		}
		b.Write(trace.AppendText(nil, e))
		b.WriteByte('\n')
	}
	return b.String()
}
