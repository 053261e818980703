package js

// Span is a node's byte range in the source, [Start, End). Spans follow
// ESTree/acorn: an expression's span excludes parentheses around it (those
// belong to an enclosing Paren node), a statement's span includes its
// terminating semicolon, and a node built from a parenthesised operand (for
// example the call in "(f)()") starts at that operand's "(".
type Span struct {
	Start, End int32
}

// Pos returns the start offset.
func (s Span) Pos() int32 { return s.Start }

// EndPos returns the end offset (exclusive).
func (s Span) EndPos() int32 { return s.End }

// Node is any syntax node.
type Node interface {
	Pos() int32
	EndPos() int32
}

// Expr is an expression node.
type Expr interface {
	Node
	isExpr()
}

// Stmt is a statement or declaration node.
type Stmt interface {
	Node
	isStmt()
}

// Pattern is a binding or assignment target: *Ident, *ArrayPattern,
// *ObjectPattern, *AssignPattern, *RestElement, and, in assignment targets
// only, *Member and *Paren.
type Pattern interface {
	Node
	isPattern()
}

// ClassMember is an element of a class body.
type ClassMember interface {
	Node
	isClassMember()
}

// ModuleItem-specific nodes (import/export specifiers) and other helpers are
// plain structs reached from their parents.

// ---------------------------------------------------------------------------
// Program

// Goal selects the grammar a source text is parsed with.
type Goal uint8

const (
	// Script is a classic script (sloppy unless it says "use strict").
	Script Goal = iota
	// Module is an ECMAScript module: strict, import/export, top-level await.
	Module
	// CommonJS is a Node.js CommonJS file: a script parsed as the body of a
	// function, so a top-level return is legal.
	CommonJS
)

func (g Goal) String() string {
	switch g {
	case Script:
		return "script"
	case Module:
		return "module"
	case CommonJS:
		return "commonjs"
	}
	return "unknown"
}

// Program is a parsed source text.
type Program struct {
	Span
	Goal     Goal
	Hashbang string // the text of a leading "#!" line, without "#!", or ""
	Strict   bool   // whether the whole program is strict code
	Body     []Stmt
}

// ---------------------------------------------------------------------------
// Expressions

// Ident is an identifier: a reference, a binding name, a label, or a
// property name. Name is decoded (escapes such as \u0061 are resolved).
type Ident struct {
	Span
	Name string
}

// PrivateName is "#name", as a class element key, after "." or "?.", or on
// the left of "in".
type PrivateName struct {
	Span
	Name string // without "#"
}

// This is "this".
type This struct{ Span }

// Super is "super", as a callee or member object only.
type Super struct{ Span }

// NullLit is "null".
type NullLit struct{ Span }

// BoolLit is "true" or "false".
type BoolLit struct {
	Span
	Value bool
}

// NumLit is a numeric literal. Raw is the source text.
type NumLit struct {
	Span
	Value float64
	Raw   string
}

// BigIntLit is a BigInt literal such as 0x1fn. Digits is the source text
// without separators and without the "n" suffix (prefix kept, e.g. "0x1f").
type BigIntLit struct {
	Span
	Digits string
}

// StringLit is a string literal. Value is decoded and stored as WTF-8: UTF-8,
// except that a lone surrogate (from an escape such as "\uD800") is kept as
// its three-byte generalized UTF-8 encoding, so no code unit is lost. Escaped
// surrogate pairs are joined into one code point.
type StringLit struct {
	Span
	Value string
	Raw   string // the source text including quotes
}

// RegExpLit is a regular expression literal.
type RegExpLit struct {
	Span
	Pattern string // between the slashes, as written
	Flags   string
}

// TemplatePart is one literal piece of a template. Cooked is WTF-8 like
// StringLit.Value; CookedOK is false when the piece holds an escape that is
// invalid (legal only in tagged templates, where the cooked value is
// undefined). Raw is the source text (with CR LF and CR normalised to LF as
// the spec's TRV does). The span covers the piece's source text only
// (without "`", "${" or "}"), as ESTree's TemplateElement.
type TemplatePart struct {
	Span
	Cooked   string
	CookedOK bool
	Raw      string
}

// Template is a template literal: Parts has len(Exprs)+1 pieces.
type Template struct {
	Span
	Parts []TemplatePart
	Exprs []Expr
}

// TaggedTemplate is tag`...`.
type TaggedTemplate struct {
	Span
	Tag   Expr
	Quasi *Template
}

// Array is an array literal; a nil element is a hole.
type Array struct {
	Span
	Elems []Expr // *Spread allowed

	trailingComma bool // a comma follows a final spread element
}

// PropKind is the kind of an object literal property.
type PropKind uint8

const (
	PropInit PropKind = iota // key: value, shorthand, or method
	PropGet
	PropSet
)

// Property is a property of an object literal or an object pattern. In an
// object literal, Value is an Expr (a *FuncExpr for methods and accessors);
// in an *ObjectPattern, Value is a Pattern. Key is *Ident, *StringLit,
// *NumLit, *BigIntLit, or (Computed) any expression. For a shorthand property
// Key and Value name the same identifier and Walk visits Value only.
type Property struct {
	Span
	Kind      PropKind
	Key       Expr
	Value     Node
	Computed  bool
	Shorthand bool
	Method    bool
}

// Object is an object literal. Props holds *Property and *Spread.
type Object struct {
	Span
	Props []Node

	trailingComma bool // a comma follows a final spread element
}

// Spread is "...x" in an array literal, an object literal or arguments.
type Spread struct {
	Span
	Arg Expr
}

// Func holds what every function form shares. Its span is the function's.
// For methods, getters, setters and class constructors the span starts at
// the parameter list's "(" (as ESTree's method value FunctionExpression).
type Func struct {
	Span
	Name      *Ident // nil for anonymous functions and methods
	Params    []Pattern
	Body      *Block
	Async     bool
	Generator bool
	Strict    bool // the function's code is strict (directive, class or module)
	// SimpleParams reports that every parameter is a plain identifier.
	SimpleParams bool
}

// FuncExpr is a function expression, and the value of a method.
type FuncExpr struct{ Func }

// Arrow is an arrow function. Exactly one of Body and ExprBody is set.
type Arrow struct {
	Span
	Params   []Pattern
	Body     *Block
	ExprBody Expr
	Async    bool
	Strict   bool
}

// Class holds what class declarations and expressions share.
type Class struct {
	Span
	// Decorators are the expressions after each "@" before the class (the
	// class's span starts at the first "@").
	Decorators []Expr
	Name       *Ident // nil for anonymous class expressions
	Super      Expr   // nil without "extends"
	BodySpan   Span   // "{" to "}"
	Members    []ClassMember
}

// ClassExpr is a class expression.
type ClassExpr struct{ Class }

// MethodKind is the kind of a class method.
type MethodKind uint8

const (
	MethodNormal MethodKind = iota
	MethodGet
	MethodSet
	MethodConstructor
)

// Method is a class method, accessor or constructor. Key is as in Property,
// or a *PrivateName.
type Method struct {
	Span
	Decorators []Expr
	Kind       MethodKind
	Static     bool
	Computed   bool
	Key        Expr
	Value      *FuncExpr
}

// Field is a class field; Value is nil without an initializer. The span
// includes a terminating semicolon.
type Field struct {
	Span
	Decorators []Expr
	Static     bool
	Computed   bool
	Key        Expr
	Value      Expr
}

// StaticBlock is "static { ... }" in a class body.
type StaticBlock struct {
	Span
	Body []Stmt
}

// Unary is a prefix operator: - + ! ~ typeof void delete.
type Unary struct {
	Span
	Op string
	X  Expr
}

// Update is ++ or --, prefix or postfix.
type Update struct {
	Span
	Op     string
	Prefix bool
	X      Expr // an assignment target: *Ident, *Member or *Paren
}

// Binary is a binary operator, including the logical ones (&& || ??), "in"
// and "instanceof". X may be a *PrivateName when Op is "in".
type Binary struct {
	Span
	Op string
	X  Expr
	Y  Expr
}

// Assign is an assignment; Op is "=" or a compound operator such as "+=" or
// "??=". Target is a Pattern (destructuring only with "=").
type Assign struct {
	Span
	Op     string
	Target Pattern
	Value  Expr
}

// Cond is "test ? yes : no".
type Cond struct {
	Span
	Test, Yes, No Expr
}

// Call is a call. Optional is set for "f?.()".
type Call struct {
	Span
	Callee   Expr // may be *Super
	Args     []Expr
	Optional bool
}

// New is "new C(args)"; HasArgs is false for "new C".
type New struct {
	Span
	Callee  Expr
	Args    []Expr
	HasArgs bool
}

// Member is "x.name", "x[expr]", "x.#name", or with "?." when Optional.
// Property is *Ident, *PrivateName, or (Computed) any expression.
type Member struct {
	Span
	Object   Expr // may be *Super
	Property Expr
	Computed bool
	Optional bool
}

// Chain marks the extent of an optional chain such as "a?.b.c()": every
// member and call inside it short-circuits together. Its span is its
// expression's.
type Chain struct {
	Span
	X Expr
}

// Seq is a comma expression.
type Seq struct {
	Span
	List []Expr
}

// Paren is a parenthesised expression; its span includes the parentheses.
// ESTree drops it (acorn's spans are those of X).
type Paren struct {
	Span
	X Expr
}

// Yield is "yield", "yield x" or "yield* x".
type Yield struct {
	Span
	Arg      Expr // nil for a bare yield
	Delegate bool
}

// Await is "await x".
type Await struct {
	Span
	Arg Expr
}

// MetaProperty is "new.target" or "import.meta".
type MetaProperty struct {
	Span
	Meta, Property *Ident
}

// ImportCall is "import(source)" or "import(source, options)".
type ImportCall struct {
	Span
	Phase   string // "" for import(), "defer" or "source" for import.defer() and import.source()
	Source  Expr
	Options Expr // nil when absent
}

// ---------------------------------------------------------------------------
// Patterns

// ArrayPattern is "[a, , b = 1, ...c]"; nil elements are holes.
type ArrayPattern struct {
	Span
	Elems []Pattern
}

// ObjectPattern is "{a, b: c, ...d}". Props holds *Property (Value a
// Pattern) and, last, possibly a *RestElement.
type ObjectPattern struct {
	Span
	Props []Node
}

// AssignPattern is "target = default" inside a pattern or parameter list.
type AssignPattern struct {
	Span
	Target  Pattern
	Default Expr
}

// RestElement is "...target" in a pattern or parameter list.
type RestElement struct {
	Span
	Target Pattern
}

// ---------------------------------------------------------------------------
// Statements

// ExprStmt is an expression statement. Directive holds the raw text
// (without quotes) when the statement is a directive of a prologue, such as
// "use strict".
type ExprStmt struct {
	Span
	X         Expr
	Directive string
}

// VarKind is var, let or const.
type VarKind uint8

const (
	Var VarKind = iota
	Let
	Const
	Using      // using x = ... (explicit resource management)
	AwaitUsing // await using x = ...
)

func (k VarKind) String() string {
	switch k {
	case Let:
		return "let"
	case Const:
		return "const"
	case Using:
		return "using"
	case AwaitUsing:
		return "await using"
	}
	return "var"
}

// Declarator is one "target = init" of a VarDecl; Init may be nil.
type Declarator struct {
	Span
	Target Pattern
	Init   Expr
}

// VarDecl is a var, let or const declaration.
type VarDecl struct {
	Span
	Kind  VarKind
	Decls []*Declarator
}

// FuncDecl is a function declaration (Name is nil only in "export default
// function () {}").
type FuncDecl struct{ Func }

// ClassDecl is a class declaration (Name is nil only in "export default
// class {}").
type ClassDecl struct{ Class }

// Block is "{ ... }".
type Block struct {
	Span
	Body []Stmt
}

// Empty is ";".
type Empty struct{ Span }

// Debugger is "debugger".
type Debugger struct{ Span }

// Return is "return" with an optional argument.
type Return struct {
	Span
	Arg Expr
}

// Throw is "throw x".
type Throw struct {
	Span
	Arg Expr
}

// If is an if statement; Else may be nil.
type If struct {
	Span
	Test Expr
	Then Stmt
	Else Stmt
}

// For is "for (init; test; update) body"; Init is nil, a *VarDecl, or an
// *ExprStmt-free Expr wrapped in ForInit.
type For struct {
	Span
	Init   Node // nil, *VarDecl or an Expr
	Test   Expr
	Update Expr
	Body   Stmt
}

// ForIn is "for (left in right) body"; Left is a *VarDecl or a Pattern.
type ForIn struct {
	Span
	Left  Node
	Right Expr
	Body  Stmt
}

// ForOf is "for (left of right) body", or "for await" when Await.
type ForOf struct {
	Span
	Left  Node
	Right Expr
	Body  Stmt
	Await bool
}

// While is a while loop.
type While struct {
	Span
	Test Expr
	Body Stmt
}

// DoWhile is a do-while loop.
type DoWhile struct {
	Span
	Body Stmt
	Test Expr
}

// Break is "break" with an optional label.
type Break struct {
	Span
	Label *Ident
}

// Continue is "continue" with an optional label.
type Continue struct {
	Span
	Label *Ident
}

// Labeled is "label: body".
type Labeled struct {
	Span
	Label *Ident
	Body  Stmt
}

// With is "with (object) body" (sloppy mode only).
type With struct {
	Span
	Object Expr
	Body   Stmt
}

// Case is one clause of a switch; Test is nil for "default".
type Case struct {
	Span
	Test Expr
	Body []Stmt
}

// Switch is a switch statement.
type Switch struct {
	Span
	Disc  Expr
	Cases []*Case
}

// Catch is the catch clause of a try statement; Param may be nil.
type Catch struct {
	Span
	Param Pattern
	Body  *Block
}

// Try is a try statement; Handler or Finally may be nil (not both).
type Try struct {
	Span
	Block   *Block
	Handler *Catch
	Finally *Block
}

// ImportAttribute is one "key: value" of an import's "with { ... }" clause;
// Key is an *Ident or *StringLit.
type ImportAttribute struct {
	Span
	Key   Expr
	Value *StringLit
}

// ModuleName is an import or export name: an *Ident, or a *StringLit for
// arbitrary module namespace names such as "a-b".
type ModuleName = Expr

// ImportSpec is one imported binding. Kind tells "default" (import d from),
// "namespace" (import * as ns from) or a named import "{imported as local}".
type ImportSpec struct {
	Span
	Kind     ImportKind
	Imported ModuleName // nil for default and namespace imports
	Local    *Ident
}

// ImportKind is the kind of an ImportSpec.
type ImportKind uint8

const (
	ImportNamed ImportKind = iota
	ImportDefault
	ImportNamespace
)

// Import is an import declaration.
type Import struct {
	Span
	Specs  []*ImportSpec
	Source *StringLit
	Attrs  []*ImportAttribute
}

// ExportSpec is "local as exported" in an export clause. In a re-export
// (with "from") Local names the other module's export.
type ExportSpec struct {
	Span
	Local    ModuleName
	Exported ModuleName
}

// ExportNamed is "export { ... } [from ...]" or "export declaration".
type ExportNamed struct {
	Span
	Decl   Stmt // *VarDecl, *FuncDecl or *ClassDecl; or nil
	Specs  []*ExportSpec
	Source *StringLit // nil without "from"
	Attrs  []*ImportAttribute
}

// ExportDefault is "export default ..."; Decl is a *FuncDecl, a *ClassDecl or
// an Expr.
type ExportDefault struct {
	Span
	Decl Node
}

// ExportAll is "export * from ..." or "export * as name from ...".
type ExportAll struct {
	Span
	Exported ModuleName // nil without "as"
	Source   *StringLit
	Attrs    []*ImportAttribute
}

// ---------------------------------------------------------------------------
// Marker methods: the closed sets.

func (*Ident) isExpr()          {}
func (*PrivateName) isExpr()    {}
func (*This) isExpr()           {}
func (*Super) isExpr()          {}
func (*NullLit) isExpr()        {}
func (*BoolLit) isExpr()        {}
func (*NumLit) isExpr()         {}
func (*BigIntLit) isExpr()      {}
func (*StringLit) isExpr()      {}
func (*RegExpLit) isExpr()      {}
func (*Template) isExpr()       {}
func (*TaggedTemplate) isExpr() {}
func (*Array) isExpr()          {}
func (*Object) isExpr()         {}
func (*Spread) isExpr()         {}
func (*FuncExpr) isExpr()       {}
func (*Arrow) isExpr()          {}
func (*ClassExpr) isExpr()      {}
func (*Unary) isExpr()          {}
func (*Update) isExpr()         {}
func (*Binary) isExpr()         {}
func (*Assign) isExpr()         {}
func (*Cond) isExpr()           {}
func (*Call) isExpr()           {}
func (*New) isExpr()            {}
func (*Member) isExpr()         {}
func (*Chain) isExpr()          {}
func (*Seq) isExpr()            {}
func (*Paren) isExpr()          {}
func (*Yield) isExpr()          {}
func (*Await) isExpr()          {}
func (*MetaProperty) isExpr()   {}
func (*ImportCall) isExpr()     {}

func (*Ident) isPattern()         {}
func (*Member) isPattern()        {}
func (*Paren) isPattern()         {}
func (*ArrayPattern) isPattern()  {}
func (*ObjectPattern) isPattern() {}
func (*AssignPattern) isPattern() {}
func (*RestElement) isPattern()   {}

func (*ExprStmt) isStmt()      {}
func (*VarDecl) isStmt()       {}
func (*FuncDecl) isStmt()      {}
func (*ClassDecl) isStmt()     {}
func (*Block) isStmt()         {}
func (*Empty) isStmt()         {}
func (*Debugger) isStmt()      {}
func (*Return) isStmt()        {}
func (*Throw) isStmt()         {}
func (*If) isStmt()            {}
func (*For) isStmt()           {}
func (*ForIn) isStmt()         {}
func (*ForOf) isStmt()         {}
func (*While) isStmt()         {}
func (*DoWhile) isStmt()       {}
func (*Break) isStmt()         {}
func (*Continue) isStmt()      {}
func (*Labeled) isStmt()       {}
func (*With) isStmt()          {}
func (*Switch) isStmt()        {}
func (*Try) isStmt()           {}
func (*Import) isStmt()        {}
func (*ExportNamed) isStmt()   {}
func (*ExportDefault) isStmt() {}
func (*ExportAll) isStmt()     {}

func (*Method) isClassMember()      {}
func (*Field) isClassMember()       {}
func (*StaticBlock) isClassMember() {}
