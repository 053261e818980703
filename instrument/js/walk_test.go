package js

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// logVisitor logs what Walk visits: "open" with the node's span, and
// "close" with the span of the node whose visitor is told the walk of
// its children is over; it does not enter the nodes skip names.
type logVisitor struct {
	n    Node
	log  *[]string
	skip func(Node) bool
}

func (v logVisitor) Visit(n Node) Visitor {
	if n == nil {
		*v.log = append(*v.log, fmt.Sprintf("close %T %v", v.n, spanOf(v.n)))
		return nil
	}
	*v.log = append(*v.log, fmt.Sprintf("open %T %v", n, spanOf(n)))
	if v.skip(n) {
		return nil
	}
	return logVisitor{n, v.log, v.skip}
}

func spanOf(n Node) Span {
	if n == nil {
		return Span{}
	}
	return Span{n.Pos(), n.EndPos()}
}

// refWalk is Walk as it was for binary operators, recursive, over the
// expressions of TestWalkBinaryChains (names, binary operators, parens).
func refWalk(v Visitor, n Node) {
	if v = v.Visit(n); v == nil {
		return
	}
	switch n := n.(type) {
	case *Ident:
	case *Paren:
		refWalk(v, n.X)
	case *Binary:
		refWalk(v, n.X)
		refWalk(v, n.Y)
	default:
		panic(fmt.Sprintf("%T", n))
	}
	v.Visit(nil)
}

// TestWalkBinaryChains: Walk takes a chain of binary operators in a loop
// and visits what the recursive walk did, in the same order, with the
// same visitors, also when a visitor skips a node of the chain.
func TestWalkBinaryChains(t *testing.T) {
	for _, src := range []string{
		"a + b * c - d / (e + f) in g instanceof h",
		"a && b || c && (d || e) || f",
		"(a ?? b) ?? c ?? d",
		"a ** b ** c + d",
		"a",
	} {
		prog, err := Parse([]byte(src), Options{})
		require.NoError(t, err)
		x := prog.Body[0].(*ExprStmt).X
		for _, skip := range []func(Node) bool{
			func(Node) bool { return false },
			func(n Node) bool { b, ok := n.(*Binary); return ok && (b.Op == "-" || b.Op == "||" || b.Op == "??") },
			func(n Node) bool { _, ok := n.(*Paren); return ok },
			func(n Node) bool { return n.Pos() == 0 },
		} {
			var got, want []string
			Walk(logVisitor{nil, &got, skip}, x)
			refWalk(logVisitor{nil, &want, skip}, x)
			require.Equal(t, want, got, src)
		}
	}
}
