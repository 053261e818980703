package scope

import js "github.com/memtrace/memtrace/instrument/js"

// Bindings that only ever hold primitives.
//
// A write to such a binding can never store an object nor overwrite one,
// so a tracer that logs writes of objects (MemInsight's WRITE entries: an
// object stored, or an object overwritten) has nothing to log there and
// need not watch it. Numeric code is full of them: counters, accumulators,
// temporaries of arithmetic.
//
// The rule is sound by construction: a binding is Primitive when
//   - it is a var, let or const of a function, module or CommonJS scope
//     (not a script's top level, whose vars live on the global object that
//     any script may write; not a parameter, whose value comes from the
//     caller; not a catch parameter, function, class or import);
//   - no direct eval or with can reach it (its function and every function
//     nested in it are free of both), and no reference to it is dynamic;
//   - nothing binds it but plain stores: no destructuring, no for-of, no
//     Annex B function hoisting, no function declaration of the same name;
//   - every store to it stores a value the analysis can tell is primitive:
//     for-in keys, ++ and --, compound arithmetic (+=, -=, ... all give
//     numbers, bigints or strings), and for =, ||=, &&=, ??= and
//     initializers an expression that is primitive by its form: literals
//     other than regexps, untagged templates, unary and binary operators
//     other than && || ??, which give primitives whatever their operands;
//     && || ?? and ?: whose result operands are primitive; the last element
//     of a comma expression; assignments of such values; the global
//     undefined, NaN and Infinity (read-only); and other Primitive
//     bindings (a fixed point: bindings start Primitive and lose it).
//
// Everything else (property reads, calls, new, this, parameters, yield,
// await) may be an object.
//
// One kind of parameter is Primitive from a point on: asm.js and the
// numeric code compiled like it coerce each parameter in the function's
// first statements (p = p | 0; q = +q), after which it holds a number. A
// parameter of a function with simple parameters, assigned in the run of
// such statements that opens its body (after its directives) a value
// that is primitive by its form alone, is Primitive from the end of that
// statement (Binding.PrimFrom) when it also meets the rules above and
// its function does not use arguments (whose elements alias sloppy
// functions' parameters). The prologue runs before anything else of the
// body, so every later reference, also from closures made there, sees a
// primitive; the coercion itself still writes over the caller's value,
// which may be an object.

type storeKind uint8

const (
	storePrim  storeKind = iota + 1 // a primitive whatever the operands
	storeValue                      // the value of an expression
)

// store is one write of a plain name: the write reference's index in
// Refs (-1 for a declarator's initializer, whose binding is b), and, for
// storeValue, the expression whose value is stored, with the range of
// Refs its own references occupy.
type store struct {
	ref      int
	b        *Binding
	kind     storeKind
	value    js.Expr
	from, to int
}

// targetStores records what the assignment target p, whose references
// start at Refs[from], stores: prim, or the store st describes, when p is
// a plain name; a pattern records nothing, so its names are not Primitive.
func (a *analyzer) targetStores(p js.Pattern, from int, prim bool, st *store) {
	for {
		pp, ok := p.(*js.Paren)
		if !ok {
			break
		}
		t, ok := pp.X.(js.Pattern)
		if !ok {
			return
		}
		p = t
	}
	if _, ok := p.(*js.Ident); !ok || from >= len(a.in.Refs) {
		return
	}
	switch {
	case prim:
		a.stores = append(a.stores, store{ref: from, kind: storePrim})
	case st != nil:
		s := *st
		s.ref = from
		a.stores = append(a.stores, s)
	}
}

// patternNotPrimitive marks the names a binding pattern (or a name a loop
// stores anything in) declares in s.
func (a *analyzer) patternNotPrimitive(p js.Pattern, s *Scope) {
	switch p := p.(type) {
	case *js.Ident:
		if b := s.Lookup(p.Name); b != nil {
			b.nonPrim = true
		}
	case *js.ArrayPattern:
		for _, e := range p.Elems {
			if e != nil {
				a.patternNotPrimitive(e, s)
			}
		}
	case *js.ObjectPattern:
		for _, prop := range p.Props {
			switch prop := prop.(type) {
			case *js.Property:
				if v, ok := prop.Value.(js.Pattern); ok {
					a.patternNotPrimitive(v, s)
				}
			case *js.RestElement:
				a.patternNotPrimitive(prop.Target, s)
			}
		}
	case *js.AssignPattern:
		a.patternNotPrimitive(p.Target, s)
	case *js.RestElement:
		a.patternNotPrimitive(p.Target, s)
	}
}

// primitives computes Binding.Primitive, once references are resolved.
func (a *analyzer) primitives() {
	any := false
	for _, s := range a.in.Scopes {
		if s.Kind == GlobalScope {
			continue
		}
		f := s.Func
		clean := f != nil && !f.HasEval && !f.HasWith && !s.Dynamic
		for _, b := range s.Bindings {
			switch b.Kind {
			case Var, Let, Const:
				b.Primitive = clean && !b.nonPrim
			case Param:
				b.Primitive = clean && !b.nonPrim && b.PrimFrom > 0 && !f.UsesArguments
			default:
				b.Primitive = false
			}
			if !b.Primitive {
				b.PrimFrom = 0
			}
			any = any || b.Primitive
		}
	}
	if !any {
		return
	}
	refs := a.in.Refs
	stored := make([]bool, len(refs))
	for i := range a.stores {
		if r := a.stores[i].ref; r >= 0 {
			stored[r] = true
			a.stores[i].b = refs[r].Binding
		}
	}
	for i := range refs {
		r := &refs[i]
		if r.Write && r.Binding != nil && r.Binding.Primitive && (r.Dynamic || !stored[i]) {
			r.Binding.Primitive = false
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range a.stores {
			st := &a.stores[i]
			if st.b == nil || !st.b.Primitive || st.kind == storePrim {
				continue
			}
			if !a.primExpr(st.value, st) {
				st.b.Primitive = false
				changed = true
			}
		}
	}
	a.stores, a.refIndex = nil, nil
}

// primExpr reports that e's value is primitive by its form; st gives the
// references of the stored expression e is part of (nil: no name read
// counts as primitive).
func (a *analyzer) primExpr(e js.Expr, st *store) bool {
	switch e := e.(type) {
	case *js.Paren:
		return a.primExpr(e.X, st)
	case *js.NumLit, *js.StringLit, *js.BoolLit, *js.NullLit, *js.BigIntLit, *js.Template:
		return true
	case *js.Unary, *js.Update:
		return true
	case *js.Binary:
		// a && b && c && ...: the left operands in a loop (a chain is as
		// deep as it is long).
		for {
			switch e.Op {
			case "&&", "||", "??":
			default:
				return true
			}
			if !a.primExpr(e.Y, st) {
				return false
			}
			x, ok := e.X.(*js.Binary)
			if !ok {
				return a.primExpr(e.X, st)
			}
			e = x
		}
	case *js.Cond:
		return a.primExpr(e.Yes, st) && a.primExpr(e.No, st)
	case *js.Seq:
		return len(e.List) > 0 && a.primExpr(e.List[len(e.List)-1], st)
	case *js.Assign:
		if e.Op == "=" || e.Op == "||=" || e.Op == "&&=" || e.Op == "??=" {
			// A store to a binding still Primitive stores a primitive
			// (its own store is checked too; the fixed point undoes this
			// if it is not): so a = b = c = ... is not walked again for
			// every store of the chain (quadratic, cubic with ||=).
			if id, ok := e.Target.(*js.Ident); ok {
				if r := a.refOf(id, st); r != nil && !r.Dynamic && r.Binding != nil && r.Binding.Primitive && r.Binding.PrimFrom == 0 {
					return true
				}
			}
		}
		switch e.Op {
		case "=":
			return a.primExpr(e.Value, st)
		case "||=", "&&=", "??=":
			return a.primTarget(e.Target, st) && a.primExpr(e.Value, st)
		}
		return true
	case *js.Ident:
		return a.primIdent(e, st)
	}
	return false
}

// primTarget: a logical assignment's result may be its target's old value.
func (a *analyzer) primTarget(p js.Pattern, st *store) bool {
	if id, ok := p.(*js.Ident); ok {
		return a.primIdent(id, st)
	}
	return false
}

// primIdent: a read of a Primitive binding, or of the read-only globals
// undefined, NaN and Infinity.
func (a *analyzer) primIdent(id *js.Ident, st *store) bool {
	r := a.refOf(id, st)
	if r == nil || r.Dynamic {
		return false
	}
	if r.Binding == nil {
		switch id.Name {
		case "undefined", "NaN", "Infinity":
			return true
		}
		return false
	}
	return r.Binding.PrimitiveAt(id.Start)
}

// refOf returns the first reference of id among the store's (nil: none,
// or no store). A store whose value holds many names finds them in
// refIndex, made once, rather than by a search each: an expression a && a
// && ... of n names took n²/2 steps.
func (a *analyzer) refOf(id *js.Ident, st *store) *Ref {
	if st == nil {
		return nil
	}
	to := min(st.to, len(a.in.Refs))
	if to-st.from > 32 {
		if a.refIndex == nil {
			a.refIndex = make(map[*js.Ident]int, len(a.in.Refs))
			for k := range a.in.Refs {
				if _, ok := a.refIndex[a.in.Refs[k].Ident]; !ok {
					a.refIndex[a.in.Refs[k].Ident] = k
				}
			}
		}
		k, ok := a.refIndex[id]
		switch {
		case !ok || k >= to:
			return nil
		case k >= st.from:
			return &a.in.Refs[k]
		}
		// a reference before the store's, and maybe another in it
	}
	for k := st.from; k < to; k++ {
		if r := &a.in.Refs[k]; r.Ident == id {
			return r
		}
	}
	return nil
}

// coercedParams sets PrimFrom for the parameters of function scope s
// that the first statements of its body (after the directives) coerce:
// p = <a primitive by its form>, or a compound arithmetic assignment to
// p, one statement each, in any order; the run ends at the first other
// statement.
func (a *analyzer) coercedParams(body []js.Stmt, s *Scope) {
	for _, st := range body {
		es, ok := st.(*js.ExprStmt)
		if !ok {
			return
		}
		if es.Directive != "" {
			continue
		}
		as, ok := es.X.(*js.Assign)
		if !ok {
			return
		}
		id, ok := as.Target.(*js.Ident)
		if !ok {
			return
		}
		switch as.Op {
		case "||=", "&&=", "??=":
			return
		case "=":
			if !a.primExpr(as.Value, nil) { // by its form alone: names read are not primitive here
				return
			}
		}
		b := s.Lookup(id.Name)
		if b == nil || b.Kind != Param {
			return
		}
		if b.PrimFrom == 0 {
			b.PrimFrom = es.End
		}
	}
}
