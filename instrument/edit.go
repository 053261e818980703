package instrument

import (
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/memtrace/memtrace/instrument/js"
)

// hk returns `H.name(i, ` (the opening of a hook call) from the rewriter's
// text arena, without an allocation of its own.
func (r *rewriter) hk(name string, i int) string {
	n := len(r.h) + len(name) + 16
	if cap(r.arena)-len(r.arena) < n {
		r.reserve(n)
	}
	start := len(r.arena)
	r.arena = append(r.arena, r.h...)
	r.arena = append(r.arena, '.')
	r.arena = append(r.arena, name...)
	r.arena = append(r.arena, '(')
	r.arena = strconv.AppendInt(r.arena, int64(i), 10)
	r.arena = append(r.arena, ',', ' ')
	b := r.arena[start:]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// HookCopies is the number of copies of the G, P and M hooks (G0, G1, …) the
// runtime shim defines, each reading the object's id through a reader of
// its own (runtime-shim/src/ids.js, Stamp.u0): V8 keeps the type feedback
// of that read per function, so the copies divide the program's sites
// into 32 groups whose objects are each group's own (copyOf picks them).
const HookCopies = 32

// copyOf is the hook copy for a property read or write at site i whose
// object is the expression obj: the same copy for every site whose object
// has the same name, a variable (c in c[k]) or a named property (pos in
// this.pos.x), so that the sites that read one kind of object share a
// reader whose feedback holds that kind (the typed-array views of an
// Emscripten heap, read through the same names in every function; the
// objects a constructor keeps under one field); by the site's local iid
// otherwise. With the copy picked by iid alone, every copy's reader saw
// some site of each common name and turned megamorphic (Octane, CPU time
// instrumented: zlib -27%, Box2D -11%, RayTrace -8%, PdfJS -5%).
//
// A variable that a function reads from outside it (its binding belongs
// to an enclosing function or to the top level of the script or module,
// not to the reading function) is named apart from the locals of that
// name: minified code reuses its short names for everything, and an
// Emscripten module's heap view c, which every function of the module
// reads, shared its reader with each function's own c, whatever those
// held (zlib: the reader of c's copy went megamorphic; apart, 21% less
// CPU instrumented). Captured bindings of
// one name keep sharing a copy: TypeScript's 33 module functions each
// bind the namespace TypeScript, one object.
func (r *rewriter) copyOf(obj js.Expr, i int) int {
	var name string
	switch o := unparen(obj).(type) {
	case *js.Ident:
		name = o.Name
		if ref := r.ref(o); ref != nil && ref.Binding != nil && ref.Scope != nil && ref.Binding.Scope.Func != ref.Scope.Func {
			name += "@"
		}
	case *js.Member:
		p, ok := o.Property.(*js.Ident)
		if o.Computed || !ok {
			return i % HookCopies
		}
		name = "." + p.Name
	default:
		return i % HookCopies
	}
	h := uint32(2166136261) // FNV-1a
	for k := 0; k < len(name); k++ {
		h = (h ^ uint32(name[k])) * 16777619
	}
	return int(h % HookCopies)
}

// hkc is hk for a hook with copies: `H.G7(i, `, copy c (copyOf).
func (r *rewriter) hkc(name string, c, i int) string {
	if r.opts.NoCopies {
		return r.hk(name, i)
	}
	n := len(r.h) + len(name) + 20
	if cap(r.arena)-len(r.arena) < n {
		r.reserve(n)
	}
	start := len(r.arena)
	r.arena = append(r.arena, r.h...)
	r.arena = append(r.arena, '.')
	r.arena = append(r.arena, name...)
	r.arena = strconv.AppendInt(r.arena, int64(c), 10)
	r.arena = append(r.arena, '(')
	r.arena = strconv.AppendInt(r.arena, int64(i), 10)
	r.arena = append(r.arena, ',', ' ')
	return r.arenaString(start)
}

// reserve makes room for n bytes in the arena: a chunk kept from an
// earlier call (release), or a new one; new chunks grow from 4 KiB to
// 64 KiB, so that a small file does not pay for a large one's arena.
func (r *rewriter) reserve(n int) {
	if cap(r.arena)-len(r.arena) >= n {
		return
	}
	if k := len(r.spare); k > 0 && cap(r.spare[k-1]) >= n {
		r.arena = r.spare[k-1][:0]
		r.spare = r.spare[:k-1]
	} else {
		r.arena = make([]byte, 0, max(n, min(max(2*cap(r.arena), 4<<10), 64<<10)))
	}
	r.chunks = append(r.chunks, r.arena)
}

// arenaString returns the arena's bytes from start as a string.
func (r *rewriter) arenaString(start int) string {
	b := r.arena[start:]
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// num returns i in decimal, from the arena.
func (r *rewriter) num(i int) string {
	r.reserve(20)
	start := len(r.arena)
	r.arena = strconv.AppendInt(r.arena, int64(i), 10)
	return r.arenaString(start)
}

// An edit replaces src[pos:end] (empty for an insertion) by text. The
// rewriter emits edits in source order: a node's opening insertions before
// its children's edits, its closing insertions after them, so that equal
// offsets come out nested correctly and the list never needs sorting.
type edit struct {
	pos, end int32
	off, n   int32 // the text: r.text[off:off+n]
	nl       int32 // line terminators of src[pos:end], re-emitted after text
}

// put stores the concatenation of parts in the text buffer and returns
// its offset and length. Edits hold no pointers, so the garbage collector
// never scans them.
func (r *rewriter) put(parts ...string) (int32, int32) {
	off := int32(len(r.buf))
	for _, p := range parts {
		r.buf = append(r.buf, p...)
	}
	return off, int32(len(r.buf)) - off
}

// ins inserts the concatenation of parts at pos.
func (r *rewriter) ins(pos int32, parts ...string) {
	off, n := r.put(parts...)
	r.edits = append(r.edits, edit{pos: pos, end: pos, off: off, n: n})
}

// rep replaces src[a:b] (punctuation, blanks and comments between two
// children) by the concatenation of parts, keeping its line terminators
// so that line numbers survive.
func (r *rewriter) rep(a, b int32, parts ...string) {
	off, n := r.put(parts...)
	r.edits = append(r.edits, edit{pos: a, end: b, off: off, n: n, nl: r.newlines(a, b)})
}

// insParts inserts a + b + c at pos.
func (r *rewriter) insParts(pos int32, a string, b []byte, c string) {
	off := int32(len(r.buf))
	r.buf = append(r.buf, a...)
	r.buf = append(r.buf, b...)
	r.buf = append(r.buf, c...)
	r.edits = append(r.edits, edit{pos: pos, end: pos, off: off, n: int32(len(r.buf)) - off})
}

// hole reserves an insertion at pos whose text is known later (fill).
func (r *rewriter) hole(pos int32) int {
	r.edits = append(r.edits, edit{pos: pos, end: pos})
	return len(r.edits) - 1
}

// holeRep reserves a replacement of src[a:b] whose text is known later.
func (r *rewriter) holeRep(a, b int32) int {
	r.edits = append(r.edits, edit{pos: a, end: b, nl: r.newlines(a, b)})
	return len(r.edits) - 1
}

func (r *rewriter) fill(h int, parts ...string) {
	r.edits[h].off, r.edits[h].n = r.put(parts...)
}

func (r *rewriter) fillBytes(h int, text []byte) {
	off := int32(len(r.buf))
	r.buf = append(r.buf, text...)
	r.edits[h].off, r.edits[h].n = off, int32(len(text))
}

func (r *rewriter) editText(i int) string {
	e := &r.edits[i]
	return string(r.buf[e.off : e.off+e.n])
}

func (r *rewriter) newlines(a, b int32) int32 {
	n := int32(0)
	s := r.src[a:b]
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n':
			n++
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			n++
		case 0xE2:
			if i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
				n++
				i += 2
			}
		}
	}
	return n
}

// apply builds the output from src and the edits.
func apply(src []byte, edits []edit, buf []byte) ([]byte, bool) {
	n := len(src) + len(buf)
	for i := range edits {
		n += int(edits[i].nl)
	}
	out := make([]byte, 0, n)
	cur := int32(0)
	for i := range edits {
		e := &edits[i]
		if e.pos < cur {
			return nil, false
		}
		out = append(out, src[cur:e.pos]...)
		if e.n > 0 && len(out) > 0 && identByte(out[len(out)-1]) && identByte(buf[e.off]) {
			out = append(out, ' ') // "x in[a]" must not become "x inH.T(…)"
		}
		out = append(out, buf[e.off:e.off+e.n]...)
		for k := int32(0); k < e.nl; k++ {
			out = append(out, '\n')
		}
		cur = e.end
	}
	out = append(out, src[cur:]...)
	return out, true
}

func identByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == '\\' || c >= 0x80
}

// next returns the offset of the first byte at or after from that is not
// white space or part of a comment.
func (r *rewriter) next(from int32) int32 {
	s := r.src
	i := int(from)
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			i++
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				if s[i] == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9) {
					break
				}
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			i += 2
			for i+1 < len(s) && !(s[i] == '*' && s[i+1] == '/') {
				i++
			}
			i += 2
		case c >= 0x80:
			ru, size := utf8.DecodeRune(s[i:])
			switch ru {
			case 0xA0, 0xFEFF, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
				i += size
			default:
				if ru >= 0x2000 && ru <= 0x200A {
					i += size
					continue
				}
				return int32(i)
			}
		default:
			return int32(i)
		}
	}
	return int32(i)
}

// find returns the offset of the punctuator c, the next token at or after
// from.
func (r *rewriter) find(from int32, c byte) int32 {
	i := r.next(from)
	if int(i) >= len(r.src) || r.src[i] != c {
		panic(internalError("expected " + string(c) + " at offset " + strconv.Itoa(int(i))))
	}
	return i
}

type internalError string

// quote returns s as a JavaScript string literal.
func quote(s string) string {
	return string(appendQuote(make([]byte, 0, len(s)+2), s))
}

// appendQuote appends s as a JavaScript string literal to b.
func appendQuote(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c < 0x20 || c == 0x7f:
				b = append(b, `\u00`...)
				b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		ru, size := utf8.DecodeRuneInString(s[i:])
		if ru == utf8.RuneError && size == 1 {
			// WTF-8 lone surrogate (ED A0-BF xx) or a stray byte.
			if c == 0xED && i+2 < len(s) {
				u := rune(c&0x0f)<<12 | rune(s[i+1]&0x3f)<<6 | rune(s[i+2]&0x3f)
				b = append(b, `\u`...)
				b = strconv.AppendInt(b, int64(u), 16)
				i += 3
				continue
			}
			b = append(b, `\ufffd`...)
			i++
			continue
		}
		if ru == 0x2028 || ru == 0x2029 {
			b = append(b, `\u`...)
			b = strconv.AppendInt(b, int64(ru), 16)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
