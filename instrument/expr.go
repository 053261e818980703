package instrument

import (
	"strconv"
	"strings"

	js "github.com/memtrace/memtrace/instrument/js"
)

// exprNamed instruments e, which gets name by named evaluation when it is
// an anonymous function or class (the F hook passes the name on, since
// wrapping the function in a call would lose it).
func (r *rewriter) exprNamed(e js.Expr, name string) {
	if name != "" {
		switch u := unparen(e).(type) {
		case *js.FuncExpr:
			if u.Name == nil {
				r.funcExpr(u, name)
				return
			}
		case *js.Arrow:
			r.arrow(u, name)
			return
		case *js.ClassExpr:
			if u.Name == nil {
				r.classExpr(u, name)
				return
			}
		}
	}
	r.expr(e)
}

func (r *rewriter) exprs(list []js.Expr) {
	for _, e := range list {
		if e != nil {
			r.expr(e)
		}
	}
}

// used instruments e, an operand whose object the operation reads without
// a G, M, P or D hook (spread, for-in/of, in, instanceof): in all-uses mode
// it is wrapped in H.L(i, e), a use at site sp (docs/instrumentation.md §4).
func (r *rewriter) used(e js.Expr, sp js.Span) {
	if !r.opts.AllUses {
		r.expr(e)
		return
	}
	h := r.hole(e.Pos())
	r.expr(e)
	i := r.site(sp)
	if isSeq(e) {
		r.fill(h, r.hk("L", i), "(")
		r.ins(e.EndPos(), "))")
		return
	}
	r.fill(h, r.hk("L", i))
	r.ins(e.EndPos(), ")")
}

// literal wraps an object-valued literal: H.T(i, lit[, members]).
func (r *rewriter) literal(e js.Expr) {
	sp := spanOf(e)
	i := r.site(sp)
	r.ins(sp.Start, r.hk("T", i))
	r.ins(sp.End, ")")
}

func (r *rewriter) expr(e js.Expr) {
	switch e := e.(type) {
	case *js.Ident, *js.PrivateName, *js.This, *js.Super, *js.NullLit, *js.BoolLit,
		*js.NumLit, *js.BigIntLit, *js.StringLit, *js.MetaProperty:
	case *js.RegExpLit:
		r.literal(e)
	case *js.Template:
		r.exprs(e.Exprs)
	case *js.TaggedTemplate:
		if r.taggedCall(e) {
			return
		}
		if c, ok := unparen(e.Tag).(*js.Chain); ok {
			r.spine(c.X) // the tag's this comes from the chain
		} else {
			r.expr(e.Tag)
		}
		r.exprs(e.Quasi.Exprs)
	case *js.Array:
		h := r.hole(e.Start)
		r.exprs(e.Elems)
		i := r.site(e.Span)
		r.fill(h, r.hk("T", i))
		r.ins(e.End, ")")
	case *js.Object:
		r.object(e)
	case *js.Spread:
		r.used(e.Arg, e.Span)
	case *js.FuncExpr:
		r.funcExpr(e, "")
	case *js.Arrow:
		r.arrow(e, "")
	case *js.ClassExpr:
		r.classExpr(e, "")
	case *js.Unary:
		if e.Op == "delete" && r.del(e) {
			return
		}
		if c, ok := unparen(e.X).(*js.Chain); ok && e.Op == "delete" {
			r.spine(c.X) // delete a?.b.c deletes the chain's last property
			return
		}
		r.expr(e.X)
	case *js.Update:
		r.update(e)
	case *js.Binary:
		r.binary(e) // binary.go
	case *js.Assign:
		r.assign(e)
	case *js.Cond:
		r.tested(e.Test, e.Span)
		r.expr(e.Yes)
		r.expr(e.No)
	case *js.Call:
		r.call(e)
	case *js.New:
		r.newExpr(e)
	case *js.Member:
		r.member(e)
	case *js.Chain:
		r.chainExpr(e)
	case *js.Seq:
		last := len(e.List) - 1
		for i, x := range e.List {
			if i < last {
				r.discarded(x, acorn(x), false)
			} else {
				r.expr(x)
			}
		}
	case *js.Paren:
		r.expr(e.X)
	case *js.Yield:
		if r.fn.susp {
			r.suspension(e, e.Arg)
		} else if e.Arg != nil {
			r.expr(e.Arg)
		}
	case *js.Await:
		if r.fn.susp {
			r.suspension(e, e.Arg)
		} else {
			r.expr(e.Arg)
		}
	case *js.ImportCall:
		if e.Phase == "" && r.opts.Eval && !r.opts.GlobalCode {
			// Eval and function-constructor code: import() resolves
			// against the script that made the code, through its handle
			// (H.im, docs/instrumentation.md §6).
			r.rep(e.Start, e.Start+6, r.h+".im")
		}
		r.expr(e.Source)
		if e.Options != nil {
			r.expr(e.Options)
		}
	default:
		panic(internalError("unknown expression"))
	}
}

func (r *rewriter) object(e *js.Object) {
	h := r.hole(e.Start)
	var members strings.Builder
	hook := "T"
	for _, p := range e.Props {
		switch p := p.(type) {
		case *js.Property:
			if p.Computed && hook == "T" {
				hook = "Ts" // may define symbol-keyed properties
			}
			if p.Computed && p.Kind == js.PropInit && !p.Method && !p.Shorthand && anonymousFn(p.Value) {
				r.computedProp(p)
				continue
			}
			if p.Computed {
				r.expr(p.Key)
			}
			if p.Method || p.Kind != js.PropInit {
				fe := r.method(p.Value.(*js.FuncExpr), false, false)
				kind := 0
				switch p.Kind {
				case js.PropGet:
					kind = 1
				case js.PropSet:
					kind = 2
				}
				if k := r.keyText(p.Key, p.Computed); k != "" {
					if sf := r.info.FuncOf(p.Value); sf != nil && sf.UsesSuper {
						// Tm logs its ~home~ edge (lexical.go).
						kind += 16
						hook = "Tm"
					}
					members.WriteString(", " + k + ", " + itoa(kind) + ", " + itoa(fe))
				} else if kind != 0 {
					// A computed accessor's key is known at run time only;
					// its triple still tells T to read the literal's values
					// through descriptors, so that no getter runs.
					members.WriteString(", null, " + itoa(kind) + ", " + itoa(fe))
				}
				continue
			}
			if p.Shorthand {
				continue
			}
			if v, ok := p.Value.(js.Expr); ok {
				r.exprNamed(v, r.nameText(p.Key, p.Computed))
			}
		case *js.Spread:
			if hook == "T" {
				hook = "Ts"
			}
			r.used(p.Arg, p.Span)
		}
	}
	i := r.site(e.Span)
	r.fill(h, r.hk(hook, i))
	if members.Len() > 0 {
		r.ins(e.End, members.String()+")")
	} else {
		r.ins(e.End, ")")
	}
}

// instrumentable reports whether a member's object and key can go to a
// hook: not super, not a private name.
func instrumentable(m *js.Member) bool {
	if _, ok := m.Object.(*js.Super); ok {
		return false
	}
	_, priv := m.Property.(*js.PrivateName)
	return !priv
}

// member instruments a property read: H.G(i, o).p.
func (r *rewriter) member(e *js.Member) {
	if _, ok := e.Object.(*js.Super); ok {
		if e.Computed {
			r.expr(e.Property)
		}
		return
	}
	r.readObject(e)
	if e.Computed {
		r.expr(e.Property)
	}
}

func (r *rewriter) readObject(e *js.Member) {
	if _, ok := e.Object.(*js.Super); ok {
		return
	}
	if id, ok := unparen(e.Object).(*js.Ident); ok && r.primitiveRef(id) || r.superseded[e] {
		// A name that only ever holds primitives: G would record nothing.
		// A superseded read (supersede.go): a later hook records the use.
		r.expr(e.Object)
		return
	}
	h := r.hole(e.Object.Pos())
	r.expr(e.Object)
	i := r.site(e.Span)
	if r.selfThis(e.Object) {
		r.fill(h, r.hk("Gt", i)+r.fn.self+", ")
	} else {
		r.fill(h, r.getHook(e, i))
	}
	r.ins(e.Object.EndPos(), ")")
	// The engine reports a named read at its name, or at the dot when the
	// object is a call, as G's is.
	if _, call := e.Object.(*js.Call); !call && !e.Computed && r.points != nil {
		r.remaps = append(r.remaps, [2]int32{r.next(e.Object.EndPos()), e.Property.Pos()})
	}
}

// selfThis reports whether o is this in a function whose frame knows its
// id (fnState.thisFrame).
func (r *rewriter) selfThis(o js.Expr) bool {
	if _, ok := o.(*js.This); !ok {
		return false
	}
	return r.fn != nil && r.fn.thisFrame && !r.opts.AllUses
}

// spine instruments an optional chain without splitting it: the links
// down to the innermost optional one stay as they are; only the object that
// optional link reads is wrapped in G; computed keys and arguments are
// instrumented as usual.
func (r *rewriter) spine(e js.Expr) {
	switch e := e.(type) {
	case *js.Member:
		switch {
		case hasOptional(e.Object):
			r.spine(e.Object)
		case e.Optional:
			r.readObject(e)
		default:
			r.expr(e.Object)
		}
		if e.Computed {
			r.expr(e.Property)
		}
	case *js.Call:
		if hasOptional(e.Callee) {
			r.spine(e.Callee)
		} else {
			r.expr(e.Callee)
		}
		r.exprs(e.Args)
	default:
		r.expr(e)
	}
}

// hasOptional reports whether an optional link lies below e in its chain.
func hasOptional(e js.Expr) bool {
	for {
		switch x := e.(type) {
		case *js.Member:
			if x.Optional {
				return true
			}
			e = x.Object
		case *js.Call:
			if x.Optional {
				return true
			}
			e = x.Callee
		default:
			return false
		}
	}
}

// keyArgs emits the key part of a member operand: for o.p the replacement
// of src[obj.End:end] by `, "p"` + tail; for o[k], ", " before k (in
// parentheses when k is a comma expression) and tail after it.
func (r *rewriter) keyArgs(m *js.Member, end int32, tail string) {
	if !m.Computed {
		r.rep(m.Object.EndPos(), end, ", "+r.str(m.Property.(*js.Ident))+tail)
		return
	}
	k := m.Property
	seq := isSeq(k)
	if seq {
		r.rep(m.Object.EndPos(), k.Pos(), ", (")
	} else {
		r.rep(m.Object.EndPos(), k.Pos(), ", ")
	}
	r.expr(k)
	if seq {
		tail = ")" + tail
	}
	r.rep(k.EndPos(), end, tail)
}

func (r *rewriter) call(e *js.Call) {
	if e.Optional {
		r.expr(e.Callee)
		r.exprs(e.Args)
		return
	}
	callee := unparen(e.Callee)
	switch c := callee.(type) {
	case *js.Super:
		if r.fn.derived && !r.fn.noTemps {
			// super(a) in a derived constructor's body →
			// H.Sp(i, __mt$f, super(a)): this, known from here on, is
			// DECLAREd in the constructor's frame and RETURNed at its exit.
			h := r.hole(e.Start)
			r.exprs(e.Args)
			i := r.site(e.Span)
			r.fill(h, r.hk("Sp", i), r.fn.self, ", ")
			r.ins(e.End, ")")
			return
		}
		r.exprs(e.Args)
		return
	case *js.Ident:
		if c.Name == "eval" && len(e.Args) > 0 {
			if _, spread := e.Args[0].(*js.Spread); !spread {
				if ref := r.ref(c); ref == nil || ref.Binding == nil {
					r.directEval(e)
					return
				}
			}
		}
		if r.inWith > 0 {
			// f() inside with may call o.f with this = o.
			r.exprs(e.Args)
			return
		}
	case *js.Member:
		if _, sup := c.Object.(*js.Super); !sup {
			r.methodCall(e, c)
			return
		}
		// super.m(): left as a call (the callee is entered with
		// FUNCTION_ENTER).
		r.expr(e.Callee)
		r.exprs(e.Args)
		return
	case *js.Chain:
		// (a?.b)(): this comes from the chain.
		r.spine(c.X)
		r.exprs(e.Args)
		return
	}
	h := r.hole(e.Start)
	r.expr(e.Callee)
	lp := r.find(e.Callee.EndPos(), '(')
	if len(e.Args) == 0 {
		r.rep(lp, lp+1, "")
	} else {
		r.rep(lp, lp+1, ", ")
	}
	r.exprs(e.Args)
	i := r.site(e.Span)
	r.fill(h, r.hk(arity("c", e.Args), i))
	// The engine's position of a call: its callee when a name, else "(".
	if _, ok := e.Callee.(*js.Ident); ok {
		r.point(i, e.Callee.Pos())
	} else {
		r.point(i, lp)
	}
}

// arityNames are the call hooks for 0..6 arguments without spread
// (docs/instrumentation.md §4): c0..c6, m0..m6, n0..n6.
var arityNames = map[string][maxArity + 1]string{
	"c": {"c0", "c1", "c2", "c3", "c4", "c5", "c6"},
	"m": {"m0", "m1", "m2", "m3", "m4", "m5", "m6"},
	"n": {"n0", "n1", "n2", "n3", "n4", "n5", "n6"},
}

// maxArity is the most arguments a call hook of its own takes.
const maxArity = 6

// arity returns the call hook for a call with these arguments: hook plus
// the argument count when there are at most maxArity and none is a
// spread, else hook itself (which takes any number).
func arity(hook string, args []js.Expr) string {
	if len(args) > maxArity {
		return hook
	}
	for _, a := range args {
		if _, ok := a.(*js.Spread); ok {
			return hook
		}
	}
	return arityNames[hook][len(args)]
}

// methodCall: o.m(a) → H.m(i, t = o, H.M(i+1, t, t.m), a), so that the
// order is JavaScript's: the base, the key, the lookup (performed by the
// program, at its own site with its own type feedback; M logs the use of
// the base at i+1 and passes the method on), the arguments, then the call
// (m, with this = the base). A base that reads the same twice (this, a
// declared variable) needs no temporary: H.m(i, o, H.M(i+1, o, o.m), a).
// Where no var can be declared (parameter lists, field initializers) the
// temporary is the parameter of an arrow applied in place, which keeps
// this, arguments, super and new.target:
// ((t) => H.m(i, t = o, H.M(i+1, t, t.m), a))().
//
// A private method, o.#m(a), is looked up in the instrumented code (no
// hook can read a private name), its object read through G:
// H.m(i, t = H.G(j, o), t.#m, a).
func (r *rewriter) methodCall(e *js.Call, m *js.Member) {
	_, priv := m.Property.(*js.PrivateName)
	base := r.stableBase(m.Object)
	temp, arrow := "", false
	switch {
	case base != "":
	case r.fn.noTemps:
		temp, arrow = Prefix+"b", true
	default:
		temp = r.allocTemp()
	}
	h := r.methodBase(e.Start, m, priv)
	lp := r.find(e.Callee.EndPos(), '(')
	var hk int
	tail := ")"
	if len(e.Args) > 0 {
		tail = "), "
	}
	if !m.Computed {
		hk = r.holeRep(m.Object.EndPos(), lp+1)
	} else {
		k := m.Property
		hk = r.holeRep(m.Object.EndPos(), k.Pos())
		r.expr(k)
		r.rep(k.EndPos(), lp+1, "]"+tail) // a computed key is never private
	}
	r.exprs(e.Args)
	if arrow {
		r.ins(e.End, ")()")
	}
	i := r.site(e.Span)
	j := 0
	if !priv {
		j = r.site(m.Span)
	}
	// The engine's positions: the property name (a computed key: "(" for
	// the call, "[" for the lookup); a failed lookup on a call's result,
	// the dot.
	if r.points != nil {
		_, onCall := m.Object.(*js.Call)
		switch {
		case m.Computed:
			r.point(i, lp)
			r.point(j, r.next(m.Object.EndPos()))
		case onCall:
			r.point(i, m.Property.Pos())
			r.point(j, r.next(m.Object.EndPos()))
		default:
			r.point(i, m.Property.Pos())
			r.point(j, m.Property.Pos())
		}
	}
	if temp != "" {
		base = temp
	}
	// The opening: [((t) => ]H.m(i, [t = ]
	b := r.scratch[:0]
	if arrow {
		b = append(b, "(("...)
		b = append(b, temp...)
		b = append(b, ") => "...)
	}
	b = append(b, r.hk(arity("m", e.Args), i)...)
	if temp != "" {
		b = append(b, temp...)
		b = append(b, " = "...)
	}
	r.fillBytes(h, b)
	// The lookup: , H.M(j, t, t.m), or , H.M(j, t, t[ before a computed
	// key; , t.#m for a private name.
	b, at := r.appendLookup(b[:0], m, base, j, priv)
	switch {
	case priv:
		if len(e.Args) > 0 {
			b = append(b, ", "...)
		}
	case !m.Computed:
		b = append(b, tail...)
	}
	r.lookupPoint(j, at)
	r.fillBytes(hk, b)
	r.scratch = b[:0]
	if temp != "" && !arrow {
		r.releaseTemps(1)
	}
}

// taggedCall instruments a tagged template as a call through the call
// hooks, its arguments made by the template itself:
//
//	f`a${x}`    →  H.ct(i, f, H.q`a${x}`)
//	o.f`a${x}`  →  H.mt(i, t = o, H.M(j, t, "f"), H.q`a${x}`)
//	o.#f`a`     →  H.mt(i, t = H.G(j, o), t.#f, H.q`a`)
//
// H.q returns its arguments as an array: the strings object of its site
// (one site per tagged template of the program, so the object is the same
// on every evaluation, as the program's own would be), then the
// substitutions; ct and mt call the tag with them, as c and m do. The order
// is JavaScript's: the tag (and a method's lookup), the substitutions,
// the call. It reports false, leaving the template native, for a chain as
// the tag (its this comes from the chain), super's members, a plain name
// inside with (its this may be the with object) and a member whose base
// needs a temporary where none can be declared.
func (r *rewriter) taggedCall(e *js.TaggedTemplate) bool {
	q := e.Quasi
	switch t := unparen(e.Tag).(type) {
	case *js.Chain:
		return false
	case *js.Ident:
		if r.inWith > 0 {
			return false
		}
	case *js.Member:
		if _, sup := t.Object.(*js.Super); sup {
			return false
		}
		if r.fn.noTemps && r.stableBase(t.Object) == "" {
			return false
		}
		r.memberTag(e, t)
		return true
	}
	h := r.hole(e.Start)
	r.expr(e.Tag)
	hq := r.holeRep(e.Tag.EndPos(), q.Start)
	r.exprs(q.Exprs)
	i := r.site(e.Span)
	r.fill(h, r.hk("ct", i))
	r.point(i, q.Start) // the template
	r.fill(hq, ", "+r.h+".q")
	r.ins(e.End, ")")
	return true
}

// memberTag is taggedCall for a member tag (methodCall's form).
func (r *rewriter) memberTag(e *js.TaggedTemplate, m *js.Member) {
	_, priv := m.Property.(*js.PrivateName)
	q := e.Quasi
	base := r.stableBase(m.Object)
	temp := ""
	if base == "" {
		temp = r.allocTemp()
	}
	h := r.methodBase(e.Start, m, priv)
	quote := r.h + ".q"
	var hk int
	if !m.Computed {
		hk = r.holeRep(m.Object.EndPos(), q.Start)
	} else {
		k := m.Property
		hk = r.holeRep(m.Object.EndPos(), k.Pos())
		r.expr(k)
		r.rep(k.EndPos(), q.Start, "]), "+quote) // a computed key is never private
	}
	r.exprs(q.Exprs)
	i := r.site(e.Span)
	j := 0
	if !priv {
		j = r.site(m.Span)
	}
	// The engine's positions: the template for the call, the property
	// name ("[" before a computed key) for the lookup.
	if r.points != nil {
		r.point(i, q.Start)
		if m.Computed {
			r.point(j, r.next(m.Object.EndPos()))
		} else {
			r.point(j, m.Property.Pos())
		}
	}
	if temp != "" {
		base = temp
	}
	b := append(r.scratch[:0], r.hk("mt", i)...)
	if temp != "" {
		b = append(b, temp...)
		b = append(b, " = "...)
	}
	r.fillBytes(h, b)
	b, at := r.appendLookup(b[:0], m, base, j, priv)
	switch {
	case priv:
		b = append(b, ", "...)
		b = append(b, quote...)
	case !m.Computed:
		b = append(b, "), "...)
		b = append(b, quote...)
	}
	r.lookupPoint(j, at)
	r.fillBytes(hk, b)
	r.scratch = b[:0]
	r.ins(e.End, ")")
	if temp != "" {
		r.releaseTemps(1)
	}
}

// methodBase instruments the object of a method call or member tag: a
// hole from start (parentheses around the member) to the object, then the
// object, read through G when the member is private (no hook makes its
// lookup). It returns the hole.
func (r *rewriter) methodBase(start int32, m *js.Member, priv bool) int {
	h := r.holeRep(start, m.Object.Pos())
	if priv {
		r.readObject(m)
	} else {
		r.expr(m.Object)
	}
	return h
}

// appendLookup appends the lookup of a method on base after the call's
// this: ", base.#m" for a private name, else ", H.M(j, base, base.m" (Mt
// on this with a frame) or, before a computed key, ", H.M(j, base, base[";
// the caller closes the key and M. The program reads the method itself, at
// a site of its own, so that its inline cache sees that site's objects and
// keys only (a lookup inside M shared one keyed load among every method
// call of the program: megamorphic as soon as a program called two
// methods). It also returns where in the appended text the engine reports
// a failed lookup (the name, or "["; -1 for a private name), for
// lookupPoint.
func (r *rewriter) appendLookup(b []byte, m *js.Member, base string, j int, priv bool) ([]byte, int) {
	b = append(b, ", "...)
	if priv {
		b = append(b, base...)
		b = append(b, '.')
		return append(b, r.text(m.Property)...), -1
	}
	if r.selfThis(m.Object) {
		b = append(b, r.hk("Mt", j)...)
		b = append(b, r.fn.self...)
		b = append(b, ", "...)
	} else {
		b = append(b, r.hkc("M", r.copyOf(m.Object, j), j)...)
	}
	b = append(b, base...)
	b = append(b, ", "...)
	b = append(b, base...)
	if !m.Computed {
		b = append(b, '.')
		at := len(b)
		return append(b, r.text(m.Property)...), at
	}
	at := len(b)
	return append(b, '['), at
}

// lookupPoint records where the engine reports a failed method lookup
// (or the caller's frame of a getter it runs): at offset at of the text
// about to be filled in (appendLookup), for the original's position of
// the lookup's hook j (its point).
func (r *rewriter) lookupPoint(j, at int) {
	if r.points == nil || at < 0 {
		return
	}
	if pos, ok := r.points[j]; ok {
		r.textPoints = append(r.textPoints, [2]int32{int32(len(r.buf) + at), pos})
	}
}

// stableBase returns the source text of a method call's base when reading
// it twice is the same as reading it once (this, a declared variable
// outside with and eval scopes), else "".
func (r *rewriter) stableBase(o js.Expr) string {
	switch o := o.(type) {
	case *js.This:
		return "this"
	case *js.Ident:
		ref := r.ref(o)
		if ref != nil && !ref.Dynamic && (ref.Binding != nil || r.prog.Goal == js.Script && r.info.Root.Lookup(o.Name) != nil) {
			return r.text(o)
		}
	}
	return ""
}

func (r *rewriter) directEval(e *js.Call) {
	r.expr(e.Callee)
	a := e.Args[0]
	h := r.hole(a.Pos())
	r.exprs(e.Args[:1])
	i := r.site(acorn(a))
	r.fill(h, r.hk("E", i))
	// The eval code is strict too when the caller is (1): the shim
	// instruments it so. The callee's value comes last: a call of eval is
	// a direct eval only when eval is the engine's own (a script's
	// function eval, a wrapper the program put in its place, are called
	// with the string as it is), which only the shim can tell.
	if r.strict {
		r.ins(a.EndPos(), ", 1, eval)")
	} else {
		r.ins(a.EndPos(), ", 0, eval)")
	}
	r.exprs(e.Args[1:])
}

func (r *rewriter) newExpr(e *js.New) {
	h := r.holeRep(e.Start, e.Callee.Pos())
	r.expr(e.Callee)
	if e.HasArgs {
		lp := r.find(e.Callee.EndPos(), '(')
		if len(e.Args) == 0 {
			r.rep(lp, lp+1, "")
		} else {
			r.rep(lp, lp+1, ", ")
		}
		r.exprs(e.Args)
	} else {
		r.ins(e.End, ")")
	}
	i := r.site(e.Span)
	r.fill(h, r.hk(arity("n", e.Args), i))
	r.point(i, e.Start) // "new"
}

// del: delete o.p → H.D(i, o, "p", strict).
func (r *rewriter) del(e *js.Unary) bool {
	m, ok := unparen(e.X).(*js.Member)
	if !ok || !instrumentable(m) {
		return false
	}
	i := r.site(e.Span)
	r.rep(e.Start, m.Object.Pos(), r.hk("D", i))
	r.expr(m.Object)
	r.keyArgs(m, e.End, ", "+r.strictArg()+")")
	return true
}

func (r *rewriter) assign(e *js.Assign) {
	switch t := unparenPattern(e.Target).(type) {
	case *js.Ident:
		r.assignIdent(e, t)
		return
	case *js.Member:
		logical := e.Op == "||=" || e.Op == "&&=" || e.Op == "??="
		if instrumentable(t) && (e.Op == "=" || !r.fn.noTemps || logical && !t.Computed && r.stableBase(t.Object) != "") {
			r.assignMember(e, t)
			return
		}
		if pn, ok := t.Property.(*js.PrivateName); ok && logical && r.privateLogical(e, t, pn) {
			return
		}
		if _, ok := t.Object.(*js.Super); ok && !t.Computed && (e.Op == "=" || logical) {
			r.superAssign(e, t, logical)
			return
		}
		r.pattern(e.Target)
		if pn, ok := t.Property.(*js.PrivateName); ok && e.Op == "=" {
			// o.#x = e → o.#x = H.Q(i, o, "#x", e, 0): the write stays
			// JavaScript's, Q logs its PUTFIELD (o read twice: stable
			// bases only).
			if o := r.stableBase(t.Object); o != "" {
				h := r.hole(e.Value.Pos())
				r.expr(e.Value)
				i := r.site(e.Span)
				r.fill(h, r.hk("Q", i), o, ", ", strconv.Quote("#"+pn.Name), ", ")
				r.ins(e.Value.EndPos(), ", ", r.instArg(t.Object), ")")
				return
			}
		}
		r.expr(e.Value)
		return
	}
	// Destructuring: the targets' writes are logged after the assignment,
	// which keeps its value in a temporary.
	if r.fn.noTemps {
		r.pattern(e.Target)
		r.expr(e.Value)
		return
	}
	ids := patternIdents(e.Target, nil)
	rs := restIdents(e.Target, nil)
	t := r.allocTemp()
	r.ins(e.Start, "("+t+" = (")
	r.pattern(e.Target)
	r.expr(e.Value)
	var b strings.Builder
	b.WriteString("), ")
	for _, id := range ids {
		i := r.site(acorn(e.Value))
		b.WriteString(r.hk("W", i) + r.varStr(id) + ", " + r.boundValue(rs, id) + ", void 0), ")
	}
	b.WriteString(t + ")")
	r.ins(e.End, b.String())
	r.releaseTemps(1)
}

func (r *rewriter) assignIdent(e *js.Assign, t *js.Ident) {
	val := e.Value
	if r.primitiveRef(t) {
		// The binding only ever holds primitives (scope.Binding.Primitive):
		// W would log nothing, so there is no W.
		r.expr(val)
		return
	}
	name := r.text(t)
	fn := r.str(t)     // the name of an anonymous function assigned
	str := r.varStr(t) // the variable's name in the trace
	switch e.Op {
	case "=":
		h := r.hole(val.Pos())
		r.exprNamed(val, fn)
		i := r.site(acorn(val))
		r.fill(h, r.hk("W", i), str, ", ")
		r.ins(val.EndPos(), ", ", r.oldValue(t), ")")
	case "||=", "&&=", "??=":
		r.ins(e.Start, "(")
		h := r.holeRep(e.Target.EndPos(), val.Pos())
		r.exprNamed(val, fn)
		i := r.site(acorn(val))
		r.fill(h, " "+e.Op[:2]+" ("+name+" = "+r.hk("W", i)+str+", ")
		r.ins(val.EndPos(), ", "+name+")))")
	default:
		op := e.Op[:len(e.Op)-1]
		h := r.holeRep(e.Target.EndPos(), val.Pos())
		r.expr(val)
		i := r.site(acorn(val))
		r.fill(h, " = "+r.hk("W", i)+str+", "+name+" "+op+" (")
		r.ins(val.EndPos(), "), "+name+")")
	}
}

// limitProp reports a property stackTraceLimit (o.stackTraceLimit,
// o["stackTraceLimit"]): the engine counts the shim's frames in
// Error.stackTraceLimit, so the shim keeps the real one raised and the
// program reads and writes its own through hooks of their own, Gl and Pl
// (runtime-shim/src/stacks.js). A link after an optional one
// (o?.E.stackTraceLimit, which no hook wraps: it would not short-circuit),
// other computed keys and destructuring read the raised value.
func limitProp(m *js.Member) bool {
	if m.Computed {
		s, ok := unparen(m.Property).(*js.StringLit)
		return ok && s.Value == "stackTraceLimit"
	}
	id, ok := m.Property.(*js.Ident)
	return ok && id.Name == "stackTraceLimit"
}

// getHook is the use hook that reads m's object: G's copy for site i, or
// Gl (limitProp).
func (r *rewriter) getHook(m *js.Member, i int) string {
	if limitProp(m) {
		return r.hk("Gl", i)
	}
	return r.hkc("G", r.copyOf(m.Object, i), i)
}

// putHook is the write hook of member m: P's copy for site i, or Pl
// (limitProp).
func (r *rewriter) putHook(m *js.Member, i int) string {
	if limitProp(m) {
		return r.hk("Pl", i)
	}
	return r.hkc("P", r.copyOf(m.Object, i), i)
}

// memberRead renders the read of the member in a compound operation on
// the temporaries holding its object and key.
func (r *rewriter) memberRead(m *js.Member, j int, obj, key string) string {
	g := r.getHook(m, j) + obj + ")"
	if m.Computed {
		return g + "[" + key + "]"
	}
	return g + "." + r.text(m.Property)
}

func (r *rewriter) assignMember(e *js.Assign, m *js.Member) {
	val := e.Value
	s := r.storeArg(m)
	if e.Op == "=" && m.Computed && !r.fn.noTemps && r.inWith == 0 && !r.opts.NoCopies && !limitProp(m) && !r.selfThis(m.Object) {
		r.quickElement(e, m, s)
		return
	}
	if e.Op == "=" {
		if r.initThis(m.Object) {
			// H.P(i, H.Qt(i, this), "p", e, s)
			h := r.holeRep(e.Start, m.Object.EndPos())
			r.keyArgs(m, val.Pos(), ", ")
			i := r.storedValue(e, m)
			r.fill(h, r.putHook(m, i), r.hk("Qt", i), "this)")
			r.ins(val.EndPos(), ", "+s+")")
			return
		}
		h := r.holeRep(e.Start, m.Object.Pos())
		r.expr(m.Object)
		r.keyArgs(m, val.Pos(), ", ")
		i := r.storedValue(e, m)
		if r.selfThis(m.Object) {
			r.fill(h, r.hk("Pt", i)+r.fn.self+", ")
		} else {
			r.fill(h, r.putHook(m, i))
		}
		r.ins(val.EndPos(), ", "+s+")")
		return
	}
	i := r.site(e.Span)
	j := r.site(e.Span)
	if r.points != nil {
		r.point(i, r.next(m.EndPos())) // the operator
	}
	key := ""
	if !m.Computed {
		key = r.str(m.Property.(*js.Ident))
	}
	logical := e.Op == "||=" || e.Op == "&&=" || e.Op == "??="
	if logical && r.fn.noTemps {
		// No temporary here (a field initializer): a stable base read
		// twice, o.p ||= e → (H.G(j, o).p || H.P(i, o, "p", e, s)).
		o := r.stableBase(m.Object)
		if r.initThis(m.Object) {
			o = r.hk("Qt", i) + "this)"
		}
		r.rep(e.Start, m.Object.Pos(), "("+r.getHook(m, j))
		r.expr(m.Object)
		r.rep(m.Object.EndPos(), val.Pos(), ")."+r.text(m.Property)+" "+e.Op[:2]+" "+r.putHook(m, i)+o+", "+key+", ")
		r.expr(val)
		r.ins(val.EndPos(), ", "+s+"))")
		return
	}
	t1 := r.allocTemp()
	t2 := ""
	n := 1
	if m.Computed {
		t2 = r.allocTemp()
		key = t2
		n++
	}
	if logical {
		// (H.G(j, t1 = o).p || H.P(i, t1, "p", e, s))
		r.rep(e.Start, m.Object.Pos(), "("+r.getHook(m, j)+t1+" = ")
		r.expr(m.Object)
		tail := " " + e.Op[:2] + " " + r.putHook(m, i) + t1 + ", " + key + ", "
		if m.Computed {
			k := m.Property
			r.rep(m.Object.EndPos(), k.Pos(), ")["+t2+" = (")
			r.expr(k)
			r.rep(k.EndPos(), val.Pos(), ")]"+tail)
		} else {
			r.rep(m.Object.EndPos(), val.Pos(), ")."+r.text(m.Property)+tail)
		}
		r.expr(val)
		r.ins(val.EndPos(), ", "+s+"))")
	} else {
		// H.P(i, t1 = o, "p", H.G(j, t1).p op (e), s)
		op := e.Op[:len(e.Op)-1]
		r.rep(e.Start, m.Object.Pos(), r.putHook(m, i)+t1+" = ")
		r.expr(m.Object)
		read := r.memberRead(m, j, t1, t2) + " " + op + " ("
		if m.Computed {
			k := m.Property
			r.rep(m.Object.EndPos(), k.Pos(), ", "+t2+" = (")
			r.expr(k)
			r.rep(k.EndPos(), val.Pos(), "), "+read)
		} else {
			r.rep(m.Object.EndPos(), val.Pos(), ", "+key+", "+read)
		}
		r.expr(val)
		r.ins(val.EndPos(), "), "+s+")")
	}
	r.releaseTemps(n)
}

// privateLogical instruments a logical assignment to a private field,
// o.#x op= e → (o.#x op (o.#x = H.Q(i, o, "#x", e, 0))) on a stable base,
// ((t = o).#x op (t.#x = H.Q(i, t, "#x", e, 0))) on any other: the
// PUTFIELD is logged only when the assignment happens. It reports false
// where no temporary can be declared (a field initializer's other bases).
func (r *rewriter) privateLogical(e *js.Assign, m *js.Member, pn *js.PrivateName) bool {
	val := e.Value
	o := r.stableBase(m.Object)
	t := o
	if o == "" {
		if r.fn.noTemps {
			return false
		}
		t = r.allocTemp()
		defer r.releaseTemps(1)
	}
	name := r.text(m.Property)
	h := r.holeRep(e.Start, m.Object.Pos())
	r.expr(m.Object)
	hv := r.holeRep(m.Object.EndPos(), val.Pos())
	r.expr(val)
	i := r.site(e.Span)
	open := "("
	if o == "" {
		open = "((" + t + " = "
	}
	r.fill(h, open)
	head := "." + name + " " + e.Op[:2] + " (" + t + "."
	if o == "" {
		head = ")" + head
	}
	if r.points != nil {
		// A failed write is reported at the private name, the original's.
		r.textPoints = append(r.textPoints, [2]int32{int32(len(r.buf) + len(head)), m.Property.Pos()})
	}
	r.fill(hv, head, name, " = ", r.hk("Q", i), t, ", ", strconv.Quote("#"+pn.Name), ", ")
	r.ins(val.EndPos(), ", ", r.instArg(m.Object), ")))")
	return true
}

// initThis reports that o is this in an instance field's initializer,
// which may have no id yet: a write to it gives it one under construction
// (Qt), as the field's own Q does.
func (r *rewriter) initThis(o js.Expr) bool {
	_, ok := o.(*js.This)
	return ok && r.fn != nil && r.fn.instInit
}

// instArg is Q's last argument for a private write to o: 1 where o is this
// in an instance field's initializer (initThis), else 0.
func (r *rewriter) instArg(o js.Expr) string {
	if r.initThis(o) {
		return "1"
	}
	return "0"
}

// superAssign instruments a write to a super property with a static key,
// which JavaScript performs on this (the receiver) unless a setter of the
// home object's prototype chain takes it: super.p = e → H.Ps(i, this, "p",
// super.p = e), and super.p op= e → (super.p op H.Ps(i, this, "p", super.p
// = e)) for the logical operators. Ps logs the PUTFIELD after the write,
// when this owns p as data holding the value.
func (r *rewriter) superAssign(e *js.Assign, m *js.Member, logical bool) {
	val := e.Value
	key := r.str(m.Property.(*js.Ident))
	h := r.hole(e.Start)
	var hv int
	if logical {
		hv = r.holeRep(e.Target.EndPos(), val.Pos())
	}
	r.expr(val)
	i := r.site(e.Span)
	ps := r.hk("Ps", i) + "this, " + key + ", "
	if logical {
		r.fill(h, "(")
		head := " " + e.Op[:2] + " " + ps + r.text(m) + " "
		if r.points != nil {
			// A failed write is reported at the operator, the original's.
			r.textPoints = append(r.textPoints, [2]int32{int32(len(r.buf) + len(head)), r.next(e.Target.EndPos())})
		}
		r.fill(hv, head, "= ")
		r.ins(val.EndPos(), "))")
	} else {
		r.fill(h, ps)
		r.ins(val.EndPos(), ")")
	}
}

// storedValue instruments the value of an assignment e to member m and
// returns the write's site, mapped to the operator (Options.PosMap).
func (r *rewriter) storedValue(e *js.Assign, m *js.Member) int {
	if r.points != nil {
		r.inferName(m, e.Value)
	}
	r.expr(e.Value)
	i := r.site(e.Span)
	if r.points != nil {
		r.point(i, r.next(m.EndPos())) // the operator
	}
	return i
}

// quickElement instruments an element write o[k] = v that the program
// performs itself when the shim finds it elided (docs/instrumentation.md
// §4, Pq):
//
//	((t4 = H.Pq(i, t1 = o, t2 = k, t3 = v)) !== 0 ? (t1[t2] = t3, H.Pu(i, t4), t3) : H.P(i, t1, t2, t3, s))
//
// The store then has its site's own type feedback, where P's store is one
// function's for every site of the copy.
func (r *rewriter) quickElement(e *js.Assign, m *js.Member, s string) {
	val := e.Value
	t1, t2, t3, t4 := r.allocTemp(), r.allocTemp(), r.allocTemp(), r.allocTemp()
	h := r.holeRep(e.Start, m.Object.Pos())
	r.expr(m.Object)
	k := m.Property
	open, cl := "", ""
	if isSeq(k) {
		open, cl = "(", ")"
	}
	r.rep(m.Object.EndPos(), k.Pos(), ", "+t2+" = "+open)
	r.expr(k)
	r.rep(k.EndPos(), val.Pos(), cl+", "+t3+" = ")
	i := r.storedValue(e, m)
	c := r.copyOf(m.Object, i)
	r.fill(h, "(("+t4+" = "+r.hkc("Pq", c, i)+t1+" = ")
	head := ")) !== 0 ? (" + t1 + "[" + t2 + "] "
	if r.points != nil {
		// The store's errors are reported at its "=", the original's.
		r.textPoints = append(r.textPoints, [2]int32{int32(len(r.buf) + len(head)), r.next(m.EndPos())})
	}
	r.ins(val.EndPos(), head, "= ", t3, ", ", r.hk("Pu", i), t4, "), ", t3, ") : ", r.hk("Pm", i), t1, ", ", t2, ", ", t3, ", ", s, "))")
	r.releaseTemps(4)
}

func (r *rewriter) update(e *js.Update) {
	switch t := unparen(e.X).(type) {
	case *js.Ident:
		// Not a W: MemInsight's Jalangi configuration leaves x++ alone
		// (its traces map no site to it).
		return
	case *js.Member:
		if instrumentable(t) && !r.fn.noTemps {
			r.updateMember(e, t)
			return
		}
	}
	r.pattern(e.X.(js.Pattern))
}

func (r *rewriter) updateMember(e *js.Update, m *js.Member) {
	i := r.site(e.Span)
	j := r.site(e.Span)
	s := r.storeArg(m)
	t1 := r.allocTemp()
	t2 := ""
	n := 1
	if m.Computed {
		t2 = r.allocTemp()
		n++
	}
	t3 := r.allocTemp()
	n++
	key := t2
	if !m.Computed {
		key = r.str(m.Property.(*js.Ident))
	}
	if e.Prefix {
		// H.P(i, t1 = o, "p", (t3 = H.G(j, t1).p, ++t3), s)
		r.rep(e.Start, m.Object.Pos(), r.putHook(m, i)+t1+" = ")
		r.expr(m.Object)
		tail := "(" + t3 + " = " + r.memberRead(m, j, t1, t2) + ", " + e.Op + t3 + "), " + s + ")"
		if m.Computed {
			k := m.Property
			r.rep(m.Object.EndPos(), k.Pos(), ", "+t2+" = (")
			r.expr(k)
			r.rep(k.EndPos(), e.End, "), "+tail)
		} else {
			r.rep(m.Object.EndPos(), e.End, ", "+key+", "+tail)
		}
	} else {
		// (t3 = H.G(j, t1 = o).p, t4 = t3++, H.P(i, t1, "p", t3, s), t4)
		t4 := r.allocTemp()
		n++
		r.rep(e.Start, m.Object.Pos(), "("+t3+" = "+r.getHook(m, j)+t1+" = ")
		r.expr(m.Object)
		tail := ", " + t4 + " = " + t3 + e.Op + ", " + r.putHook(m, i) + t1 + ", " + key + ", " + t3 + ", " + s + "), " + t4 + ")"
		if m.Computed {
			k := m.Property
			r.rep(m.Object.EndPos(), k.Pos(), ")["+t2+" = (")
			r.expr(k)
			r.rep(k.EndPos(), e.End, ")]"+tail)
		} else {
			r.rep(m.Object.EndPos(), e.End, ")."+r.text(m.Property)+tail)
		}
	}
	r.releaseTemps(n)
}

// inferName records, for a function literal without a name stored by a
// member assignment ("o.m = function () {}"), the name V8 infers for it
// from the target ("o.m"; "Foo.prototype.m" is "Foo.m", "this.m" is "m"):
// the name stack frames of the function show, which the hooks around the
// literal hide from V8 (Options.PosMap; posmap.go).
func (r *rewriter) inferName(m *js.Member, val js.Expr) {
	// (V8 infers no name through parentheses.)
	switch f := val.(type) {
	case *js.FuncExpr:
		if f.Name != nil {
			return
		}
	case *js.Arrow:
	default:
		return
	}
	var parts []string
	var cur js.Expr = m
	for {
		switch x := cur.(type) {
		case *js.Member:
			id, ok := x.Property.(*js.Ident)
			if x.Computed || !ok {
				return
			}
			if id.Name != "prototype" {
				parts = append(parts, id.Name)
			}
			cur = x.Object
			continue
		case *js.Ident:
			parts = append(parts, x.Name)
		case *js.This:
		default:
			return
		}
		break
	}
	if len(parts) == 0 {
		return
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	r.names = append(r.names, inferred{val.Pos(), strings.Join(parts, ".")})
}
