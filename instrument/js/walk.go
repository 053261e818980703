package js

import "fmt"

// A Visitor's Visit method is invoked for each node Walk meets. If the
// result w is not nil, Walk visits each child of the node with w, then calls
// w.Visit(nil).
type Visitor interface {
	Visit(n Node) (w Visitor)
}

// Walk traverses the tree rooted at n in depth-first source order. It
// panics on a node type it does not know, so that a new node type cannot be
// skipped silently.
func Walk(v Visitor, n Node) {
	if v = v.Visit(n); v == nil {
		return
	}
	switch n := n.(type) {
	case *Program:
		walkStmts(v, n.Body)
	case *Ident, *PrivateName, *This, *Super, *NullLit, *BoolLit, *NumLit,
		*BigIntLit, *StringLit, *RegExpLit, *Empty, *Debugger, *TemplatePart:
		// leaves
	case *Template:
		for i := range n.Parts {
			Walk(v, &n.Parts[i])
			if i < len(n.Exprs) {
				Walk(v, n.Exprs[i])
			}
		}
	case *TaggedTemplate:
		Walk(v, n.Tag)
		Walk(v, n.Quasi)
	case *Array:
		for _, e := range n.Elems {
			if e != nil {
				Walk(v, e)
			}
		}
	case *Object:
		for _, p := range n.Props {
			Walk(v, p)
		}
	case *Property:
		if !n.Shorthand {
			Walk(v, n.Key)
		}
		Walk(v, n.Value)
	case *Spread:
		Walk(v, n.Arg)
	case *FuncExpr:
		walkFunc(v, &n.Func)
	case *FuncDecl:
		walkFunc(v, &n.Func)
	case *Arrow:
		for _, p := range n.Params {
			Walk(v, p)
		}
		if n.Body != nil {
			Walk(v, n.Body)
		} else {
			Walk(v, n.ExprBody)
		}
	case *ClassExpr:
		walkClass(v, &n.Class)
	case *ClassDecl:
		walkClass(v, &n.Class)
	case *Method:
		walkExprs(v, n.Decorators)
		Walk(v, n.Key)
		Walk(v, n.Value)
	case *Field:
		walkExprs(v, n.Decorators)
		Walk(v, n.Key)
		if n.Value != nil {
			Walk(v, n.Value)
		}
	case *StaticBlock:
		walkStmts(v, n.Body)
	case *Unary:
		Walk(v, n.X)
	case *Update:
		Walk(v, n.X)
	case *Binary:
		walkBinary(v, n)
	case *Assign:
		Walk(v, n.Target)
		Walk(v, n.Value)
	case *Cond:
		Walk(v, n.Test)
		Walk(v, n.Yes)
		Walk(v, n.No)
	case *Call:
		Walk(v, n.Callee)
		walkExprs(v, n.Args)
	case *New:
		Walk(v, n.Callee)
		walkExprs(v, n.Args)
	case *Member:
		Walk(v, n.Object)
		Walk(v, n.Property)
	case *Chain:
		Walk(v, n.X)
	case *Seq:
		walkExprs(v, n.List)
	case *Paren:
		Walk(v, n.X)
	case *Yield:
		if n.Arg != nil {
			Walk(v, n.Arg)
		}
	case *Await:
		Walk(v, n.Arg)
	case *MetaProperty:
		Walk(v, n.Meta)
		Walk(v, n.Property)
	case *ImportCall:
		Walk(v, n.Source)
		if n.Options != nil {
			Walk(v, n.Options)
		}
	case *ArrayPattern:
		for _, e := range n.Elems {
			if e != nil {
				Walk(v, e)
			}
		}
	case *ObjectPattern:
		for _, p := range n.Props {
			Walk(v, p)
		}
	case *AssignPattern:
		Walk(v, n.Target)
		Walk(v, n.Default)
	case *RestElement:
		Walk(v, n.Target)
	case *ExprStmt:
		Walk(v, n.X)
	case *VarDecl:
		for _, d := range n.Decls {
			Walk(v, d)
		}
	case *Declarator:
		Walk(v, n.Target)
		if n.Init != nil {
			Walk(v, n.Init)
		}
	case *Block:
		walkStmts(v, n.Body)
	case *Return:
		if n.Arg != nil {
			Walk(v, n.Arg)
		}
	case *Throw:
		Walk(v, n.Arg)
	case *If:
		Walk(v, n.Test)
		Walk(v, n.Then)
		if n.Else != nil {
			Walk(v, n.Else)
		}
	case *For:
		if n.Init != nil {
			Walk(v, n.Init)
		}
		if n.Test != nil {
			Walk(v, n.Test)
		}
		if n.Update != nil {
			Walk(v, n.Update)
		}
		Walk(v, n.Body)
	case *ForIn:
		Walk(v, n.Left)
		Walk(v, n.Right)
		Walk(v, n.Body)
	case *ForOf:
		Walk(v, n.Left)
		Walk(v, n.Right)
		Walk(v, n.Body)
	case *While:
		Walk(v, n.Test)
		Walk(v, n.Body)
	case *DoWhile:
		Walk(v, n.Body)
		Walk(v, n.Test)
	case *Break:
		if n.Label != nil {
			Walk(v, n.Label)
		}
	case *Continue:
		if n.Label != nil {
			Walk(v, n.Label)
		}
	case *Labeled:
		Walk(v, n.Label)
		Walk(v, n.Body)
	case *With:
		Walk(v, n.Object)
		Walk(v, n.Body)
	case *Switch:
		Walk(v, n.Disc)
		for _, c := range n.Cases {
			Walk(v, c)
		}
	case *Case:
		if n.Test != nil {
			Walk(v, n.Test)
		}
		walkStmts(v, n.Body)
	case *Try:
		Walk(v, n.Block)
		if n.Handler != nil {
			Walk(v, n.Handler)
		}
		if n.Finally != nil {
			Walk(v, n.Finally)
		}
	case *Catch:
		if n.Param != nil {
			Walk(v, n.Param)
		}
		Walk(v, n.Body)
	case *Import:
		for _, s := range n.Specs {
			Walk(v, s)
		}
		Walk(v, n.Source)
		walkAttrs(v, n.Attrs)
	case *ImportSpec:
		if n.Imported != nil && n.Imported != Expr(n.Local) {
			Walk(v, n.Imported)
		}
		Walk(v, n.Local)
	case *ImportAttribute:
		Walk(v, n.Key)
		Walk(v, n.Value)
	case *ExportNamed:
		if n.Decl != nil {
			Walk(v, n.Decl)
		}
		for _, s := range n.Specs {
			Walk(v, s)
		}
		if n.Source != nil {
			Walk(v, n.Source)
		}
		walkAttrs(v, n.Attrs)
	case *ExportSpec:
		Walk(v, n.Local)
		if n.Exported != n.Local {
			Walk(v, n.Exported)
		}
	case *ExportDefault:
		Walk(v, n.Decl)
	case *ExportAll:
		if n.Exported != nil {
			Walk(v, n.Exported)
		}
		Walk(v, n.Source)
		walkAttrs(v, n.Attrs)
	default:
		panic(fmt.Sprintf("js.Walk: unexpected node type %T", n))
	}
	v.Visit(nil)
}

// walkBinary walks the operands of n, whose visitor is v, without
// recursing down its left operands: a chain a + b + c + ... is a tree as
// deep as it is long (the parser builds it in a loop and V8 accepts any
// length), each left operand a Binary that Walk visits as it would.
func walkBinary(v Visitor, n *Binary) {
	type level struct {
		b *Binary
		v Visitor
	}
	var buf [8]level
	chain := append(buf[:0], level{n, v})
	for {
		top := chain[len(chain)-1]
		x, ok := top.b.X.(*Binary)
		if !ok {
			Walk(top.v, top.b.X)
			break
		}
		w := top.v.Visit(x)
		if w == nil {
			break
		}
		chain = append(chain, level{x, w})
	}
	for i := len(chain) - 1; i >= 0; i-- {
		Walk(chain[i].v, chain[i].b.Y)
		if i > 0 {
			chain[i].v.Visit(nil) // n's is Walk's
		}
	}
}

func walkStmts(v Visitor, list []Stmt) {
	for _, s := range list {
		Walk(v, s)
	}
}

func walkExprs(v Visitor, list []Expr) {
	for _, e := range list {
		Walk(v, e)
	}
}

func walkAttrs(v Visitor, list []*ImportAttribute) {
	for _, a := range list {
		Walk(v, a)
	}
}

func walkFunc(v Visitor, f *Func) {
	if f.Name != nil {
		Walk(v, f.Name)
	}
	for _, p := range f.Params {
		Walk(v, p)
	}
	Walk(v, f.Body)
}

func walkClass(v Visitor, c *Class) {
	walkExprs(v, c.Decorators)
	if c.Name != nil {
		Walk(v, c.Name)
	}
	if c.Super != nil {
		Walk(v, c.Super)
	}
	for _, m := range c.Members {
		Walk(v, m)
	}
}

type inspector func(Node) bool

func (f inspector) Visit(n Node) Visitor {
	if f(n) {
		return f
	}
	return nil
}

// Inspect traverses the tree rooted at n in depth-first order, calling f(n)
// for each node; if f returns true, Inspect visits n's children, then calls
// f(nil).
func Inspect(n Node, f func(Node) bool) {
	Walk(inspector(f), n)
}
