package instrument

import (
	"cmp"
	"slices"
	"strconv"
)

// Position maps (Options.PosMap): where an instrumented script's stack
// frames are, in the original. The hooks keep every line where it was,
// but not columns: the engine reports a frame's column in the instrumented
// text, often that of a hook call (the caller of a function called
// through H.c1 is at "c1"). The map takes an instrumented line and column
// to the column the engine would have reported for the original
// (docs/instrumentation.md §4, "Stack traces").
//
// The map is a JSON array of numbers (then, on a second line, a JSON
// array of the names V8 infers for function literals the hooks wrap: name,
// original line and column of the literal, for each), five per entry, entries in order of
// their instrumented position: line, column (the instrumented one, 1-based
// UTF-16, as the engine counts), original line, original column, kind. An
// entry holds from its column to the next entry's (on its line); lines
// without entries are unchanged. Kinds:
//
//	0: original text from here on: original column + (column - entry's column)
//	1: inserted text: the original position it was inserted at
//	2: the name of a hook call that stands for an operation of the original
//	   (a call, a new, a method lookup, a property store): at exactly this
//	   column, where the engine reports that operation in the original (the
//	   callee for f(), the property name for o.m(), "(" for o[k]() and
//	   (f)(), "new", the assignment operator); the next column is kind 1.
//	   So too inserted text where the program performs an operation of
//	   the original itself (rewriter.textPoints: the "=" of an element
//	   store, the name or "[" of a method lookup)
const (
	posRun    = 0
	posInsert = 1
	posPoint  = 2
)

// point records, for the hook call of local iid i, the source offset where
// the engine reports the operation it stands for (Options.PosMap only).
func (r *rewriter) point(i int, pos int32) {
	if r.points != nil {
		r.points[i] = pos
	}
}

// lineCols gives the 1-based line and UTF-16 column of byte offsets of a
// text, walking it forwards.
type lineCols struct {
	s         []byte
	off       int
	line, col int32
	// walked counts the bytes walked (the tests' measure of the work).
	walked int
}

func (lc *lineCols) to(off int) {
	s := lc.s
	if off > lc.off {
		lc.walked += off - lc.off
	}
	for lc.off < off {
		c := s[lc.off]
		switch {
		case c == '\n':
			lc.line, lc.col = lc.line+1, 1
		case c == '\r':
			if lc.off+1 < len(s) && s[lc.off+1] == '\n' {
				lc.off++
			}
			lc.line, lc.col = lc.line+1, 1
		case c == 0xE2 && lc.off+2 < len(s) && s[lc.off+1] == 0x80 && (s[lc.off+2] == 0xA8 || s[lc.off+2] == 0xA9):
			lc.line, lc.col = lc.line+1, 1
			lc.off += 2
		case c < 0x80 || c >= 0xC0 && c < 0xF0:
			lc.col++
		case c >= 0xF0:
			lc.col += 2 // a surrogate pair
		}
		lc.off++
	}
}

// markStride is the distance between a seekCols' marks: a point before
// the last one is reached from a mark at most about 2*markStride bytes
// before it.
const markStride = 64

// seekCols gives the line and column of offsets of a text in any order
// in time linear in the text's size: offsets are reached walking forwards
// from the last one, or, for one before it or far after it, from the
// nearest mark at or before it. The marks (the walk's state every
// markStride bytes) are made by one walk over the text, the first time
// an offset lies before the last one. Points of the position map come in
// the order of the instrumented text, which is not the original's (an
// inserted hook call names an operation after the ones it contains;
// inferred names come after all points): restarting from the text's start
// for every step back made a map quadratic in the file's size (dart-sass,
// 5.8 MB: 55 s against 0.5 s without the map).
type seekCols struct {
	lc    lineCols
	marks []colMark // marks[k]: the state at the first step at or after k*markStride
	backs int       // offsets before the last one (the tests')
}

// colMark is a lineCols' state.
type colMark struct {
	off       int
	line, col int32
}

func newSeekCols(s []byte) *seekCols {
	return &seekCols{lc: lineCols{s: s, line: 1, col: 1}}
}

// at returns the line and column of off.
func (sc *seekCols) at(off int) (int32, int32) {
	lc := &sc.lc
	if off < lc.off {
		sc.backs++
	}
	if off < lc.off || off-lc.off > 2*markStride && sc.marks != nil {
		if sc.marks == nil {
			sc.mark()
		}
		k := min(off/markStride, len(sc.marks)-1)
		for k > 0 && sc.marks[k].off > off {
			k--
		}
		if m := &sc.marks[k]; off < lc.off || m.off > lc.off {
			lc.off, lc.line, lc.col = m.off, m.line, m.col
		}
	}
	lc.to(off)
	return lc.line, lc.col
}

// mark walks the whole text once, keeping the state every markStride
// bytes.
func (sc *seekCols) mark() {
	w := lineCols{s: sc.lc.s, line: 1, col: 1}
	sc.marks = make([]colMark, 0, len(w.s)/markStride+1)
	for {
		sc.marks = append(sc.marks, colMark{w.off, w.line, w.col})
		next := len(sc.marks) * markStride
		if next >= len(w.s) {
			break
		}
		w.to(next)
	}
	sc.lc.walked += w.walked
}

// posMap builds the map of out (apply's output of src and edits).
func (r *rewriter) posMap(out []byte) *posMapData {
	src, buf := r.src, r.buf
	o := &lineCols{s: src, line: 1, col: 1}
	p := &lineCols{s: out, line: 1, col: 1}
	d := &posMapData{entries: make([]int32, 0, len(r.edits)*5)}
	emit := func(l, c, ol, oc int32, kind int32) {
		d.entries = append(d.entries, l, c, ol, oc, kind)
	}
	// at: the line and column of a source offset at or after o's (points
	// lie in the text the edit replaces or after it).
	at := newSeekCols(src)
	pointAt := func(pos int32) (int32, int32) { return at.at(int(pos)) }
	remaps := r.remaps
	slices.SortFunc(remaps, func(a, b [2]int32) int { return cmp.Compare(a[0], b[0]) })
	// run maps the original text src[cur:end], unchanged in out, with the
	// remapped offsets in it.
	run := func(cur, end int32) {
		emit(p.line, p.col, o.line, o.col, posRun)
		for len(remaps) > 0 && remaps[0][0] < end {
			x := remaps[0]
			remaps = remaps[1:]
			if x[0] < cur {
				continue
			}
			n := int(x[0] - cur)
			o.to(o.off + n)
			p.to(p.off + n)
			cur = x[0]
			pl, pc := pointAt(x[1])
			emit(p.line, p.col, pl, pc, posPoint)
			emit(p.line, p.col+1, o.line, o.col+1, posRun)
		}
		n := int(end - cur)
		o.to(o.off + n)
		p.to(p.off + n)
	}
	tps := r.textPoints
	slices.SortFunc(tps, func(a, b [2]int32) int { return cmp.Compare(a[0], b[0]) })
	var pts [][2]int32
	cur := int32(0)
	for i := range r.edits {
		e := &r.edits[i]
		if e.pos > cur {
			run(cur, e.pos)
		}
		cur = e.pos
		if e.n == 0 && e.end == e.pos {
			continue
		}
		text := buf[e.off : e.off+e.n]
		if e.n > 0 && p.off > 0 && identByte(out[p.off-1]) && identByte(text[0]) {
			p.to(p.off + 1) // apply's space
		}
		emit(p.line, p.col, o.line, o.col, posInsert)
		start := p.off
		// Points in the text: hook calls' names, and textPoints, by offset.
		pts = pts[:0]
		j, _ := slices.BinarySearchFunc(tps, e.off, func(x [2]int32, off int32) int { return cmp.Compare(x[0], off) })
		for ; j < len(tps) && tps[j][0] < e.off+e.n; j++ {
			pts = append(pts, [2]int32{tps[j][0] - e.off, tps[j][1]})
		}
		for k := 0; k+3 < len(text); k++ {
			// "H.name(iid, " at k (after a byte that ends no name; H the
			// handle or, in a classic script's functions, its alias)
			if k > 0 && identByte(text[k-1]) {
				continue
			}
			hl := 0
			if hasAt(text, k, r.h) {
				hl = len(r.h)
			} else if r.alias != "" && hasAt(text, k, r.alias) {
				hl = len(r.alias)
			}
			if hl == 0 || k+hl >= len(text) || text[k+hl] != '.' {
				continue
			}
			n := k + hl + 1
			j := n
			for j < len(text) && identByte(text[j]) {
				j++
			}
			if j == n || j >= len(text) || text[j] != '(' {
				continue
			}
			d := j + 1
			iid := 0
			for d < len(text) && text[d] >= '0' && text[d] <= '9' {
				iid = iid*10 + int(text[d]-'0')
				d++
			}
			if d == j+1 || d >= len(text) || text[d] != ',' {
				continue
			}
			pos, ok := r.points[iid]
			if !ok {
				continue
			}
			pts = append(pts, [2]int32{int32(n), pos})
		}
		slices.SortFunc(pts, func(a, b [2]int32) int { return cmp.Compare(a[0], b[0]) })
		for _, x := range pts {
			p.to(start + int(x[0]))
			pl, pc := pointAt(x[1])
			emit(p.line, p.col, pl, pc, posPoint)
			emit(p.line, p.col+1, o.line, o.col, posInsert)
		}
		p.to(start + len(text))
		o.to(int(e.end))
		for k := int32(0); k < e.nl; k++ {
			p.to(p.off + 1)
		}
		cur = e.end
	}
	if int(cur) < len(src) {
		run(cur, int32(len(src)))
	}
	for _, n := range r.names {
		l, c := pointAt(n.pos)
		d.names = append(d.names, namedAt{n.name, l, c})
	}
	d.walked, d.backs = at.lc.walked, at.backs
	return d
}

// posMapData is a position map: entries, five numbers each (line, column,
// original line, original column, kind), and the inferred names at their
// literals' original lines and columns.
type posMapData struct {
	entries []int32
	names   []namedAt
	// walked: the bytes of the original walked to find the points'
	// lines and columns (the tests' measure of posMap's work), backs: how
	// many points came before the one found last.
	walked, backs int
}

type namedAt struct {
	name      string
	line, col int32
}

// encode renders the map as the text the shim reads (above).
func (d *posMapData) encode() []byte {
	b := make([]byte, 0, 2+len(d.entries)*4)
	b = append(b, '[')
	for i, v := range d.entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	b = append(b, ']')
	if len(d.names) > 0 {
		b = append(b, '\n', '[')
		for i, n := range d.names {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuote(b, n.name)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(n.line), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(n.col), 10)
		}
		b = append(b, ']')
	}
	return b
}

// inferred is a name V8 infers for the function literal at pos.
type inferred struct {
	pos  int32
	name string
}

func hasAt(b []byte, k int, s string) bool {
	return k+len(s) <= len(b) && string(b[k:k+len(s)]) == s
}
