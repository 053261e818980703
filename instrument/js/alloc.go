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
	used  [][]T // the chunks handed out since the last reset
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
	s.used = append(s.used, s.buf)
}

// node returns a node of the slab holding v.
func node[T any](s *slab[T], v T) *T {
	n := s.alloc()
	*n = v
	return n
}

// recycle zeroes the chunks handed out (a tree of the last parse must not
// keep another alive through them) and makes them spare.
func recycle[T any](used, spare *[][]T) {
	for _, c := range *used {
		clear(c)
		*spare = append(*spare, c)
	}
	clear(*used)
	*used = (*used)[:0]
}

func (s *slab[T]) reset() {
	recycle(&s.used, &s.spare)
	s.buf = nil
}

// lists hands out slices of exactly the length asked for (their capacity
// too, so that an append to one never writes into the next), cut from
// chunks: statement lists and argument lists cost one allocation per
// chunk rather than one or more each. Like a slab's, an Arena's chunks
// are kept for the next parse.
type lists[T any] struct {
	buf   []T
	used  [][]T
	spare [][]T
	// stack holds the items of lists being read (nested lists above
	// their parents' items), copied out when a list is complete.
	stack []T
}

const listChunk = 1024

// begin returns the stack position where a list's items start.
func (l *lists[T]) begin() int { return len(l.stack) }

// push adds an item to the list begun last.
func (l *lists[T]) push(x T) { l.stack = append(l.stack, x) }

// end returns the items pushed since base, as a slice of the list's own
// (nil if none), and pops them.
func (l *lists[T]) end(base int) []T {
	items := l.stack[base:]
	n := len(items)
	if n == 0 {
		return nil
	}
	var out []T
	if n > listChunk/8 {
		out = make([]T, n)
	} else {
		if len(l.buf) < n {
			if k := len(l.spare); k > 0 {
				l.buf = l.spare[k-1]
				l.spare = l.spare[:k-1]
			} else {
				l.buf = make([]T, listChunk)
			}
			l.used = append(l.used, l.buf)
		}
		out = l.buf[:n:n]
		l.buf = l.buf[n:]
	}
	copy(out, items)
	clear(items)
	l.stack = l.stack[:base]
	return out
}

func (l *lists[T]) reset() {
	recycle(&l.used, &l.spare)
	clear(l.stack)
	l.buf, l.stack = nil, l.stack[:0]
}

type nodeSlabs struct {
	idents   slab[Ident]
	members  slab[Member]
	calls    slab[Call]
	binarys  slab[Binary]
	stmts    slab[ExprStmt]
	assigns  slab[Assign]
	blocks   slab[Block]
	ifs      slab[If]
	returns  slab[Return]
	varDecls slab[VarDecl]
	decls    slab[Declarator]
	nums     slab[NumLit]
	strs     slab[StringLit]
	thises   slab[This]
	bools    slab[BoolLit]
	nulls    slab[NullLit]
	funcs    slab[FuncExpr]
	parens   slab[Paren]
	unarys   slab[Unary]
	updates  slab[Update]

	stmtLists lists[Stmt]
	exprLists lists[Expr]
	patLists  lists[Pattern]
	declLists lists[*Declarator]
}

func (s *nodeSlabs) reset() {
	s.idents.reset()
	s.members.reset()
	s.calls.reset()
	s.binarys.reset()
	s.stmts.reset()
	s.assigns.reset()
	s.blocks.reset()
	s.ifs.reset()
	s.returns.reset()
	s.varDecls.reset()
	s.decls.reset()
	s.nums.reset()
	s.strs.reset()
	s.thises.reset()
	s.bools.reset()
	s.nulls.reset()
	s.funcs.reset()
	s.parens.reset()
	s.unarys.reset()
	s.updates.reset()
	s.stmtLists.reset()
	s.exprLists.reset()
	s.patLists.reset()
	s.declLists.reset()
}

// An Arena lends Parse the memory of the most frequent nodes of the
// syntax tree and of its lists, and keeps it from one parse to the next:
// a caller that parses many files, one at a time, and uses each tree only
// until the next parse (the instrumenter) allocates less, and its garbage
// collector runs less often. A Program parsed with an arena must not be
// used after the arena's Reset; an arena serves one parse at a time.
type Arena struct {
	slabs nodeSlabs
}

// NewArena returns an empty arena.
func NewArena() *Arena { return &Arena{} }

// Reset makes the memory of the trees parsed with a available to the next
// parse; those trees must not be used after.
func (a *Arena) Reset() { a.slabs.reset() }

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
