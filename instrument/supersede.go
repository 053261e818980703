package instrument

import (
	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/instrument/scope"
)

// Superseded uses (docs/instrumentation.md §4, "Superseded reads").
//
// The shim keeps one last use per object: a use hook overwrites the
// time and site of the object's previous use. A property read whose
// object is certain to be used again, by a later G, P or M of the same
// straight-line code, before anything can make the name hold another
// object, records a use that the later one overwrites before anyone reads
// it. Such a read gets no G: o.a + o.b → o.a + H.G(i, o).b.
//
// The analysis runs over a straight-line run of statements (expression
// statements and declarations, ended by the first statement that is not
// one, after its head: an if's test, a loop's initialisation and first
// test, a return's argument). It lists, in evaluation order, the uses of
// names (locals of the function being rewritten, and names of enclosing
// functions that cannot resume, that no other function writes; and
// this), the writes of those names, and barriers: calls,
// construction, iteration, suspension, and anything it does not model.
// Walking back from the run's end, a read is superseded when a later use
// of the same name follows it with no write of the name and no barrier
// in between, and that use runs whenever the read does (it is not in a
// branch the read is not in: the right of && || ??, a conditional's
// arms). Barriers keep the rule exact except for an exception thrown
// between the two uses by an operation that is not a call (a getter, a
// valueOf, a property of undefined): the object's last use is then the
// one before.

// supKind is the kind of an event of the walk.
type supKind uint8

const (
	supUse     supKind = iota // a hook that records a use of the name's object (G, P, M)
	supRead                   // a G that may be superseded
	supWrite                  // the name is assigned
	supBarrier                // nothing is superseded across it
)

// A region of code that runs only if its parent's does is an index into
// superseder.parents; 0 is the run itself.

// within reports that region c lies in region outer (or is it).
func (s *superseder) within(c, outer int32) bool {
	for ; c >= 0; c = s.parents[c] {
		if c == outer {
			return true
		}
	}
	return false
}

type supEvent struct {
	kind supKind
	b    *scope.Binding
	ctx  int32
	m    *js.Member
}

// thisBinding stands for this, which nothing can assign.
var thisBinding = &scope.Binding{Name: "this"}

type superseder struct {
	r       *rewriter
	ev      []supEvent
	ctx     int32
	parents []int32 // each region's parent; -1 for the run's
	reads   int     // supRead events in ev
	// later: per name, the head of its list in uses (the regions of the
	// uses found so far walking back), -1 at the end of a list.
	later map[*scope.Binding]int32
	uses  []supLink
}

type supLink struct{ ctx, next int32 }

// region opens a region inside the current one.
func (s *superseder) region() int32 {
	s.parents = append(s.parents, s.ctx)
	return int32(len(s.parents) - 1)
}

// supersedeOn reports whether reads may be superseded in the function
// being rewritten: not in all-uses mode (every use is an entry), nor in
// generators and async functions (suspensions are rewritten), nor in with
// bodies.
func (r *rewriter) supersedeOn() bool {
	return !r.opts.AllUses && !r.opts.KeepUses && r.fn != nil && !r.fn.susp && r.inWith == 0 && r.info != nil
}

// supersede analyses the statements of a list (see above) and records
// in r.superseded the reads that need no G.
func (r *rewriter) supersede(list []js.Stmt) {
	if !r.supersedeOn() || len(list) == 0 {
		return
	}
	s := r.superseder()
	for _, st := range list {
		if !s.stmt(st) {
			s.flush()
		}
	}
	s.flush()
}

// supersedeBody analyses a statement that is a body of its own (an if's
// branch, a loop's body without braces).
func (r *rewriter) supersedeBody(st js.Stmt) {
	if _, ok := st.(*js.Block); ok || !r.supersedeOn() {
		return // a block's list is analysed when it is rewritten
	}
	r.supersede([]js.Stmt{st})
}

// supersedeExpr analyses an arrow's expression body.
func (r *rewriter) supersedeExpr(e js.Expr) {
	if !r.supersedeOn() {
		return
	}
	s := r.superseder()
	s.expr(e)
	s.flush()
}

func (r *rewriter) superseder() *superseder {
	if r.sup == nil {
		r.sup = &superseder{r: r, later: map[*scope.Binding]int32{}}
		r.superseded = map[*js.Member]bool{}
		r.closureWritten = map[*scope.Binding]bool{}
		for i := range r.info.Refs {
			ref := &r.info.Refs[i]
			if ref.Write && ref.Binding != nil && ref.Binding.Scope != nil && ref.Scope != nil && ref.Scope.Func != ref.Binding.Scope.Func {
				r.closureWritten[ref.Binding] = true
			}
		}
	}
	s := r.sup
	s.reset()
	return s
}

// stmt adds a statement of the run; false: the run ends after it.
func (s *superseder) stmt(st js.Stmt) bool {
	switch st := st.(type) {
	case *js.ExprStmt:
		if st.Directive == "" {
			s.expr(st.X)
		}
		return true
	case *js.VarDecl:
		s.decl(st)
		return true
	case *js.Empty, *js.FuncDecl:
		return true
	case *js.Return:
		if st.Arg != nil {
			s.expr(st.Arg)
		}
	case *js.Throw:
		s.expr(st.Arg)
	case *js.If:
		s.expr(st.Test)
	case *js.For:
		switch init := st.Init.(type) {
		case *js.VarDecl:
			s.decl(init)
		case js.Expr:
			s.expr(init)
		}
		if st.Test != nil {
			s.expr(st.Test)
		}
	case *js.While:
		s.expr(st.Test)
	case *js.Switch:
		s.expr(st.Disc)
	}
	return false
}

func (s *superseder) decl(d *js.VarDecl) {
	for _, dc := range d.Decls {
		id, ok := dc.Target.(*js.Ident)
		if !ok {
			s.barrier() // destructuring: iterators, getters, defaults
			continue
		}
		if dc.Init != nil {
			s.expr(dc.Init)
		}
		if dc.Init != nil || d.Kind != js.Var {
			s.write(id)
		}
	}
}

func (s *superseder) add(k supKind, b *scope.Binding, m *js.Member) {
	s.ev = append(s.ev, supEvent{kind: k, b: b, ctx: s.ctx, m: m})
	if k == supRead {
		s.reads++
	}
}

func (s *superseder) barrier() { s.add(supBarrier, nil, nil) }

func (s *superseder) write(id *js.Ident) {
	if ref := s.r.ref(id); ref != nil && ref.Binding != nil {
		s.add(supWrite, ref.Binding, nil)
	}
}

// name returns the binding a use hook on o records a use for, when the
// rule may follow it: this, or a name that only its own function
// assigns (the function being rewritten, or an enclosing one that cannot
// resume while this code runs), resolved statically; nil otherwise.
func (s *superseder) name(o js.Expr) *scope.Binding {
	switch o := o.(type) {
	case *js.This:
		return thisBinding
	case *js.Ident:
		r := s.r
		ref := r.ref(o)
		if ref == nil || ref.Binding == nil || ref.Dynamic || r.primitiveRef(o) {
			return nil
		}
		b := ref.Binding
		if b.Kind == scope.Import || b.Scope == nil || b.Scope.Kind == scope.GlobalScope || r.closureWritten[b] {
			// A classic script's top-level names live on the global object
			// or in the global lexical environment, which other scripts
			// write.
			return nil
		}
		if r.opts.Eval && b.Scope.Func != nil && b.Scope.Func.Kind == scope.ProgramFunc {
			return nil // eval code's vars are its caller's
		}
		f := b.Scope.Func
		if f != nil && f.HasEval {
			// A direct eval in f or in a function nested in it may
			// assign the name, in code called from a getter.
			return nil
		}
		cur := r.fn.sfn
		if cur == nil && r.fn.parent == nil {
			cur = r.info.Root.Func
		}
		if f == nil || f != cur {
			// A name of an enclosing function, which no other function
			// writes: that function's own code is all that writes it, and
			// while this code runs, that code runs only if it can resume
			// (a generator resumed by a getter; an async function too, to
			// stay on the safe side). A plain function's activation is
			// finished or waiting below on the stack. Its constants never
			// change.
			if b.Kind != scope.Const && b.Kind != scope.FuncName && b.Kind != scope.ClassName && (f == nil || resumable(f)) {
				return nil
			}
		}
		if b.Kind == scope.Param && sloppyArguments(f) {
			return nil // arguments[0] = v writes it
		}
		return b
	}
	return nil
}

// resumable: f's activation may run again after it has let other code
// run (a generator or an async function), or f is a module's top level
// (top-level await); a CommonJS module body is a plain function.
func resumable(f *scope.Func) bool {
	switch n := f.Node.(type) {
	case *js.FuncDecl:
		return n.Async || n.Generator
	case *js.FuncExpr:
		return n.Async || n.Generator
	case *js.Arrow:
		return n.Async
	case *js.Program:
		return n.Goal == js.Module
	}
	return false
}

// sloppyArguments: f's parameters may be aliased by its arguments object.
func sloppyArguments(f *scope.Func) bool {
	if f == nil || !f.UsesArguments {
		return false
	}
	switch n := f.Node.(type) {
	case *js.FuncDecl:
		return !n.Strict
	case *js.FuncExpr:
		return !n.Strict
	}
	return true
}

// cond walks e in a region that runs only sometimes.
func (s *superseder) cond(e js.Expr) {
	outer := s.ctx
	s.ctx = s.region()
	s.expr(e)
	s.ctx = outer
}

func (s *superseder) args(list []js.Expr) {
	for _, a := range list {
		if sp, ok := a.(*js.Spread); ok {
			s.expr(sp.Arg)
			s.barrier() // iteration
			continue
		}
		s.expr(a)
	}
}

// written reports a write of b among the events from k on.
func (s *superseder) written(b *scope.Binding, k int) bool {
	for _, e := range s.ev[k:] {
		if e.kind == supWrite && e.b == b {
			return true
		}
	}
	return false
}

// useAfter adds the use of the object b held when the events from k on
// began (P and M read their base first and record the use later): none
// when b was assigned since.
func (s *superseder) useAfter(b *scope.Binding, k int) {
	if b != nil && !s.written(b, k) {
		s.add(supUse, b, nil)
	}
}

// binary walks a chain of binary operators, a + b + c + ..., without
// recursing down its left operands (a chain is as deep as it is long):
// the innermost left operand, then each right one, in source order.
func (s *superseder) binary(e *js.Binary) {
	var buf [8]*js.Binary
	chain := buf[:0] // outermost first
	var x js.Expr = e
	for b, ok := e, true; ok; b, ok = x.(*js.Binary) {
		chain = append(chain, b)
		x = b.X
	}
	s.expr(x)
	for i := len(chain) - 1; i >= 0; i-- {
		switch b := chain[i]; b.Op {
		case "&&", "||", "??":
			s.cond(b.Y)
		default:
			s.expr(b.Y)
		}
	}
}

// expr adds the events of e in evaluation order. It mirrors the hooks the
// rewriter gives each form (expr.go); a form it does not model is a
// barrier.
func (s *superseder) expr(e js.Expr) {
	switch e := e.(type) {
	case nil, *js.Ident, *js.This, *js.NullLit, *js.BoolLit, *js.NumLit, *js.BigIntLit,
		*js.StringLit, *js.RegExpLit, *js.MetaProperty, *js.PrivateName,
		*js.FuncExpr, *js.Arrow:
	case *js.Paren:
		s.expr(e.X)
	case *js.Template:
		for _, x := range e.Exprs {
			s.expr(x)
		}
	case *js.Array:
		s.args(e.Elems)
	case *js.Object:
		for _, p := range e.Props {
			switch p := p.(type) {
			case *js.Property:
				if p.Computed {
					s.expr(p.Key)
				}
				if v, ok := p.Value.(js.Expr); ok && !p.Method && p.Kind == js.PropInit {
					s.expr(v)
				}
			case *js.Spread:
				s.expr(p.Arg)
			default:
				s.barrier()
			}
		}
	case *js.Unary:
		if e.Op == "delete" {
			s.barrier()
			return
		}
		s.expr(e.X)
	case *js.Update:
		if id, ok := unparen(e.X).(*js.Ident); ok {
			s.write(id)
			return
		}
		s.barrier()
	case *js.Binary:
		s.binary(e)
	case *js.Cond:
		s.expr(e.Test)
		s.cond(e.Yes)
		s.cond(e.No)
	case *js.Seq:
		for _, x := range e.List {
			s.expr(x)
		}
	case *js.Assign:
		s.assign(e)
	case *js.Member:
		if _, ok := e.Object.(*js.Super); ok {
			if e.Computed {
				s.expr(e.Property)
			}
			return
		}
		if b := s.name(e.Object); b != nil && !limitProp(e) {
			s.add(supRead, b, e)
		} else {
			s.expr(e.Object)
		}
		if e.Computed {
			s.expr(e.Property)
		}
	case *js.Call:
		s.call(e)
	case *js.New:
		s.expr(e.Callee)
		s.args(e.Args)
		s.barrier()
	default:
		// Chains, tagged templates, classes, yield, await, import():
		// code the walk does not follow.
		s.barrier()
	}
}

func (s *superseder) assign(e *js.Assign) {
	switch t := unparenPattern(e.Target).(type) {
	case *js.Ident:
		if e.Op == "&&=" || e.Op == "||=" || e.Op == "??=" {
			outer := s.ctx
			s.ctx = s.region()
			s.expr(e.Value)
			s.write(t)
			s.ctx = outer
			return
		}
		s.expr(e.Value)
		s.write(t)
	case *js.Member:
		if !instrumentable(t) || limitProp(t) {
			s.barrier()
			return
		}
		b, k := s.base(t)
		if e.Op == "=" {
			s.expr(e.Value)
			s.useAfter(b, k) // P
			return
		}
		// Compound and logical writes read the property first (their
		// G on a temporary) and write through P: not followed.
		s.barrier()
	default:
		s.barrier() // destructuring
	}
}

// base walks the object and key of a member that P or M uses: the name
// the hook records a use for (nil if the rule cannot follow it), and the
// first event of the walk, for useAfter.
func (s *superseder) base(m *js.Member) (*scope.Binding, int) {
	k := len(s.ev)
	b := s.name(m.Object)
	if b == nil {
		s.expr(m.Object)
	}
	if m.Computed {
		s.expr(m.Property)
	}
	return b, k
}

func (s *superseder) call(e *js.Call) {
	if e.Optional {
		s.barrier()
		return
	}
	switch c := unparen(e.Callee).(type) {
	case *js.Member:
		if _, sup := c.Object.(*js.Super); sup {
			break
		}
		if _, priv := c.Property.(*js.PrivateName); priv {
			break
		}
		b, k := s.base(c)
		s.useAfter(b, k) // M
		s.args(e.Args)
		s.barrier()
		return
	case *js.Chain:
		s.barrier()
		return
	case *js.Super:
	default:
		s.expr(e.Callee)
		s.args(e.Args)
		s.barrier()
		return
	}
	s.barrier() // super(), super.m(), o.#m(): not followed
}

// flush decides the run's reads, walking back from its end.
func (s *superseder) flush() {
	if s.reads == 0 {
		s.reset()
		return
	}
	later := s.later
	for i := len(s.ev) - 1; i >= 0; i-- {
		e := s.ev[i]
		switch e.kind {
		case supBarrier:
			clear(later)
		case supWrite:
			delete(later, e.b)
		case supUse, supRead:
			head, ok := later[e.b]
			if !ok {
				head = -1
			}
			dup := false
			for u := head; u >= 0; u = s.uses[u].next {
				c := s.uses[u].ctx
				if e.kind == supRead && s.within(e.ctx, c) {
					s.r.superseded[e.m] = true
				}
				if c == e.ctx {
					dup = true
				}
			}
			if !dup {
				s.uses = append(s.uses, supLink{ctx: e.ctx, next: head})
				later[e.b] = int32(len(s.uses) - 1)
			}
		}
	}
	clear(later)
	s.reset()
}

// reset starts a new run.
func (s *superseder) reset() {
	s.ev = s.ev[:0]
	s.uses = s.uses[:0]
	s.parents = append(s.parents[:0], -1)
	s.ctx = 0
	s.reads = 0
}
