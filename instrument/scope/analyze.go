package scope

import (
	"fmt"

	js "github.com/memtrace/memtrace/instrument/js"
)

// Analyze resolves the names of p. It does not fail: p is a program the
// parser accepted.
func Analyze(p *js.Program) *Info {
	a := &analyzer{in: &Info{Program: p, funcOf: make(map[js.Node]*Func)}}
	// Real code has about one reference per 25-50 bytes of source.
	if n := int(p.End-p.Start) / 48; n > 16 {
		a.in.Refs = make([]Ref, 0, n)
	}
	root := &Func{Kind: ProgramFunc, Node: p}
	a.in.funcOf[p] = root
	a.in.Funcs = append(a.in.Funcs, root)
	kind := GlobalScope
	switch p.Goal {
	case js.Module:
		kind = ModuleScope
	case js.CommonJS:
		kind = FunctionScope
	}
	a.fn = root
	a.strict = p.Strict
	s := a.push(kind, p)
	root.Scope = s
	a.in.Root = s
	a.stmts(p.Body)
	a.resolve()
	a.primitives()
	return a.in
}

type analyzer struct {
	in       *Info
	bindings []Binding // slab for Binding values
	scopes   []Scope   // slab for Scope values
	scope    *Scope
	fn       *Func
	strict   bool
	inWith   int
	stores   []store // what each write stores (primitives.go)
	refIndex map[*js.Ident]int
}

func (a *analyzer) push(kind Kind, n js.Node) *Scope {
	if len(a.scopes) == cap(a.scopes) {
		a.scopes = make([]Scope, 0, slabNext(cap(a.scopes)))
	}
	a.scopes = append(a.scopes, Scope{Kind: kind, Node: n, Parent: a.scope, Func: a.fn})
	s := &a.scopes[len(a.scopes)-1]
	a.in.Scopes = append(a.in.Scopes, s)
	a.scope = s
	return s
}

func (a *analyzer) pop(s *Scope) { a.scope = s.Parent }

// slabNext is the size of the next slab after one of size n: slabs grow
// from 8 to 256 elements, so that a small program does not pay for a
// large one's.
func slabNext(n int) int {
	switch {
	case n < 8:
		return 8
	case n >= 256:
		return 256
	}
	return 2 * n
}

// varScope is the scope var declarations of the current code land in.
func (a *analyzer) varScope() *Scope {
	s := a.scope
	for s.Kind != FunctionScope && s.Kind != GlobalScope && s.Kind != ModuleScope {
		s = s.Parent
	}
	return s
}

func (a *analyzer) declare(s *Scope, id *js.Ident, kind BindingKind) {
	if b := s.Lookup(id.Name); b != nil {
		// A repeated var, or a var repeating a parameter or function,
		// keeps the first binding. (Conflicting lexical declarations were
		// rejected by the parser.)
		if kind == Function && b.Kind == Var || kind == Function && b.Kind == Param {
			b.Kind = Function
		}
		return
	}
	s.add(a.newBinding(Binding{Name: id.Name, Kind: kind, Decl: id, Scope: s}))
}

func (a *analyzer) newBinding(b Binding) *Binding {
	if len(a.bindings) == cap(a.bindings) {
		a.bindings = make([]Binding, 0, slabNext(cap(a.bindings)))
	}
	a.bindings = append(a.bindings, b)
	return &a.bindings[len(a.bindings)-1]
}

func (a *analyzer) ref(id *js.Ident, read, write bool) {
	a.in.Refs = append(a.in.Refs, Ref{Ident: id, Scope: a.scope, Read: read, Write: write, Dynamic: a.inWith > 0})
}

// ---- statements ----

func (a *analyzer) stmts(list []js.Stmt) {
	for _, s := range list {
		a.stmt(s)
	}
}

// hasLexical reports whether a statement list declares block-scoped names,
// so that a block needs a scope of its own.
func hasLexical(list []js.Stmt) bool {
	for _, s := range list {
		switch s := s.(type) {
		case *js.VarDecl:
			if s.Kind != js.Var {
				return true
			}
		case *js.ClassDecl, *js.FuncDecl:
			return true
		}
	}
	return false
}

// block visits a statement list in a block scope of its own when it
// declares block-scoped names.
func (a *analyzer) block(n js.Node, list []js.Stmt) {
	if !hasLexical(list) {
		a.stmts(list)
		return
	}
	s := a.push(BlockScope, n)
	a.stmts(list)
	a.pop(s)
}

// sub visits a statement in a position where a declaration would need a
// block of its own (an if branch, a loop or label body).
func (a *analyzer) sub(st js.Stmt) {
	if st == nil {
		return
	}
	if _, ok := st.(*js.FuncDecl); ok {
		s := a.push(BlockScope, st)
		a.stmt(st)
		a.pop(s)
		return
	}
	a.stmt(st)
}

func (a *analyzer) stmt(st js.Stmt) {
	switch st := st.(type) {
	case *js.ExprStmt:
		a.expr(st.X)
	case *js.VarDecl:
		a.varDecl(st)
	case *js.FuncDecl:
		a.funcDecl(st)
	case *js.ClassDecl:
		if st.Name != nil {
			a.declare(a.scope, st.Name, Class)
		}
		a.class(&st.Class)
	case *js.Block:
		a.block(st, st.Body)
	case *js.Empty, *js.Debugger, *js.Break, *js.Continue:
	case *js.Return:
		if st.Arg != nil {
			a.expr(st.Arg)
		}
	case *js.Throw:
		a.expr(st.Arg)
	case *js.If:
		a.expr(st.Test)
		a.sub(st.Then)
		a.sub(st.Else)
	case *js.For:
		var s *Scope
		if d, ok := st.Init.(*js.VarDecl); ok && d.Kind != js.Var {
			s = a.push(BlockScope, st)
		}
		switch init := st.Init.(type) {
		case nil:
		case *js.VarDecl:
			a.varDecl(init)
		case js.Expr:
			a.expr(init)
		default:
			panic(fmt.Sprintf("scope: unexpected for-init %T", init))
		}
		if st.Test != nil {
			a.expr(st.Test)
		}
		if st.Update != nil {
			a.expr(st.Update)
		}
		a.sub(st.Body)
		if s != nil {
			a.pop(s)
		}
	case *js.ForIn:
		a.forInOf(st, st.Left, st.Right, st.Body)
	case *js.ForOf:
		a.forInOf(st, st.Left, st.Right, st.Body)
	case *js.While:
		a.expr(st.Test)
		a.sub(st.Body)
	case *js.DoWhile:
		a.sub(st.Body)
		a.expr(st.Test)
	case *js.Labeled:
		a.sub(st.Body)
	case *js.With:
		a.expr(st.Object)
		for f := a.fn; f != nil; f = f.Parent {
			f.HasWith = true
		}
		s := a.push(WithScope, st)
		s.Dynamic = true
		a.inWith++
		a.sub(st.Body)
		a.inWith--
		a.pop(s)
	case *js.Switch:
		a.expr(st.Disc)
		var all []js.Stmt
		for _, c := range st.Cases {
			all = append(all, c.Body...)
		}
		var s *Scope
		if hasLexical(all) {
			s = a.push(BlockScope, st)
		}
		for _, c := range st.Cases {
			if c.Test != nil {
				a.expr(c.Test)
			}
			a.stmts(c.Body)
		}
		if s != nil {
			a.pop(s)
		}
	case *js.Try:
		a.block(st.Block, st.Block.Body)
		if h := st.Handler; h != nil {
			s := a.push(CatchScope, h)
			if h.Param != nil {
				a.bindPattern(h.Param, CatchParam, s)
			}
			a.block(h.Body, h.Body.Body)
			a.pop(s)
		}
		if st.Finally != nil {
			a.block(st.Finally, st.Finally.Body)
		}
	case *js.Import:
		for _, spec := range st.Specs {
			a.declare(a.scope, spec.Local, Import)
		}
		for _, at := range st.Attrs {
			_ = at // constants only
		}
	case *js.ExportNamed:
		if st.Decl != nil {
			a.stmt(st.Decl)
		}
		if st.Source == nil {
			for _, spec := range st.Specs {
				if id, ok := spec.Local.(*js.Ident); ok {
					a.ref(id, true, false)
				}
			}
		}
	case *js.ExportDefault:
		switch d := st.Decl.(type) {
		case *js.FuncDecl:
			a.funcDecl(d)
		case *js.ClassDecl:
			if d.Name != nil {
				a.declare(a.scope, d.Name, Class)
			}
			a.class(&d.Class)
		case js.Expr:
			a.expr(d)
		default:
			panic(fmt.Sprintf("scope: unexpected export default %T", d))
		}
	case *js.ExportAll:
	default:
		panic(fmt.Sprintf("scope: unknown statement %T", st))
	}
}

func (a *analyzer) varDecl(d *js.VarDecl) {
	target := a.scope
	kind := Let
	switch d.Kind {
	case js.Var:
		target, kind = a.varScope(), Var
	case js.Const, js.Using, js.AwaitUsing:
		kind = Const
	}
	for _, dc := range d.Decls {
		a.bindPattern(dc.Target, kind, target)
		id, plain := dc.Target.(*js.Ident)
		if !plain {
			a.patternNotPrimitive(dc.Target, target)
		}
		if dc.Init != nil {
			from := len(a.in.Refs)
			a.expr(dc.Init)
			if plain {
				a.stores = append(a.stores, store{ref: -1, b: target.Lookup(id.Name), kind: storeValue, value: dc.Init, from: from, to: len(a.in.Refs)})
			}
		}
	}
}

func (a *analyzer) forInOf(n js.Node, left js.Node, right js.Expr, body js.Stmt) {
	var s *Scope
	_, forIn := n.(*js.ForIn)
	switch l := left.(type) {
	case *js.VarDecl:
		if l.Kind != js.Var {
			s = a.push(BlockScope, n)
		}
		a.varDecl(l)
		// The loop stores its keys (strings) or values in the declared
		// names.
		for _, dc := range l.Decls {
			if _, plain := dc.Target.(*js.Ident); !plain || !forIn {
				target := a.scope
				if l.Kind == js.Var {
					target = a.varScope()
				}
				a.patternNotPrimitive(dc.Target, target)
			}
		}
	case js.Pattern:
		from := len(a.in.Refs)
		a.target(l, false)
		a.targetStores(l, from, forIn, nil)
	default:
		panic(fmt.Sprintf("scope: unexpected for-in/of left side %T", left))
	}
	a.expr(right)
	a.sub(body)
	if s != nil {
		a.pop(s)
	}
}

func (a *analyzer) funcDecl(d *js.FuncDecl) {
	if d.Name != nil {
		vs := a.varScope()
		if a.scope == vs {
			a.declare(a.scope, d.Name, Function)
		} else {
			a.declare(a.scope, d.Name, Function)
			if !a.strict && !d.Async && !d.Generator {
				// Annex B.3.3: a sloppy block-level function is also a var
				// of the enclosing function.
				a.declare(vs, d.Name, Var)
				if b := vs.Lookup(d.Name.Name); b != nil {
					b.nonPrim = true
				}
			}
		}
	}
	a.function(d, &d.Func, DeclFunc, false)
}

// ---- functions and classes ----

func (a *analyzer) newFunc(kind FuncKind, n js.Node) *Func {
	f := &Func{Kind: kind, Node: n, Parent: a.fn}
	a.in.Funcs = append(a.in.Funcs, f)
	a.in.funcOf[n] = f
	return f
}

// function visits a function; ownName is set for a named function
// expression, whose name binds in a scope of its own.
func (a *analyzer) function(n js.Node, fn *js.Func, kind FuncKind, ownName bool) {
	saveFn, saveStrict, saveWith := a.fn, a.strict, a.inWith
	var nameScope *Scope
	if ownName && fn.Name != nil {
		nameScope = a.push(FuncNameScope, n)
		a.declare(nameScope, fn.Name, FuncName)
	}
	f := a.newFunc(kind, n)
	a.fn = f
	a.strict = fn.Strict
	a.inWith = 0
	s := a.push(FunctionScope, n)
	s.Func = f
	f.Scope = s
	for _, p := range fn.Params {
		a.bindPattern(p, Param, s)
	}
	if fn.Body != nil {
		if fn.SimpleParams {
			a.coercedParams(fn.Body.Body, s)
		}
		a.stmts(fn.Body.Body)
	}
	a.pop(s)
	if nameScope != nil {
		a.pop(nameScope)
	}
	a.fn, a.strict, a.inWith = saveFn, saveStrict, saveWith
}

func (a *analyzer) arrow(n *js.Arrow) {
	saveFn, saveStrict := a.fn, a.strict
	f := a.newFunc(ArrowFunc, n)
	a.fn = f
	a.strict = n.Strict
	s := a.push(FunctionScope, n)
	s.Func = f
	f.Scope = s
	for _, p := range n.Params {
		a.bindPattern(p, Param, s)
	}
	if n.Body != nil {
		a.stmts(n.Body.Body)
	} else {
		a.expr(n.ExprBody)
	}
	a.pop(s)
	a.fn, a.strict = saveFn, saveStrict
}

func (a *analyzer) class(c *js.Class) {
	for _, d := range c.Decorators {
		a.expr(d)
	}
	saveStrict := a.strict
	a.strict = true
	s := a.push(ClassScope, c)
	if c.Name != nil {
		a.declare(s, c.Name, ClassName)
	}
	if c.Super != nil {
		a.expr(c.Super)
	}
	for _, m := range c.Members {
		switch m := m.(type) {
		case *js.Method:
			for _, d := range m.Decorators {
				a.expr(d)
			}
			if m.Computed {
				a.expr(m.Key)
			}
			a.function(m.Value, &m.Value.Func, ExprFunc, false)
		case *js.Field:
			for _, d := range m.Decorators {
				a.expr(d)
			}
			if m.Computed {
				a.expr(m.Key)
			}
			if m.Value != nil {
				a.codeUnit(FieldInitFunc, m, func() { a.expr(m.Value) })
			}
		case *js.StaticBlock:
			a.codeUnit(StaticBlockFunc, m, func() { a.stmts(m.Body) })
		default:
			panic(fmt.Sprintf("scope: unknown class member %T", m))
		}
	}
	// V8 runs a class's instance field initializers as one function, and
	// its static initializers and static blocks as another: an arrow that
	// captures this in one of them captures it for all (one context).
	var captured [2]bool
	for _, m := range c.Members {
		if f, static := a.unitOf(m); f != nil && f.ThisCaptured {
			captured[static] = true
		}
	}
	for _, m := range c.Members {
		if f, static := a.unitOf(m); f != nil && captured[static] {
			f.ThisCaptured = true
		}
	}
	a.pop(s)
	a.strict = saveStrict
}

// unitOf returns the Func of a class member that is a field initializer or
// a static block, and 1 when it is static.
func (a *analyzer) unitOf(m js.Node) (*Func, int) {
	switch m := m.(type) {
	case *js.Field:
		if m.Value == nil {
			return nil, 0
		}
		if m.Static {
			return a.in.funcOf[m], 1
		}
		return a.in.funcOf[m], 0
	case *js.StaticBlock:
		return a.in.funcOf[m], 1
	}
	return nil, 0
}

// codeUnit visits function-like code that is not a function: a field
// initializer or a static block (own this, own var scope).
func (a *analyzer) codeUnit(kind FuncKind, n js.Node, visit func()) {
	saveFn, saveWith := a.fn, a.inWith
	f := a.newFunc(kind, n)
	a.fn = f
	a.inWith = 0
	s := a.push(FunctionScope, n)
	s.Func = f
	f.Scope = s
	visit()
	a.pop(s)
	a.fn, a.inWith = saveFn, saveWith
}

// ---- patterns ----

// bindPattern declares the names of a binding pattern in s and visits its
// default values and computed keys as expressions.
func (a *analyzer) bindPattern(p js.Pattern, kind BindingKind, s *Scope) {
	switch p := p.(type) {
	case *js.Ident:
		a.declare(s, p, kind)
	case *js.ArrayPattern:
		for _, e := range p.Elems {
			if e != nil {
				a.bindPattern(e, kind, s)
			}
		}
	case *js.ObjectPattern:
		for _, prop := range p.Props {
			switch prop := prop.(type) {
			case *js.Property:
				if prop.Computed {
					a.expr(prop.Key)
				}
				a.bindPattern(prop.Value.(js.Pattern), kind, s)
			case *js.RestElement:
				a.bindPattern(prop.Target, kind, s)
			default:
				panic(fmt.Sprintf("scope: unexpected object pattern member %T", prop))
			}
		}
	case *js.AssignPattern:
		a.bindPattern(p.Target, kind, s)
		a.expr(p.Default)
	case *js.RestElement:
		a.bindPattern(p.Target, kind, s)
	default:
		panic(fmt.Sprintf("scope: unexpected binding pattern %T", p))
	}
}

// target visits an assignment target; compound is set for operators that
// read the target first (+=, ++, ...).
func (a *analyzer) target(p js.Pattern, compound bool) {
	switch p := p.(type) {
	case *js.Ident:
		a.ref(p, compound, true)
	case *js.Member:
		a.expr(p)
	case *js.Paren:
		if t, ok := p.X.(js.Pattern); ok {
			a.target(t, compound)
		} else {
			a.expr(p.X)
		}
	case *js.ArrayPattern:
		for _, e := range p.Elems {
			if e != nil {
				a.target(e, false)
			}
		}
	case *js.ObjectPattern:
		for _, prop := range p.Props {
			switch prop := prop.(type) {
			case *js.Property:
				if prop.Computed {
					a.expr(prop.Key)
				}
				a.target(prop.Value.(js.Pattern), false)
			case *js.RestElement:
				a.target(prop.Target, false)
			default:
				panic(fmt.Sprintf("scope: unexpected object pattern member %T", prop))
			}
		}
	case *js.AssignPattern:
		a.target(p.Target, false)
		a.expr(p.Default)
	case *js.RestElement:
		a.target(p.Target, false)
	default:
		panic(fmt.Sprintf("scope: unexpected assignment target %T", p))
	}
}

// ---- expressions ----

func stripParens(e js.Expr) js.Expr {
	for {
		p, ok := e.(*js.Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

func (a *analyzer) exprs(list []js.Expr) {
	for _, e := range list {
		if e != nil {
			a.expr(e)
		}
	}
}

// binary analyzes a chain of binary operators, a + b + c + ..., without
// recursing down its left operands: V8 accepts a chain of any length,
// whose tree is as deep as it is long.
func (a *analyzer) binary(e *js.Binary) {
	var buf [8]js.Expr
	ys := buf[:0] // the right operands, outermost first
	var x js.Expr = e
	for b, ok := e, true; ok; b, ok = x.(*js.Binary) {
		ys = append(ys, b.Y)
		x = b.X
	}
	a.expr(x)
	for i := len(ys) - 1; i >= 0; i-- {
		a.expr(ys[i])
	}
}

func (a *analyzer) expr(e js.Expr) {
	switch e := e.(type) {
	case *js.Ident:
		a.ref(e, true, false)
	case *js.This:
		a.lexical(lexThis)
	case *js.Super:
		a.lexical(lexThis | lexSuper)
	case *js.PrivateName, *js.NullLit, *js.BoolLit, *js.NumLit, *js.BigIntLit, *js.StringLit, *js.RegExpLit:
	case *js.Template:
		a.exprs(e.Exprs)
	case *js.TaggedTemplate:
		a.expr(e.Tag)
		a.exprs(e.Quasi.Exprs)
	case *js.Array:
		a.exprs(e.Elems)
	case *js.Object:
		for _, p := range e.Props {
			switch p := p.(type) {
			case *js.Property:
				if p.Computed {
					a.expr(p.Key)
				}
				switch v := p.Value.(type) {
				case *js.FuncExpr:
					if p.Method || p.Kind != js.PropInit {
						a.function(v, &v.Func, ExprFunc, false)
					} else {
						a.expr(v)
					}
				case js.Expr:
					a.expr(v)
				default:
					panic(fmt.Sprintf("scope: unexpected property value %T", v))
				}
			case *js.Spread:
				a.expr(p.Arg)
			default:
				panic(fmt.Sprintf("scope: unexpected object member %T", p))
			}
		}
	case *js.Spread:
		a.expr(e.Arg)
	case *js.FuncExpr:
		a.function(e, &e.Func, ExprFunc, true)
	case *js.Arrow:
		a.arrow(e)
	case *js.ClassExpr:
		a.class(&e.Class)
	case *js.Unary:
		a.expr(e.X)
	case *js.Update:
		from := len(a.in.Refs)
		a.target(e.X.(js.Pattern), true)
		a.targetStores(e.X.(js.Pattern), from, true, nil)
	case *js.Binary:
		a.binary(e)
	case *js.Assign:
		from := len(a.in.Refs)
		a.target(e.Target, e.Op != "=")
		vfrom := len(a.in.Refs)
		a.expr(e.Value)
		switch e.Op {
		case "=", "||=", "&&=", "??=":
			// The value stored is e.Value's (the logical operators
			// store it or keep the old one).
			a.targetStores(e.Target, from, false, &store{kind: storeValue, value: e.Value, from: vfrom, to: len(a.in.Refs)})
		default:
			// Arithmetic, bitwise and shifts store numbers, bigints or
			// strings.
			a.targetStores(e.Target, from, true, nil)
		}
	case *js.Cond:
		a.expr(e.Test)
		a.expr(e.Yes)
		a.expr(e.No)
	case *js.Call:
		if id, ok := stripParens(e.Callee).(*js.Ident); ok && id.Name == "eval" && !e.Optional {
			a.directEval()
		}
		a.expr(e.Callee)
		a.exprs(e.Args)
	case *js.New:
		a.expr(e.Callee)
		a.exprs(e.Args)
	case *js.Member:
		a.expr(e.Object)
		if e.Computed {
			a.expr(e.Property)
		}
	case *js.Chain:
		a.expr(e.X)
	case *js.Seq:
		a.exprs(e.List)
	case *js.Paren:
		a.expr(e.X)
	case *js.Yield:
		if e.Arg != nil {
			a.expr(e.Arg)
		}
	case *js.Await:
		a.expr(e.Arg)
	case *js.MetaProperty:
		if e.Meta.Name == "new" {
			a.lexical(lexNewTarget)
		}
	case *js.ImportCall:
		a.expr(e.Source)
		if e.Options != nil {
			a.expr(e.Options)
		}
	default:
		panic(fmt.Sprintf("scope: unknown expression %T", e))
	}
}

const (
	lexThis = 1 << iota
	lexNewTarget
	lexSuper
)

// lexical records a use of this, new.target or super (u: lex bits) in the
// current code: on the nearest non-arrow function (super also counts as a
// use of this there only through an arrow: a method's own super needs no
// this of its own), and, when the use is inside arrows, on each of them
// and as captured on that function.
func (a *analyzer) lexical(u int) {
	f := a.fn
	for ; f.Kind == ArrowFunc && f.Parent != nil; f = f.Parent {
		f.mark(u)
	}
	if u&lexSuper != 0 {
		f.UsesSuper = true
		if f == a.fn {
			u &^= lexThis
		}
	}
	if u&lexThis != 0 {
		f.UsesThis = true
	}
	if u&lexNewTarget != 0 {
		f.UsesNewTarget = true
	}
	if f != a.fn {
		f.mark(u)
	}
}

func (f *Func) mark(u int) {
	if u&lexThis != 0 {
		f.ThisCaptured = true
	}
	if u&lexNewTarget != 0 {
		f.NewTargetCaptured = true
	}
	if u&lexSuper != 0 {
		f.SuperCaptured = true
	}
}

// directEval records a direct eval call in the current code: every
// enclosing function has eval inside it, and in sloppy code the eval may
// declare vars in the scopes up to the var scope.
func (a *analyzer) directEval() {
	a.fn.DirectEval = true
	for f := a.fn; f != nil; f = f.Parent {
		f.HasEval = true
	}
	if !a.strict {
		vs := a.varScope()
		for s := a.scope; ; s = s.Parent {
			s.Dynamic = true
			if s == vs {
				break
			}
		}
	}
}

// ---- resolution ----

// hasArguments reports whether f has an implicit arguments object.
func hasArguments(f *Func) bool {
	switch f.Kind {
	case DeclFunc, ExprFunc:
		return true
	case ProgramFunc:
		// The CommonJS wrapper is a real function.
		return f.Scope != nil && f.Scope.Kind == FunctionScope
	}
	return false
}

func (a *analyzer) resolve() {
	for i := range a.in.Refs {
		r := &a.in.Refs[i]
		name := r.Ident.Name
		var b *Binding
		for s := r.Scope; s != nil; s = s.Parent {
			if s.Dynamic {
				r.Dynamic = true
			}
			if b = s.Lookup(name); b != nil {
				break
			}
			if name == "arguments" && s.Kind == FunctionScope && s.Func.Scope == s && hasArguments(s.Func) {
				b = a.newBinding(Binding{Name: name, Kind: Arguments, Scope: s})
				s.add(b)
				s.Func.UsesArguments = true
				break
			}
		}
		r.Binding = b
		var home *Func // the function the binding belongs to
		captured := false
		if b != nil {
			b.Refs++
			home = b.Scope.Func
			captured = b.Scope.Kind != GlobalScope
			if b.Kind == Arguments && home.Scope == b.Scope {
				home.UsesArguments = true
			}
		}
		for f := r.Scope.Func; f != nil && f != home; f = f.Parent {
			f.addFree(name, captured)
			if b != nil {
				b.Captured = b.Captured || captured
			}
		}
	}
	for _, f := range a.in.Funcs {
		f.free = nil
	}
}
