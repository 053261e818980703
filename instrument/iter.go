package instrument

import (
	"sort"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/instrument/scope"
	"github.com/memtrace/memtrace/trace"
)

// Per-iteration bindings (docs/instrumentation.md §7, "Per-iteration
// bindings"). JavaScript gives each iteration of a loop fresh let, const
// and class bindings (of its head and of the blocks in its body), and a
// closure created in an iteration keeps that iteration's. The model's
// contexts are per call, so a loop whose per-iteration bindings a closure
// captures becomes a synthetic scope: a synthetic function created when
// the loop statement starts (H.Il: CREATE_FUN), entered at each
// iteration's start (H.Ie: FUNCTION_ENTER, then the DECLAREs of the
// iteration's bindings) and exited however the iteration ends (H.Ix in a
// finally: FUNCTION_EXIT). One iid, mapped to the loop body, is its
// allocation site, its Fe iid and its exit site; its FREE_VARS start with
// the reserved name trace.IterationMarker (not an identifier, so no
// program declares it), then the names outside the loop that the closures
// created in it use.
//
//	{ const __mt$l = H.Il(j); for (…) { H.Ie(j, __mt$l); try { body } finally { H.Ix(j, __mt$l, __mt$f); } } }
//
// A loop of a generator or async function that suspends (in its head or
// its body) creates its synthetic function at each iteration instead, in
// the context running the loop then (H.Iy: CREATE_FUN and FUNCTION_ENTER),
// since a resumption runs the rest of the frame in a fresh context; H.Iz
// ends the iteration. A suspension inside iterations exits them with the
// frame (H.Ys), and the resumption (H.Y) enters them again: Y's arguments
// give the iteration's iid before the names of its bindings.
//
//	{ for (…) { H.Iy(j, __mt$f); try { body } finally { H.Iz(j, __mt$f); } } }

// iterLoop is a loop being rewritten as a synthetic scope.
type iterLoop struct {
	loop      js.Node
	fn        *scope.Func
	outer     int // hole at the statement's start (before its labels)
	body      int // hole at the body's start
	bodyEnd   int // hole at the body's end
	nsusp     int // suspensions of the function before the body
	nsuspLoop int // suspensions of the function before the statement
	j         int // the loop's iid, once allocated (0: not yet)
	bodySpan  js.Span
	headNames []*js.Ident
}

// findIterLoops maps each loop that needs a synthetic scope to its
// function: the innermost loop (of the same function) around a block
// scope, or whose head scope, declares a let, const or class binding that
// a nested function captures.
func (r *rewriter) findIterLoops() {
	r.iterLoops = map[js.Node]*scope.Func{}
	var scopes []*scope.Scope
	for _, s := range r.info.Scopes {
		if s.Kind != scope.BlockScope {
			continue
		}
		for _, b := range s.Bindings {
			if b.Captured && (b.Kind == scope.Let || b.Kind == scope.Const || b.Kind == scope.Class) {
				scopes = append(scopes, s)
				break
			}
		}
	}
	if len(scopes) == 0 {
		return
	}
	var loops []js.Node
	js.Inspect(r.prog, func(n js.Node) bool {
		switch n := n.(type) {
		case *js.For, *js.ForIn, *js.While, *js.DoWhile:
			loops = append(loops, n)
		case *js.ForOf:
			if !n.Await {
				loops = append(loops, n)
			}
		}
		return true
	})
	sort.SliceStable(loops, func(i, j int) bool { return loops[i].Pos() < loops[j].Pos() })
	for _, s := range scopes {
		a, b := s.Node.Pos(), s.Node.EndPos()
		k := sort.Search(len(loops), func(i int) bool { return loops[i].Pos() > a }) - 1
		for ; k >= 0; k-- {
			l := loops[k]
			if l.Pos() <= a && b <= l.EndPos() {
				break
			}
		}
		if k < 0 {
			continue
		}
		l := loops[k]
		if f := s.Func; f != nil && f.Kind != scope.ProgramFunc {
			if fn := f.Node; !(fn.Pos() <= l.Pos() && l.EndPos() <= fn.EndPos()) {
				continue // the scope is in a function inside the loop
			}
		}
		r.iterLoops[l] = s.Func
	}
}

// iterBegin starts the rewriting of a loop statement; it returns nil when
// the loop needs no synthetic scope.
func (r *rewriter) iterBegin(loop js.Node) *iterLoop {
	if r.iterLoops == nil {
		r.findIterLoops()
	}
	f, ok := r.iterLoops[loop]
	start := loop.Pos()
	if r.labelStart >= 0 {
		start = r.labelStart
	}
	r.labelStart = -1
	if !ok || r.fn.noTemps {
		return nil
	}
	it := &iterLoop{loop: loop, fn: f, outer: r.hole(start)}
	if r.fn != nil {
		it.nsuspLoop = r.fn.nsuspAll
	}
	if fo, ok := loop.(*js.For); ok {
		if d, ok := fo.Init.(*js.VarDecl); ok && d.Kind != js.Var {
			for _, dc := range d.Decls {
				it.headNames = patternIdents(dc.Target, it.headNames)
			}
		}
	}
	return it
}

// iterBody marks the start of the loop's body.
func (r *rewriter) iterBody(it *iterLoop, body js.Stmt) {
	if it == nil {
		return
	}
	it.body = r.hole(body.Pos())
	it.nsusp = r.fn.nsuspAll
	if r.fn.susp {
		// A suspension in the body names the iteration (resumeArgs).
		it.j = r.site(spanOf(body))
		it.bodySpan = spanOf(body)
		r.fn.iters = append(r.fn.iters, it)
	}
}

// iterBodyEnd marks the end of the loop's body (after its edits).
func (r *rewriter) iterBodyEnd(it *iterLoop, body js.Stmt) {
	if it == nil {
		return
	}
	it.bodyEnd = r.hole(body.EndPos())
	if n := len(r.fn.iters); n > 0 && r.fn.iters[n-1] == it {
		r.fn.iters = r.fn.iters[:n-1]
	}
}

// iterEnd completes the loop statement.
func (r *rewriter) iterEnd(it *iterLoop, body js.Stmt) {
	if it == nil {
		return
	}
	j := it.j
	if j == 0 {
		j = r.site(spanOf(body))
	}
	frame := r.fn.self
	if frame == "" {
		frame = "-1"
	}
	var open, close string
	if r.fn.susp && r.fn.nsuspAll > it.nsuspLoop {
		open = "{ " + r.hk("Iy", j) + frame + "); "
		close = " } finally { " + r.hk("Iz", j) + frame + "); } }"
		r.fill(it.outer, "{ ")
	} else {
		r.fill(it.outer, "{ const "+Prefix+"l = ", r.h, ".Il(", r.num(j), "); ")
		open = "{ " + r.hk("Ie", j) + Prefix + "l); "
		close = " } finally { " + r.hk("Ix", j) + Prefix + "l, " + frame + "); } }"
	}
	for _, id := range it.headNames {
		n := r.site(r.fn.span)
		open += r.hk("N", n) + r.varStr(id) + ", " + r.text(id) + "); "
	}
	r.fill(it.body, open, "try { ")
	r.fill(it.bodyEnd, close)
	r.ins(it.loop.EndPos(), " }")
	r.free = append(r.free, freeEntry{fe: j, names: r.iterFree(it)})
}

// iterFree lists the FREE_VARS of a loop's synthetic function: the marker,
// then the names that functions nested in the loop take from bindings
// outside it, in order of first reference.
func (r *rewriter) iterFree(it *iterLoop) []string {
	names := []string{trace.IterationMarker}
	a, b := it.loop.Pos(), it.loop.EndPos()
	seen := map[string]bool{}
	refs := r.info.Refs
	k := 0
	if r.refsSorted {
		k = sort.Search(len(refs), func(i int) bool { return refs[i].Ident.Start >= a })
	}
	for ; k < len(refs); k++ {
		ref := &refs[k]
		if ref.Ident.Start >= b {
			if r.refsSorted {
				break
			}
			continue
		}
		if ref.Ident.Start < a || ref.Binding == nil || ref.Scope == nil || ref.Scope.Func == it.fn {
			continue
		}
		bs := ref.Binding.Scope
		if bs != nil && bs.Node != nil && a <= bs.Node.Pos() && bs.Node.EndPos() <= b {
			continue // declared in the loop
		}
		if n := r.bindingName(ref.Binding); !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	return names
}
