package instrument

import (
	"strings"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/instrument/scope"
)

// Generators and async functions (docs/instrumentation.md §7): every
// suspension (yield, yield*, await, for await) exits the frame and every
// resumption enters it again, re-declaring the names live there. The
// rewriter passes those names to the hooks; a name is live at a point when
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

// liveNames returns the names live at pos in the current (suspendable)
// function, innermost binding first, each once.
func (r *rewriter) liveNames(pos int32) []string {
	f := r.fn.sfn
	if r.funcScopes == nil {
		r.funcScopes = make(map[*scope.Func][]*scope.Scope)
		for _, s := range r.info.Scopes {
			if s.Func != nil {
				r.funcScopes[s.Func] = append(r.funcScopes[s.Func], s)
			}
		}
	}
	var in *scope.Scope
	var inSpan js.Span
	for _, s := range r.funcScopes[f] {
		sp := spanOf(s.Node)
		if sp.Start <= pos && pos < sp.End && (in == nil || sp.Start > inSpan.Start || sp.Start == inSpan.Start && sp.End < inSpan.End) {
			in, inSpan = s, sp
		}
	}
	if in == nil {
		in = f.Scope
	}
	var names []string
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
			names = append(names, b.Name)
		}
		if s.Kind == scope.FuncNameScope || s == f.Scope && (s.Parent == nil || s.Parent.Kind != scope.FuncNameScope) {
			break
		}
	}
	return names
}

// resumePairs renders the (name, value) pairs of the live names for Y.
func resumePairs(names []string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(", ")
		b.WriteString(quote(n))
		b.WriteString(", ")
		b.WriteString(n)
	}
	return b.String()
}

// suspension instruments yield, yield* and await in a generator or async
// function: H.Y(i, f, <op> H.Ys(i, f, arg), names…).
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
	f.nsuspAll++
	names := r.liveNames(e.Pos())
	r.fill(h, r.hk("Y", i), f.self, ", ")
	ys := r.hk("Ys", i) + f.self + ", "
	if arg != nil {
		if isSeq(arg) {
			r.fill(ha, ys, "(")
			r.ins(arg.EndPos(), "))")
		} else {
			r.fill(ha, ys)
			r.ins(arg.EndPos(), ")")
		}
	} else {
		r.ins(e.EndPos(), " ", ys, "void 0)")
	}
	r.free = append(r.free, freeEntry{fe: i, names: names})
	r.ins(e.EndPos(), resumePairs(names), ")")
}

// resumeAt inserts, at pos (a catch or finally block's start), a
// resumption for a throw or return resumption that reaches it.
func (r *rewriter) resumeAt(h int, pos int32, sp js.Span) {
	i := r.site(sp)
	names := r.liveNames(pos)
	r.fill(h, r.hk("Y", i), r.fn.self, ", void 0", resumePairs(names), "); ")
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
	names := r.liveNames(st.Pos())
	inner()
	i := r.site(sp)
	open := "{ "
	if guard {
		open = ";{ "
	}
	r.fill(h, open)
	r.ins(st.EndPos(), " ", r.hk("Y", i), r.fn.self, ", void 0", resumePairs(names), "); }")
}
