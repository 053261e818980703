package lifetime

// This file holds the heap graph: a directed multigraph of vertices (object
// ids and closure contexts) whose edges are either named (one per (source,
// name)) or child-set members (one per (source, name, target)). It keeps the
// orders MemInsight's JGraphT graph has: each vertex's out-edges and
// in-edges in insertion order, and vertices in insertion order (by sequence
// number). Removal is O(1) by tombstoning list slots; lists are compacted
// when more than half of them is dead, which keeps the order.

// nodeKey names a graph node: a context (ctx != nil) or an object id.
// Candidate sets and the cycle queue hold nodeKeys because they may name
// nodes that are not (or no longer) vertices of the graph.
type nodeKey struct {
	ctx *Context
	id  int32
}

func objKey(id int32) nodeKey { return nodeKey{id: id} }

// vertex is one node of the graph.
type vertex struct {
	ctx   *Context // nil for an object
	id    int32    // the object id (contexts: -1)
	rc    int32    // live in-degree: the reference count
	outN  int32    // live out-degree
	out   []int32  // edge indices in insertion order; -1 = removed
	in    []int32
	seq   uint64          // insertion order of the vertex
	mark  uint32          // == graph.epoch when marked
	named map[int32]int32 // with index: named out-edges by name
	index bool            // out-edges indexed: named ones in named, child-set ones in graph.edgeIdx
	dying bool            // being removed: do not compact its lists
	used  bool            // the slot holds a vertex
}

// edge is one graph edge.
type edge struct {
	from, to      int32 // vertex slots
	name          int32 // interned name
	multi         bool  // child-set member edge
	outPos, inPos int32 // positions in from.out and to.in
}

// edgeKey is 16 bytes (the runtime has a fast hash for that size, not for
// 12).
type edgeKey struct {
	from, name, to int32 // to = -1 for a named edge
	_              int32
}

// indexThreshold is the out-list length above which a vertex's edges are
// looked up through a hash map instead of a linear scan.
const indexThreshold = 16

type graph struct {
	verts     []vertex
	freeVerts []int32
	edges     []edge
	freeEdges []int32
	edgeIdx   map[edgeKey]int32
	seq       uint64
	epoch     uint32
	nVerts    int
}

func (g *graph) init() {
	g.edgeIdx = make(map[edgeKey]int32)
	g.epoch = 1
}

// newVertex adds a vertex and returns its slot.
func (g *graph) newVertex(ctx *Context, id int32) int32 {
	var s int32
	if n := len(g.freeVerts); n > 0 {
		s = g.freeVerts[n-1]
		g.freeVerts = g.freeVerts[:n-1]
	} else {
		g.verts = append(g.verts, vertex{})
		s = int32(len(g.verts) - 1)
	}
	v := &g.verts[s]
	v.ctx, v.id, v.rc, v.outN = ctx, id, 0, 0
	v.out, v.in = v.out[:0], v.in[:0]
	v.seq = g.seq
	g.seq++
	v.mark, v.index, v.dying, v.used = 0, false, false, true
	g.nVerts++
	return s
}

// findNamed returns the named edge (from, name), or -1.
func (g *graph) findNamed(from int32, name int32) int32 {
	v := &g.verts[from]
	if v.index {
		if e, ok := v.named[name]; ok {
			return e
		}
		return -1
	}
	for _, ei := range v.out {
		if ei >= 0 {
			e := &g.edges[ei]
			if e.name == name && !e.multi {
				return ei
			}
		}
	}
	return -1
}

// findMulti returns the child-set edge (from, name, to), or -1.
func (g *graph) findMulti(from, name, to int32) int32 {
	v := &g.verts[from]
	if v.index {
		if e, ok := g.edgeIdx[edgeKey{from: from, name: name, to: to}]; ok {
			return e
		}
		return -1
	}
	for _, ei := range v.out {
		if ei >= 0 {
			e := &g.edges[ei]
			if e.name == name && e.multi && e.to == to {
				return ei
			}
		}
	}
	return -1
}

func (g *graph) keyOf(e *edge) edgeKey {
	return edgeKey{from: e.from, name: e.name, to: e.to}
}

// indexAdd and indexDel maintain the index of an indexed vertex fv.
func (g *graph) indexAdd(fv *vertex, e *edge, ei int32) {
	if e.multi {
		g.edgeIdx[g.keyOf(e)] = ei
	} else {
		fv.named[e.name] = ei
	}
}

func (g *graph) indexDel(fv *vertex, e *edge) {
	if e.multi {
		delete(g.edgeIdx, g.keyOf(e))
	} else {
		delete(fv.named, e.name)
	}
}

// addEdge adds an edge; the caller has checked that its key is absent.
func (g *graph) addEdge(from, to, name int32, multi bool) {
	var ei int32
	if n := len(g.freeEdges); n > 0 {
		ei = g.freeEdges[n-1]
		g.freeEdges = g.freeEdges[:n-1]
	} else {
		g.edges = append(g.edges, edge{})
		ei = int32(len(g.edges) - 1)
	}
	fv := &g.verts[from]
	e := &g.edges[ei]
	*e = edge{from: from, to: to, name: name, multi: multi, outPos: int32(len(fv.out))}
	fv.out = append(fv.out, ei)
	fv.outN++
	tv := &g.verts[to]
	e.inPos = int32(len(tv.in))
	tv.in = append(tv.in, ei)
	tv.rc++
	if fv.index {
		g.indexAdd(fv, e, ei)
	} else if len(fv.out) > indexThreshold && fv.outN > indexThreshold/2 {
		fv.index = true
		if fv.named == nil {
			fv.named = make(map[int32]int32)
		}
		for _, x := range fv.out {
			if x >= 0 {
				g.indexAdd(fv, &g.edges[x], x)
			}
		}
	}
}

// unlinkNamed takes the named edge ei out of its source's and target's
// lists, as removeEdge does, but keeps the edge (and its index entry) for
// relinkNamed, which gives it a new target. The pair is removeEdge plus
// addEdge of the same (from, name) without touching the index (addEdge
// would reuse the slot removeEdge frees, so edge numbers are the same).
// It returns the old target.
func (g *graph) unlinkNamed(ei int32) int32 {
	e := &g.edges[ei]
	fv := &g.verts[e.from]
	fv.out[e.outPos] = -1
	fv.outN--
	tv := &g.verts[e.to]
	tv.in[e.inPos] = -1
	tv.rc--
	from, to := e.from, e.to
	g.maybeCompactOut(from)
	g.maybeCompactIn(to)
	return to
}

// relinkNamed appends the unlinked edge ei to its source's out-list and to
// the in-list of its new target.
func (g *graph) relinkNamed(ei, to int32) {
	e := &g.edges[ei]
	fv := &g.verts[e.from]
	e.to = to
	e.outPos = int32(len(fv.out))
	fv.out = append(fv.out, ei)
	fv.outN++
	tv := &g.verts[to]
	e.inPos = int32(len(tv.in))
	tv.in = append(tv.in, ei)
	tv.rc++
}

// removeEdge deletes edge ei from the graph.
func (g *graph) removeEdge(ei int32) {
	e := &g.edges[ei]
	fv := &g.verts[e.from]
	if fv.index {
		g.indexDel(fv, e)
	}
	fv.out[e.outPos] = -1
	fv.outN--
	tv := &g.verts[e.to]
	tv.in[e.inPos] = -1
	tv.rc--
	from, to := e.from, e.to
	e.from, e.to = -1, -1
	g.freeEdges = append(g.freeEdges, ei)
	g.maybeCompactOut(from)
	g.maybeCompactIn(to)
}

func (g *graph) maybeCompactOut(s int32) {
	v := &g.verts[s]
	if v.dying || len(v.out) < 8 || int(v.outN)*2 > len(v.out) {
		return
	}
	j := 0
	for _, ei := range v.out {
		if ei >= 0 {
			g.edges[ei].outPos = int32(j)
			v.out[j] = ei
			j++
		}
	}
	v.out = v.out[:j]
}

func (g *graph) maybeCompactIn(s int32) {
	v := &g.verts[s]
	if v.dying || len(v.in) < 8 || int(v.rc)*2 > len(v.in) {
		return
	}
	j := 0
	for _, ei := range v.in {
		if ei >= 0 {
			g.edges[ei].inPos = int32(j)
			v.in[j] = ei
			j++
		}
	}
	v.in = v.in[:j]
}

// removeVertex deletes a vertex and every edge that touches it. The caller
// clears the owner's slot field.
func (g *graph) removeVertex(s int32) {
	v := &g.verts[s]
	v.dying = true
	for i := 0; i < len(v.in); i++ {
		if ei := v.in[i]; ei >= 0 {
			g.removeEdge(ei)
		}
	}
	for i := 0; i < len(v.out); i++ {
		if ei := v.out[i]; ei >= 0 {
			g.removeEdge(ei)
		}
	}
	v = &g.verts[s]
	if cap(v.out) > 64 {
		v.out = nil
		v.named = nil
	} else {
		v.out = v.out[:0] // v.named, empty now, is kept for the slot's next vertex
	}
	if cap(v.in) > 64 {
		v.in = nil
	} else {
		v.in = v.in[:0]
	}
	v.ctx = nil
	v.index = false
	v.dying = false
	v.used = false
	v.rc, v.outN = 0, 0
	v.id = 0
	g.freeVerts = append(g.freeVerts, s)
	g.nVerts--
}
