package instrument

import (
	js "github.com/memtrace/memtrace/instrument/js"
)

// Calls in optional chains.
//
// A call after an optional link (a?.b(x), a.f?.(), a?.b.c(d).e) goes
// through the call hooks like any other call: natives called there get
// their models (a?.push(o) adds its edge), and a callee that is not a
// function gets V8's message naming the program's text. The hooks are
// plain calls, which cannot short-circuit the rest of the chain, so the
// chain becomes conditionals over temporaries, one per optional link:
//
//	a?.b(x).c  →  ((t1 = a) === null || t1 === void 0 ? void 0 :
//	               H.G(k, H.m1(i, t1, H.Mk(j, t1, "b"), x)).c)
//	o.f?.(x)   →  ((t2 = H.Mk(j, t1 = o, "f")) === null || t2 === void 0 ? void 0 :
//	               H.m1(i, t1, t2, x))
//
// (=== null || === void 0, not == null: document.all is not nullish.) The
// root, computed keys and arguments are instrumented in place and keep
// their order: every temporary is read before the next of them runs, and
// the chain's temporaries are the function's own for the whole chain, so
// chains nested in keys and arguments use others. Chains without a call
// after their first optional link keep the form they had (spine): a read
// a?.b needs no conditional. So do chains whose this a call must keep from
// the chain itself (a chain as a callee, (a?.b)(), or as a tag, under
// delete, inside with, in parameter lists and field initializers, where no
// temporary can be declared, and chains on super). A private method is
// looked up in the code, its base's use logged by G:
//
//	a?.#m(x)   →  ((t1 = a) === null || t1 === void 0 ? void 0 :
//	               H.m1(i, H.G(j, t1), t1.#m, x))

// chainLinks returns the links of an optional chain from its root: the
// members and calls in evaluation order, and the root expression.
func chainLinks(e js.Expr) ([]js.Expr, js.Expr) {
	var links []js.Expr
	for {
		switch x := e.(type) {
		case *js.Member:
			links = append(links, x)
			e = x.Object
			continue
		case *js.Call:
			links = append(links, x)
			e = x.Callee
			continue
		}
		break
	}
	for i, j := 0, len(links)-1; i < j; i, j = i+1, j-1 {
		links[i], links[j] = links[j], links[i]
	}
	return links, e
}

func optionalLink(l js.Expr) bool {
	switch l := l.(type) {
	case *js.Member:
		return l.Optional
	case *js.Call:
		return l.Optional
	}
	return false
}

// chainPiece is a piece of a rewritten chain: generated text, or one of
// the chain's regions (the root, a computed key, an argument), which keep
// their own text and instrumentation.
type chainPiece struct {
	s     string
	reg   int // the index of the region, when isReg
	isReg bool
}

// chainExpr instruments the optional chain c in a value context.
func (r *rewriter) chainExpr(c *js.Chain) {
	links, root := chainLinks(c.X)
	first := -1
	for i, l := range links {
		if optionalLink(l) {
			first = i
			break
		}
	}
	if first < 0 || r.fn.noTemps || r.inWith > 0 {
		r.spine(c.X)
		return
	}
	if _, ok := root.(*js.Super); ok {
		r.spine(c.X)
		return
	}
	calls := false
	for _, l := range links[first:] {
		if _, ok := l.(*js.Call); ok {
			calls = true
		}
	}
	if !calls {
		r.spine(c.X)
		return
	}
	// The ops start at the first optional link, or at the member an
	// optional call calls (its base is the call's this).
	start := first
	if _, call := links[first].(*js.Call); call && first > 0 {
		if _, ok := links[first-1].(*js.Member); ok {
			start = first - 1
		}
	}
	var rootNode js.Expr = root
	if start > 0 {
		rootNode = links[start-1]
	}
	ops := links[start:]

	// The regions, in source order: the root, then each op's computed key
	// or arguments.
	regions := []js.Expr{rootNode}
	for _, l := range ops {
		switch l := l.(type) {
		case *js.Member:
			if l.Computed {
				regions = append(regions, l.Property)
			}
		case *js.Call:
			regions = append(regions, l.Args...)
		}
	}
	// Temporaries: one per optional link, one per method call's base.
	nt := 0
	for k, l := range ops {
		if optionalLink(l) {
			nt++
		}
		if _, ok := l.(*js.Call); ok && k > 0 {
			if m, ok := ops[k-1].(*js.Member); ok && !m.Optional {
				nt++ // a method call's base, unless the optional member's temporary holds it
			}
		}
	}
	temps := make([]string, nt)
	for k := range temps {
		temps[k] = r.allocTemp()
	}

	// Visit the regions (their edits in source order), with a hole before
	// the root and in place of the text between two regions and after the
	// last.
	holes := make([]int, 0, len(regions)+1)
	holes = append(holes, r.hole(rootNode.Pos()))
	r.expr(rootNode)
	prev := rootNode.EndPos()
	for _, g := range regions[1:] {
		holes = append(holes, r.holeRep(prev, g.Pos()))
		r.expr(g)
		prev = g.EndPos()
	}
	holes = append(holes, r.holeRep(prev, c.End))

	// Build the text.
	reg := 0
	next := func() chainPiece { reg++; return chainPiece{reg: reg, isReg: true} }
	ti := 0
	temp := func() string { t := temps[ti]; ti++; return t }
	var pre []chainPiece
	v := []chainPiece{{reg: 0, isReg: true}}
	test := func(val []chainPiece) string {
		t := temp()
		pre = append(pre, chainPiece{s: "(" + t + " = "})
		pre = append(pre, val...)
		pre = append(pre, chainPiece{s: ") === null || " + t + " === void 0 ? void 0 : "})
		return t
	}
	single := func(val []chainPiece) string {
		if len(val) == 1 && val[0].s != "" {
			return val[0].s
		}
		return ""
	}
	text := func(s string) chainPiece { return chainPiece{s: s} }
	args := func(call *js.Call, out []chainPiece) []chainPiece {
		for range call.Args {
			out = append(out, text(", "), next())
		}
		return append(out, text(")"))
	}
	for k := 0; k < len(ops); k++ {
		switch l := ops[k].(type) {
		case *js.Member:
			if l.Optional {
				v = []chainPiece{text(test(v))}
			}
			if k+1 < len(ops) {
				if call, ok := ops[k+1].(*js.Call); ok {
					// A method call: the base stays for this.
					k++
					base := single(v)
					var assign []chainPiece
					if base == "" {
						base = temp()
						assign = append([]chainPiece{text(base + " = ")}, v...)
					} else {
						assign = []chainPiece{text(base)}
					}
					i := r.site(call.Span)
					j := r.site(l.Span)
					hook := r.hk(arity("m", call.Args), i)
					// The engine's positions: "(" of an optional call
					// ("?.("), else the name, or "(" after a computed key.
					if r.points != nil {
						switch {
						case call.Optional:
							r.point(i, r.next(r.next(l.EndPos())+2))
						case !l.Computed:
							r.point(i, l.Property.Pos())
						default:
							r.point(i, r.next(l.EndPos()))
						}
						if _, onCall := l.Object.(*js.Call); onCall && !l.Optional {
							r.point(j, r.next(l.Object.EndPos()))
						} else if !l.Computed {
							r.point(j, l.Property.Pos())
						}
					}
					if _, priv := l.Property.(*js.PrivateName); priv {
						// No hook reads a private name: the base's use
						// through G, the lookup in the code:
						// H.m(i, H.G(j, t = base), t.#m, args).
						this := append([]chainPiece{text(r.hkc("G", r.copyOf(l.Object, j), j))}, assign...)
						this = append(this, text(")"))
						lookup := base + "." + r.text(l.Property)
						if call.Optional {
							// (f = (H.G(j, t = base), t.#m)) tested, then H.m(i, t, f, args).
							f := test(append(append([]chainPiece{text("(")}, this...), text(", "+lookup+")")))
							v = args(call, []chainPiece{text(hook + base + ", " + f)})
						} else {
							out := append([]chainPiece{text(hook)}, this...)
							v = args(call, append(out, text(", "+lookup)))
						}
						continue
					}
					var key []chainPiece
					if !l.Computed {
						key = []chainPiece{text(r.str(l.Property.(*js.Ident)))}
					} else if isSeq(l.Property) {
						key = []chainPiece{text("("), next(), text(")")}
					} else {
						key = []chainPiece{next()}
					}
					if call.Optional {
						// (f = H.Mk(j, t = base, key)) tested, then H.m(i, t, f, args).
						lookup := append([]chainPiece{text(r.hk("Mk", j))}, assign...)
						lookup = append(lookup, text(", "))
						lookup = append(lookup, key...)
						lookup = append(lookup, text(")"))
						f := test(lookup)
						v = args(call, []chainPiece{text(hook + base + ", " + f)})
					} else {
						// H.m(i, t = base, H.Mk(j, t, key), args).
						out := append([]chainPiece{text(hook)}, assign...)
						out = append(out, text(", "+r.hk("Mk", j)+base+", "))
						out = append(out, key...)
						out = append(out, text(")"))
						v = args(call, out)
					}
					continue
				}
			}
			g := r.site(l.Span)
			out := append([]chainPiece{text(r.hkc("G", r.copyOf(l.Object, g), g))}, v...)
			if !l.Computed {
				out = append(out, text(")."+r.text(l.Property)))
			} else {
				out = append(out, text(")["), next(), text("]"))
			}
			v = out
		case *js.Call:
			if l.Optional {
				v = []chainPiece{text(test(v))}
			}
			i := r.site(l.Span)
			if r.points != nil {
				switch _, name := l.Callee.(*js.Ident); {
				case l.Optional:
					r.point(i, r.next(r.next(l.Callee.EndPos())+2))
				case name:
					r.point(i, l.Callee.Pos())
				default:
					r.point(i, r.next(l.Callee.EndPos()))
				}
			}
			out := append([]chainPiece{text(r.hk(arity("c", l.Args), i))}, v...)
			v = args(l, out)
		}
	}
	all := append([]chainPiece{text("(")}, pre...)
	all = append(all, v...)
	all = append(all, text(")"))

	// Between the regions: the texts of the holes.
	var b []byte
	at := 0
	for _, p := range all {
		if !p.isReg {
			b = append(b, p.s...)
			continue
		}
		if p.reg != at {
			panic("instrument: optional chain regions out of order")
		}
		r.fill(holes[at], string(b))
		b = b[:0]
		at++
	}
	if at != len(regions) {
		panic("instrument: optional chain regions missing")
	}
	r.fill(holes[at], string(b))
	r.releaseTemps(nt)
}
