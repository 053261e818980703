package instrument

import (
	"strconv"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/instrument/scope"
)

// Lexical this, arguments, new.target and super's home object
// (docs/instrumentation.md §7, "Arrow functions").
//
// V8 keeps the this, arguments and new.target of a function in the
// function's context when an arrow nested in it uses them, and super's home
// object in the class's context: every closure created in that activation
// keeps them, whether or not it uses them itself. The model follows it with
// names no identifier spells: the function's entry declares them in its
// context ("this" is already declared by Fe when it is an object), and
// every closure created in that activation names them in its FREE_VARS, so
// that the context keeps them when it is sealed. Field initializers and
// static blocks have no context of their own in the model: a closure made
// there holds its this through an edge of its own (Ft).

// Names of the lexical bindings in the trace.
const (
	// ArgumentsName is the binding of a function's arguments object that
	// an arrow captures: the engine ignores objects declared under
	// "arguments" (MemInsight's rule), so the object goes under this name.
	ArgumentsName = "~arguments~"
	// NewTargetName is the binding of a function's new.target.
	NewTargetName = "new.target"
	// MethodName is the binding of the running method, whose "~home~"
	// field holds its home object (super's).
	MethodName = "~method~"
	// ThisEdge is a closure's field holding the this of the field
	// initializer or static block it was created in.
	ThisEdge = "~this~"
	// HomeEdge is a method's field holding its home object.
	HomeEdge = "~home~"
)

// creator returns the code whose activation a closure f is created in:
// the nearest function around it that is not an arrow (a field initializer,
// a static block or the program included); nil for the program itself.
func creator(f *scope.Func) *scope.Func {
	p := f.Parent
	for p != nil && p.Kind == scope.ArrowFunc && p.Parent != nil {
		p = p.Parent
	}
	return p
}

// ownsThis reports whether f is a function with its own this, arguments
// and new.target and a context of its own in the model.
func ownsThis(f *scope.Func) bool {
	return f != nil && (f.Kind == scope.DeclFunc || f.Kind == scope.ExprFunc)
}

// unitThis reports whether f is a field initializer or static block whose
// this a closure created in it keeps (scope.Func.ThisCaptured).
func unitThis(f *scope.Func) bool {
	return f != nil && (f.Kind == scope.FieldInitFunc || f.Kind == scope.StaticBlockFunc) && f.ThisCaptured
}

// argumentsCaptured reports whether an arrow nested in f uses f's
// arguments object.
func argumentsCaptured(f *scope.Func) bool {
	if !ownsThis(f) || f.Scope == nil {
		return false
	}
	b := f.Scope.Lookup("arguments")
	return b != nil && b.Kind == scope.Arguments && b.Captured
}

// mappedParams returns the parameters of f whose arguments object an arrow
// captures when that object is mapped (sloppy code, simple parameters): its
// first elements are the parameters themselves, so V8 keeps those in the
// context, as the model does when closures name them.
func mappedParams(f *scope.Func) []*js.Ident {
	var fn *js.Func
	switch n := f.Node.(type) {
	case *js.FuncDecl:
		fn = &n.Func
	case *js.FuncExpr:
		fn = &n.Func
	default:
		return nil
	}
	if fn.Strict || !fn.SimpleParams {
		return nil
	}
	ids := make([]*js.Ident, 0, len(fn.Params))
	for _, p := range fn.Params {
		if id, ok := p.(*js.Ident); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// lexicalFree adds to the FREE_VARS names of closure f the lexical
// bindings of the function it is created in; an arrow's own "arguments"
// (the enclosing function's) becomes ArgumentsName.
func lexicalFree(f *scope.Func, names []string) []string {
	c := creator(f)
	if !ownsThis(c) {
		return names
	}
	args := argumentsCaptured(c)
	var extra []string
	if c.ThisCaptured {
		extra = append(extra, "this")
	}
	if c.NewTargetCaptured {
		extra = append(extra, NewTargetName)
	}
	if args {
		extra = append(extra, ArgumentsName)
		for _, id := range mappedParams(c) {
			extra = append(extra, id.Name)
		}
	}
	if c.SuperCaptured {
		extra = append(extra, MethodName)
	}
	if len(extra) == 0 {
		return names
	}
	out := make([]string, 0, len(names)+len(extra))
	seen := make(map[string]bool, len(names)+len(extra))
	for _, l := range [][]string{names, extra} {
		for _, n := range l {
			if n == "arguments" && args || seen[n] {
				continue
			}
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// lexicalOwn returns the lexical names f declares at its entry beside
// "this" (which Fe or Nt declares): those a resume function must keep in
// the first context.
func lexicalOwn(f *scope.Func) []string {
	var out []string
	if !ownsThis(f) {
		return nil
	}
	if f.NewTargetCaptured {
		out = append(out, NewTargetName)
	}
	if argumentsCaptured(f) {
		out = append(out, ArgumentsName)
	}
	if f.SuperCaptured {
		out = append(out, MethodName)
	}
	return out
}

// appendLexicalDecls appends to b the declarations of f's lexical bindings
// at its entry (fe: its Fe iid, mapped to the function): Nt for this,
// which declares it 0 where Fe declared nothing (a primitive or the global
// object, a derived constructor before super()), so that a closure's
// "this" never resolves to an outer function's; N for new.target; Na for
// the arguments object, created at fe with its elements past the mapped
// ones; Nm for the method.
func (r *rewriter) appendLexicalDecls(b []byte, f *scope.Func, fe int, self string, derived bool) []byte {
	if !ownsThis(f) {
		return b
	}
	num := func(b []byte, hook string) []byte {
		b = append(b, r.h...)
		b = append(b, '.')
		b = append(b, hook...)
		b = append(b, '(')
		return strconv.AppendInt(b, int64(fe), 10)
	}
	if f.ThisCaptured {
		b = num(b, "Nt")
		b = append(b, ", "...)
		b = append(b, self...)
		if !derived {
			b = append(b, ", this"...)
		}
		b = append(b, "); "...)
	}
	if f.NewTargetCaptured {
		b = num(b, "N")
		b = append(b, `, "`+NewTargetName+`", new.target); `...)
	}
	if argumentsCaptured(f) {
		b = num(b, "Na")
		b = append(b, ", arguments, "...)
		b = strconv.AppendInt(b, int64(len(mappedParams(f))), 10)
		b = append(b, "); "...)
	}
	if f.SuperCaptured {
		b = num(b, "Nm")
		b = append(b, "); "...)
	}
	return b
}

// thisEdge returns the text around the F call of closure f created in a
// field initializer or static block whose this closures keep:
// H.Ft(i, this, H.F(…), inst), inst 1 for an instance field's.
func (r *rewriter) thisEdge(f *scope.Func, i int) (pre, post string) {
	c := creator(f)
	if f == nil || !unitThis(c) {
		return "", ""
	}
	inst := "0"
	if fd, ok := c.Node.(*js.Field); ok && !fd.Static {
		inst = "1"
	}
	return r.hk("Ft", i) + "this, ", ", " + inst + ")"
}
