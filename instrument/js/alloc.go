package js

// slab hands out nodes from chunks, so that the most frequent node types
// cost one allocation per chunk rather than one each. A chunk stays alive
// while any of its nodes is referenced, which suits a syntax tree.
// Chunks grow from 8 to 64 nodes, so that a small program does not pay
// for a large one's. A slab of an Arena keeps its chunks for the next
// parse.
type slab[T any] struct {
	buf   []T
	n     int   // size of the last chunk made
	keep  bool  // an Arena's: record the chunks handed out
	used  [][]T // with keep: the chunks handed out since the last reset
	spare [][]T // zeroed chunks to hand out before making new ones
}

func (s *slab[T]) alloc() *T {
	if len(s.buf) == 0 {
		s.refill()
	}
	x := &s.buf[0]
	s.buf = s.buf[1:]
	return x
}

func (s *slab[T]) refill() {
	if k := len(s.spare); k > 0 {
		s.buf = s.spare[k-1]
		s.spare = s.spare[:k-1]
	} else {
		switch {
		case s.n < 8:
			s.n = 8
		case s.n < 64:
			s.n *= 2
		}
		s.buf = make([]T, s.n)
	}
	if s.keep {
		s.used = append(s.used, s.buf)
	}
}

// reset zeroes the chunks handed out (a tree of the last parse must not
// keep another alive through them) and makes them spare.
func (s *slab[T]) reset() {
	for _, c := range s.used {
		clear(c)
		s.spare = append(s.spare, c)
	}
	clear(s.used)
	s.used, s.buf = s.used[:0], nil
}

type nodeSlabs struct {
	idents  slab[Ident]
	members slab[Member]
	calls   slab[Call]
	binarys slab[Binary]
	stmts   slab[ExprStmt]
}

// An Arena lends Parse the memory of the most frequent nodes of the
// syntax tree and keeps it from one parse to the next: a caller that
// parses many files, one at a time, and uses each tree only until the
// next parse (the instrumenter) allocates less, and its garbage collector
// runs less often. A Program parsed with an arena must not be used after
// the arena's Reset; an arena serves one parse at a time.
type Arena struct {
	slabs nodeSlabs
}

// NewArena returns an empty arena.
func NewArena() *Arena {
	a := &Arena{}
	a.slabs.idents.keep = true
	a.slabs.members.keep = true
	a.slabs.calls.keep = true
	a.slabs.binarys.keep = true
	a.slabs.stmts.keep = true
	return a
}

// Reset makes the memory of the trees parsed with a available to the next
// parse; those trees must not be used after.
func (a *Arena) Reset() {
	a.slabs.idents.reset()
	a.slabs.members.reset()
	a.slabs.calls.reset()
	a.slabs.binarys.reset()
	a.slabs.stmts.reset()
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
