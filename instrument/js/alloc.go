package js

// slab hands out nodes from chunks, so that the most frequent node types
// cost one allocation per chunk rather than one each. A chunk stays alive
// while any of its nodes is referenced, which suits a syntax tree.
// Chunks grow from 8 to 64 nodes, so that a small program does not pay
// for a large one's.
type slab[T any] struct {
	buf []T
	n   int // size of the last chunk
}

func (s *slab[T]) alloc() *T {
	if len(s.buf) == 0 {
		switch {
		case s.n < 8:
			s.n = 8
		case s.n < 64:
			s.n *= 2
		}
		s.buf = make([]T, s.n)
	}
	x := &s.buf[0]
	s.buf = s.buf[1:]
	return x
}

type nodeSlabs struct {
	idents  slab[Ident]
	members slab[Member]
	calls   slab[Call]
	binarys slab[Binary]
	stmts   slab[ExprStmt]
}

func (p *parser) newIdent(start, end int32, name string) *Ident {
	n := p.slabs.idents.alloc()
	n.Start, n.End, n.Name = start, end, name
	return n
}

func (p *parser) newMember(start, end int32, obj, prop Expr, computed, optional bool) *Member {
	n := p.slabs.members.alloc()
	*n = Member{Span{start, end}, obj, prop, computed, optional}
	return n
}

func (p *parser) newCall(start, end int32, callee Expr, args []Expr, optional bool) *Call {
	n := p.slabs.calls.alloc()
	*n = Call{Span{start, end}, callee, args, optional}
	return n
}
