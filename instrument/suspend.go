package instrument

import (
	"strings"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/instrument/scope"
	"github.com/memtrace/memtrace/trace"
)

// Generators and async functions (docs/instrumentation.md §7): every
// suspension (yield, yield*, await, for await) exits the frame and every
// resumption enters it again, re-declaring the names live there but those
// of the function's own context (below). The rewriter passes those names
// and their values to the suspension and resumption hooks (the frame
// object holds the values meanwhile); a name is live at a point when
// its binding belongs to the function, is in scope there and is
// initialised: parameters, vars, functions and catch parameters always,
// let, const and class bindings once their declaration has been rewritten
// (textual order: a declaration before the point in an enclosing block has
// run when control reaches the point), except those of switch blocks (a
// case may jump over them).

// markReady records that the let/const/class bindings a declaration of p
// binds are initialised after this point of a suspendable function.
func (r *rewriter) markReady(p js.Node) {
	if r.fn == nil || !r.fn.susp {
		return
	}
	var ids []*js.Ident
	switch t := p.(type) {
	case *js.Ident:
		ids = append(ids, t)
	case js.Pattern:
		ids = patternIdents(t, nil)
	}
	for _, id := range ids {
		if b := r.info.BindingOf(id); b != nil {
			if r.ready == nil {
				r.ready = make(map[*scope.Binding]bool)
			}
			r.ready[b] = true
		}
	}
}

// liveBindings returns the bindings live at pos in the current
// (suspendable) function, innermost first, one per name.
func (r *rewriter) liveBindings(pos int32) []*scope.Binding {
	f := r.fn.sfn
	var in *scope.Scope
	var inSpan js.Span
	for _, s := range r.scopesOf(f) {
		sp := spanOf(s.Node)
		if sp.Start <= pos && pos < sp.End && (in == nil || sp.Start > inSpan.Start || sp.Start == inSpan.Start && sp.End < inSpan.End) {
			in, inSpan = s, sp
		}
	}
	if in == nil {
		in = f.Scope
	}
	var live []*scope.Binding
	seen := make(map[string]bool)
	for s := in; s != nil; s = s.Parent {
		if s.Func != f && s.Kind != scope.FuncNameScope {
			break
		}
		_, isSwitch := s.Node.(*js.Switch)
		for _, b := range s.Bindings {
			if seen[b.Name] {
				continue
			}
			switch b.Kind {
			case scope.Arguments, scope.ClassName, scope.Import:
				continue
			case scope.Let, scope.Const, scope.Class:
				if isSwitch || !r.ready[b] {
					continue
				}
			}
			seen[b.Name] = true
			live = append(live, b)
		}
		if s.Kind == scope.FuncNameScope || s == f.Scope && (s.Parent == nil || s.Parent.Kind != scope.FuncNameScope) {
			break
		}
	}
	return live
}

// scopesOf returns the scopes of function f, in the analysis's order.
func (r *rewriter) scopesOf(f *scope.Func) []*scope.Scope {
	if r.funcScopes == nil {
		r.funcScopes = make(map[*scope.Func][]*scope.Scope)
		for _, s := range r.info.Scopes {
			if s.Func != nil {
				r.funcScopes[s.Func] = append(r.funcScopes[s.Func], s)
			}
		}
	}
	return r.funcScopes[f]
}

// resumeArgs renders Y's arguments after its value for a resumption at
// pos: the (name, value) pairs of the live names that belong to the
// function, then, for each loop iteration open at pos (outermost first,
// iter.go), its iid and the pairs of the live names declared in it.
func (r *rewriter) resumeArgs(pos int32) string {
	var open []*iterLoop
	for _, it := range r.fn.iters {
		if it.bodySpan.Start <= pos && pos < it.bodySpan.End {
			open = append(open, it)
		}
	}
	live := r.liveBindings(pos)
	var b strings.Builder
	for g := -1; g < len(open); g++ {
		if g >= 0 {
			b.WriteString(", ")
			b.WriteString(r.num(open[g].j))
		}
		for _, x := range live {
			if r.fn.cset[x] {
				continue // in the function's own context (ownContextBindings)
			}
			if iterOf(x, open) == g {
				b.WriteString(", ")
				b.WriteString(quote(r.bindingName(x)))
				b.WriteString(", ")
				b.WriteString(x.Name)
			}
		}
	}
	return b.String()
}

// iterOf is the index in open of the innermost loop that declares binding
// b, or -1 when none does (a binding of the function).
func iterOf(b *scope.Binding, open []*iterLoop) int {
	if b.Scope == nil || b.Scope.Node == nil {
		return -1
	}
	a, e := b.Scope.Node.Pos(), b.Scope.Node.EndPos()
	for g := len(open) - 1; g >= 0; g-- {
		if l := open[g].loop; l.Pos() <= a && e <= l.EndPos() {
			return g
		}
	}
	return -1
}

// The function's own context. A resumption enters a fresh context, which
// the model needs for the bindings whose values the frame object holds
// while the frame is suspended: they are declared again there with their
// current values. A binding that a nested function captures must not be
// copied: V8 keeps one context for the whole activation, so a closure made
// before a suspension sees every later write. Such a binding of the
// function itself (not of a loop iteration, which a resumption enters
// again) stays in the function's first context: a resume function created
// there (H.Fg's last argument is its iid, whose FREE_VARS are
// trace.ResumeMarker and those names, so that the context keeps them when
// the first suspension seals it) is what each resumption enters, and its fresh
// context's parent is that first context, where writes and closures find
// the bindings. The ones declared after the first suspension may run in a
// resumption's context: they are declared at entry (value undefined) and
// their declarations write (H.Nw) instead of declaring.

// ownContextBindings returns, in scope order, the bindings of the
// suspendable function f that stay in its first context: those a nested
// function captures (all of them when direct eval or with may reach
// them), except catch parameters (never declared), switch-block bindings
// (never live across a suspension), and the bindings of a loop with
// per-iteration scopes or of a for await loop (each iteration's are
// declared in its own context).
func (r *rewriter) ownContextBindings(f *scope.Func) ([]*scope.Binding, map[*scope.Binding]bool) {
	if f == nil {
		return nil, nil
	}
	if r.iterLoops == nil {
		r.findIterLoops()
	}
	if r.forAwaits == nil {
		r.forAwaits = []js.Span{}
		js.Inspect(r.prog, func(n js.Node) bool {
			if l, ok := n.(*js.ForOf); ok && l.Await {
				r.forAwaits = append(r.forAwaits, spanOf(l))
			}
			return true
		})
	}
	fsp := spanOf(f.Node)
	var loops []js.Span
	for l := range r.iterLoops {
		if sp := spanOf(l); fsp.Start <= sp.Start && sp.End <= fsp.End {
			loops = append(loops, sp)
		}
	}
	for _, sp := range r.forAwaits {
		if fsp.Start <= sp.Start && sp.End <= fsp.End {
			loops = append(loops, sp)
		}
	}
	all := f.HasEval || f.HasWith
	scopes := r.scopesOf(f)
	if p := f.Scope.Parent; p != nil && p.Kind == scope.FuncNameScope {
		scopes = append([]*scope.Scope{p}, scopes...)
	}
	var list []*scope.Binding
	var set map[*scope.Binding]bool
scopes:
	for _, s := range scopes {
		if _, ok := s.Node.(*js.Switch); ok {
			continue
		}
		sp := spanOf(s.Node)
		if s != f.Scope && s.Kind != scope.FuncNameScope {
			for _, l := range loops {
				if l.Start <= sp.Start && sp.End <= l.End {
					continue scopes
				}
			}
		}
		for _, b := range s.Bindings {
			switch b.Kind {
			case scope.Arguments, scope.ClassName, scope.Import, scope.CatchParam:
				continue
			}
			if !b.Captured && !all {
				continue
			}
			if set == nil {
				set = make(map[*scope.Binding]bool)
			}
			set[b] = true
			list = append(list, b)
		}
	}
	return list, set
}

// suspends counts a suspension of the current function at pos.
func (r *rewriter) suspends(pos int32) {
	f := r.fn
	if f.nsuspAll == 0 {
		f.firstSusp = pos
	}
	f.nsuspAll++
}

// declHook is the hook of a declaration of id: N, or Nw for a binding of
// the function's own context declared after its first suspension.
func (r *rewriter) declHook(id *js.Ident) string {
	f := r.fn
	if f == nil || f.cset == nil || f.nsuspAll == 0 {
		return "N"
	}
	b := r.info.BindingOf(id)
	if b == nil || !f.cset[b] {
		return "N"
	}
	if !f.pdSet[b] {
		if f.pdSet == nil {
			f.pdSet = make(map[*scope.Binding]bool)
		}
		f.pdSet[b] = true
		f.pd = append(f.pd, b)
	}
	return "Nw"
}

// resumeFunction allocates the iid of the resume function of the
// suspendable function fs (0 when it needs none: no suspension, or no
// binding of its own context in scope after the first one), with its
// FREE_VARS, and appends to the hoisted declarations those of the
// bindings declared after the first suspension (sc: the function scope,
// whose names the hoisted declarations already declare).
func (r *rewriter) resumeFunction(fs *fnState, sc *scope.Scope, hoist []byte) (int, []byte) {
	// The lexical bindings nested closures keep (this excepted: Y
	// declares it again) stay in the first context too.
	extra := lexicalOwn(fs.sfn)
	if fs.nsuspAll == 0 || len(fs.c0) == 0 && len(extra) == 0 {
		return 0, hoist
	}
	names := []string{trace.ResumeMarker}
	seen := map[string]bool{}
	for _, b := range fs.c0 {
		if seen[b.Name] || !fs.pdSet[b] && spanOf(b.Scope.Node).End <= fs.firstSusp {
			continue
		}
		seen[b.Name] = true
		names = append(names, r.bindingName(b))
	}
	names = append(names, extra...)
	if len(names) == 1 {
		return 0, hoist
	}
	for _, b := range fs.pd {
		if sc != nil {
			if o := sc.Lookup(b.Name); o != nil && o != b {
				continue // the same name is declared at entry
			}
		}
		hoist = append(hoist, r.hk("N", r.site(fs.span))...)
		hoist = appendQuote(hoist, r.bindingName(b))
		hoist = append(hoist, ", void 0); "...)
	}
	r0 := r.site(fs.span)
	r.free = append(r.free, freeEntry{fe: r0, names: names})
	return r0, hoist
}

// suspension instruments yield, yield* and await in a generator or async
// function: H.Y(i, f, <op> H.Ys(i, f, arg), names…); H.Yv instead of H.Ys
// for yield with an operand, whose value leaves the frame as a returned
// value does.
func (r *rewriter) suspension(e js.Expr, arg js.Expr) {
	f := r.fn
	h := r.hole(e.Pos())
	var ha int
	if arg != nil {
		ha = r.hole(arg.Pos())
		r.expr(arg)
	}
	i := r.site(spanOf(e))
	f.nsusp++
	r.suspends(e.Pos())
	args := r.resumeArgs(e.Pos())
	r.fill(h, r.hk("Y", i), f.self, ", ")
	hook := "Ys"
	if y, ok := e.(*js.Yield); ok && !y.Delegate && arg != nil {
		hook = "Yv"
	}
	ys := r.hk(hook, i) + f.self + ", "
	if arg != nil {
		if isSeq(arg) {
			r.fill(ha, ys, "(")
			r.ins(arg.EndPos(), ")", args, ")")
		} else {
			r.fill(ha, ys)
			r.ins(arg.EndPos(), args, ")")
		}
	} else {
		r.ins(e.EndPos(), " ", ys, "void 0", args, ")")
	}
	r.ins(e.EndPos(), args, ")")
}

// resumeAt inserts, at pos (a catch or finally block's start), a
// resumption for a throw or return resumption that reaches it.
func (r *rewriter) resumeAt(h int, pos int32, sp js.Span) {
	i := r.site(sp)
	r.fill(h, r.hk("Y", i), r.fn.self, ", void 0", r.resumeArgs(pos), "); ")
}

// frHook is the exit hook of the function: Fx for generators and async
// functions, else Fr.
func (f *fnState) frHook() string {
	if f.susp {
		return "Fx"
	}
	return "Fr"
}

// labeledForAwait returns the for await loop a labeled statement labels
// (through nested labels), or nil.
func labeledForAwait(s *js.Labeled) *js.ForOf {
	for {
		switch b := s.Body.(type) {
		case *js.Labeled:
			s = b
		case *js.ForOf:
			if b.Await {
				return b
			}
			return nil
		default:
			return nil
		}
	}
}

// afterForAwait wraps a for await loop (with its labels) in a block that
// resumes after it: its last next() or the return() of a break is awaited.
// inner rewrites the statement.
func (r *rewriter) afterForAwait(st js.Node, sp js.Span, inner func(), guard bool) {
	h := r.hole(st.Pos())
	args := r.resumeArgs(st.Pos())
	inner()
	i := r.site(sp)
	open := "{ "
	if guard {
		open = ";{ "
	}
	r.fill(h, open)
	r.ins(st.EndPos(), " ", r.hk("Y", i), r.fn.self, ", void 0", args, "); }")
}
