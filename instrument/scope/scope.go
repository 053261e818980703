// Package scope resolves the names of a parsed JavaScript program: every
// declaration becomes a Binding in a Scope, every identifier reference is
// resolved to its Binding or to the global object, and every function
// learns the names it takes from outside itself (its free variables), the
// subset it captures from enclosing function scopes, and whether it (or a
// function nested in it) uses direct eval or with, and whether it uses its
// own this, arguments, super or new.target.
//
// The instrumenter uses this to emit MemInsight's FREE_VARS entries (the
// names a closure keeps alive in the contexts it was created in) and to
// tell local variables from globals.
//
// # Rules
//
// Declarations follow the language: var and sloppy-mode function
// declarations in blocks (Annex B) are hoisted to the nearest function,
// module or script scope; let, const, using, class and block-level
// functions bind in their block; parameters, and the implicit arguments
// object of non-arrow functions, bind in the function scope; a named
// function expression binds its own name in a scope of its own between the
// function and its surroundings, and so does a class its name; catch
// parameters bind in the catch clause; imports bind in the module scope.
// Class field initializers and static blocks are function-like: they have
// their own this and var scope. In a script, top-level declarations live on
// the global object (var, function) or in the global lexical environment
// (let, const, class); references to them count as free in the functions
// that make them, exactly like references to undeclared globals.
//
// Resolution is static. A reference inside a with body, or in a scope a
// sloppy direct eval may extend, is still resolved to its static binding
// but flagged (Ref.Dynamic, Func.HasEval, Func.HasWith): a client that must
// be sound in those functions should use Info.Visible instead of Free.
package scope

import (
	js "github.com/memtrace/memtrace/instrument/js"
)

// Kind is the kind of a Scope.
type Kind uint8

const (
	GlobalScope   Kind = iota // a script's top level
	ModuleScope               // a module's top level
	FunctionScope             // a function's parameters and body (also the CommonJS wrapper, field initializers, static blocks)
	BlockScope                // a block, switch, or the head of a for statement with lexical declarations
	CatchScope                // a catch clause's parameter
	FuncNameScope             // the own name of a named function expression
	ClassScope                // a class's own name and its body
	WithScope                 // the body of a with statement
)

var kindNames = [...]string{"global", "module", "function", "block", "catch", "function-name", "class", "with"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// BindingKind says how a name was declared.
type BindingKind uint8

const (
	Var        BindingKind = iota // var, and Annex B hoisting of sloppy block functions
	Let                           // let
	Const                         // const, using, await using
	Class                         // class declaration
	Function                      // function declaration
	Param                         // parameter
	CatchParam                    // catch parameter
	Import                        // import binding
	FuncName                      // named function expression's own name
	ClassName                     // a class's inner name binding
	Arguments                     // the implicit arguments object
)

var bindingKindNames = [...]string{"var", "let", "const", "class", "function", "param", "catch", "import", "function-name", "class-name", "arguments"}

func (k BindingKind) String() string {
	if int(k) < len(bindingKindNames) {
		return bindingKindNames[k]
	}
	return "unknown"
}

// Binding is one declared name.
type Binding struct {
	Name  string
	Kind  BindingKind
	Decl  *js.Ident // the first declaring identifier; nil for arguments
	Scope *Scope
	// Captured reports that a function nested inside the binding's own
	// function references it.
	Captured bool
	// Refs counts the references resolved to it.
	Refs int
	// Primitive reports that the binding can only ever hold primitive
	// values (primitives.go): a var, let or const of a function, module or
	// CommonJS scope, out of reach of direct eval and with, whose every
	// store is a value the analysis can tell is primitive.
	Primitive bool
	// PrimFrom is, for a Primitive parameter, the offset from which it
	// holds only primitives: the end of the statement of its function's
	// prologue that coerces it (p = p | 0, p = +p: primitives.go); 0
	// for other bindings. References before it (the coercion itself)
	// may see the caller's value.
	PrimFrom int32
	nonPrim  bool // bound by something else than a plain store (a pattern, for-of, Annex B)
}

// PrimitiveAt reports that the binding holds only primitives at the
// reference at offset pos.
func (b *Binding) PrimitiveAt(pos int32) bool {
	return b.Primitive && pos >= b.PrimFrom
}

// Scope is a region of the program with its own bindings.
type Scope struct {
	Kind     Kind
	Node     js.Node // the node that opens it
	Parent   *Scope
	Func     *Func // the function (or program) the scope belongs to
	Bindings []*Binding
	index    map[string]*Binding
	// Dynamic: a with body, or a scope a sloppy-mode direct eval in it or
	// in a nested arrow can add var bindings to.
	Dynamic bool
}

// Lookup returns the binding of name declared in s itself, or nil.
func (s *Scope) Lookup(name string) *Binding {
	if s.index != nil {
		return s.index[name]
	}
	for _, b := range s.Bindings {
		if b.Name == name {
			return b
		}
	}
	return nil
}

func (s *Scope) add(b *Binding) {
	s.Bindings = append(s.Bindings, b)
	if s.index != nil {
		s.index[b.Name] = b
	} else if len(s.Bindings) > 8 {
		s.index = make(map[string]*Binding, 16)
		for _, x := range s.Bindings {
			if _, dup := s.index[x.Name]; !dup {
				s.index[x.Name] = x
			}
		}
	}
}

// FuncKind is the kind of a Func.
type FuncKind uint8

const (
	ProgramFunc     FuncKind = iota // the program itself (a CommonJS module body is a real function)
	DeclFunc                        // function declaration
	ExprFunc                        // function expression, method, accessor or class constructor
	ArrowFunc                       // arrow function
	FieldInitFunc                   // a class field's initializer
	StaticBlockFunc                 // a class static block
)

var funcKindNames = [...]string{"program", "declaration", "expression", "arrow", "field", "static-block"}

func (k FuncKind) String() string {
	if int(k) < len(funcKindNames) {
		return funcKindNames[k]
	}
	return "unknown"
}

// Func is a function, or function-like code with its own this: the program,
// a class field initializer, a static block.
type Func struct {
	Kind FuncKind
	// Node is *js.Program, *js.FuncDecl, *js.FuncExpr, *js.Arrow, *js.Field
	// (its initializer) or *js.StaticBlock.
	Node   js.Node
	Parent *Func
	Scope  *Scope // the function scope (the program's root scope)

	// Free lists, in order of first reference, the names referenced in the
	// function or in functions nested in it that are not declared inside
	// it: captured names and globals alike. This is what MemInsight's
	// FREE_VARS carries.
	Free []string
	// Captured is the subset of Free bound in an enclosing function,
	// module or CommonJS scope (not globals, not script top-level names).
	Captured []string

	// Own uses; an arrow function shares them with the function around it,
	// so they are recorded on the nearest non-arrow Func.
	UsesThis, UsesArguments, UsesSuper, UsesNewTarget bool
	// Lexical uses. On an arrow: the arrow, or an arrow nested in it
	// (through arrows only), uses this (or super, whose property
	// references read this), new.target or super of the function around
	// it: the arrow captures them. On any other Func: an arrow nested in
	// it captures its own this, new.target or super (V8 then keeps them in
	// the function's context, which every closure created in it keeps).
	// For field initializers and static blocks ThisCaptured is the class's:
	// set on every instance field initializer of the class when an arrow
	// in one of them captures this (V8 runs them as one function, with one
	// context), likewise on its static initializers and static blocks.
	ThisCaptured, NewTargetCaptured, SuperCaptured bool
	// DirectEval: the function's own code calls eval directly (an arrow
	// inside it counts as its own code for eval's variable environment).
	DirectEval bool
	// HasEval and HasWith: direct eval or a with statement in the function
	// or in any function nested in it.
	HasEval, HasWith bool

	free map[string]struct{} // the names of Free, once Free is long
}

func (f *Func) addFree(name string, captured bool) {
	if f.free != nil {
		if _, ok := f.free[name]; ok {
			return
		}
		f.free[name] = struct{}{}
	} else {
		for _, n := range f.Free {
			if n == name {
				return
			}
		}
		if len(f.Free) >= 8 {
			f.free = make(map[string]struct{}, 32)
			for _, n := range f.Free {
				f.free[n] = struct{}{}
			}
			f.free[name] = struct{}{}
		}
	}
	f.Free = append(f.Free, name)
	if captured {
		f.Captured = append(f.Captured, name)
	}
}

// nonArrow returns the function whose this/arguments/super f uses.
func (f *Func) nonArrow() *Func {
	for f.Kind == ArrowFunc && f.Parent != nil {
		f = f.Parent
	}
	return f
}

// Ref is one identifier reference.
type Ref struct {
	Ident *js.Ident
	Scope *Scope
	// Binding is nil for a global: an undeclared name, or (in a script) a
	// top-level declaration, which lives on the global object.
	Binding *Binding
	Read    bool
	Write   bool
	// Dynamic: the reference is inside a with body or in a scope a direct
	// eval may extend, so it might resolve elsewhere at run time.
	Dynamic bool
}

// Info is the result of Analyze.
type Info struct {
	Program *js.Program
	Root    *Scope
	Scopes  []*Scope
	Funcs   []*Func // in source order of their start
	Refs    []Ref

	funcOf  map[js.Node]*Func
	binding map[*js.Ident]*Binding // built on demand by BindingOf
}

// FuncOf returns the Func of a function node (*js.FuncDecl, *js.FuncExpr,
// *js.Arrow, *js.Field, *js.StaticBlock, or the *js.Program), or nil.
func (in *Info) FuncOf(n js.Node) *Func { return in.funcOf[n] }

// BindingOf returns the binding an identifier declares or refers to; nil
// for globals and for identifiers that are neither (property names,
// labels).
func (in *Info) BindingOf(id *js.Ident) *Binding {
	if in.binding == nil {
		in.binding = make(map[*js.Ident]*Binding, len(in.Refs))
		for _, s := range in.Scopes {
			for _, b := range s.Bindings {
				if b.Decl != nil {
					in.binding[b.Decl] = b
				}
			}
		}
		for i := range in.Refs {
			if r := &in.Refs[i]; r.Binding != nil {
				in.binding[r.Ident] = r.Binding
			}
		}
	}
	return in.binding[id]
}

// Visible returns every name declared in s and the scopes around it, up to
// and excluding the global scope, innermost first, each once (the implicit
// arguments object is not a variable and is left out). For a
// function that uses direct eval or with, this is the sound replacement for
// its free variables.
func (in *Info) Visible(s *Scope) []string {
	seen := make(map[string]bool)
	var out []string
	for ; s != nil && s.Kind != GlobalScope; s = s.Parent {
		for _, b := range s.Bindings {
			if b.Kind != Arguments && !seen[b.Name] {
				seen[b.Name] = true
				out = append(out, b.Name)
			}
		}
	}
	return out
}
