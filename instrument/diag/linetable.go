package diag

import (
	"encoding/binary"
	"unicode/utf8"
)

// A LineTable converts byte offsets in one source text to line and column
// numbers. Lines are 1-based. Columns are counted in UTF-16 code units
// (0-based from Position, 1-based when rendered), which is what V8, browsers'
// devtools and source maps count; a line's first column is 0.
//
// Line terminators are LF, CR LF (one terminator), a lone CR, U+2028 and
// U+2029, as in ECMAScript.
type LineTable struct {
	src   []byte
	lines []int32 // byte offset where each line starts; lines[0] == 0
	ascii []bool  // whether the line holds only ASCII (columns are byte counts)
	// Long lines with non-ASCII text (minified code): the byte offset and
	// UTF-16 column of the first character boundary at or after every
	// cpStep bytes, interleaved, made on first use, so that a column costs
	// at most cpStep bytes of counting rather than the line's length.
	cps map[int][]int32
}

const cpStep = 64

// NewLineTable indexes src. It keeps a reference to src.
func NewLineTable(src []byte) *LineTable {
	t := &LineTable{src: src, lines: make([]int32, 1, len(src)/32+1), ascii: make([]bool, 0, len(src)/32+1)}
	ascii := true
	for i := 0; i < len(src); i++ {
		// Eight bytes at a time while none is a line terminator's first
		// byte or non-ASCII (most of a source).
		for i+8 <= len(src) {
			w := binary.LittleEndian.Uint64(src[i:])
			if (w|hasByte(w, '\n')|hasByte(w, '\r'))&0x8080808080808080 != 0 {
				break
			}
			i += 8
		}
		if i >= len(src) {
			break
		}
		c := src[i]
		switch {
		case c == '\n':
			t.ascii = append(t.ascii, ascii)
			t.lines = append(t.lines, int32(i+1))
			ascii = true
		case c == '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			t.ascii = append(t.ascii, ascii)
			t.lines = append(t.lines, int32(i+1))
			ascii = true
		case c >= 0x80:
			ascii = false
			if c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9) {
				i += 2
				t.ascii = append(t.ascii, false)
				t.lines = append(t.lines, int32(i+1))
				ascii = true
			}
		}
	}
	t.ascii = append(t.ascii, ascii)
	return t
}

// hasByte sets the high bit of each byte of w that equals b, or of a byte
// after one that does (a borrow); none if no byte of w equals b. Bytes of
// w with their high bit set must be tested apart.
func hasByte(w uint64, b byte) uint64 {
	x := w ^ (0x0101010101010101 * uint64(b))
	return (x - 0x0101010101010101) &^ x
}

// Lines returns the number of lines (at least 1).
func (t *LineTable) Lines() int { return len(t.lines) }

// LineStart returns the byte offset at which the 1-based line starts.
func (t *LineTable) LineStart(line int) int32 { return t.lines[line-1] }

// Line returns the 1-based line holding the byte offset off (clamped to the
// source).
func (t *LineTable) Line(off int32) int {
	if off < 0 {
		off = 0
	}
	// The first line starting after off, by bisection (sort.Search's
	// closure call per step shows in the instrumenter's profile).
	lo, hi := 0, len(t.lines)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.lines[m] > off {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// Position returns the 1-based line and the 0-based UTF-16 column of the byte
// offset off. An offset inside a multi-byte character counts from that
// character's start.
func (t *LineTable) Position(off int32) (line, col int) {
	if off > int32(len(t.src)) {
		off = int32(len(t.src))
	}
	line = t.Line(off)
	return line, t.Column(line, off)
}

// Column returns the 0-based UTF-16 column of the byte offset off, which
// must lie on the 1-based line (Position without the line's search).
func (t *LineTable) Column(line int, off int32) int {
	start := t.lines[line-1]
	if t.ascii[line-1] {
		return int(off - start)
	}
	if off-start < 4*cpStep {
		return utf16Len(t.src[start:off])
	}
	cp := t.checkpoints(line)
	k := min(int(off-start)/cpStep, len(cp)/2-1)
	// A checkpoint a few bytes before off: the characters before it are
	// whole, as they are when counting from the line's start.
	for k > 0 && cp[2*k]+8 > off {
		k--
	}
	return int(cp[2*k+1]) + utf16Len(t.src[cp[2*k]:off])
}

func (t *LineTable) checkpoints(line int) []int32 {
	if cp, ok := t.cps[line]; ok {
		return cp
	}
	start := t.lines[line-1]
	end := int32(len(t.src))
	if line < len(t.lines) {
		end = t.lines[line]
	}
	b := t.src[start:end]
	cp := make([]int32, 0, 2*(len(b)/cpStep+1))
	n := 0
	for i := 0; i < len(b); {
		for len(cp) < 2*(i/cpStep+1) {
			cp = append(cp, start+int32(i), int32(n))
		}
		c := b[i]
		if c < 0x80 {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if size == 1 && c >= 0xE0 && c <= 0xEF && i+2 < len(b) {
			size = 3 // a surrogate as generalized UTF-8 (WTF-8), as utf16Len
		}
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	if t.cps == nil {
		t.cps = map[int][]int32{}
	}
	t.cps[line] = cp
	return cp
}

// LineText returns the text of the 1-based line without its terminator.
func (t *LineTable) LineText(line int) []byte {
	start := t.lines[line-1]
	end := int32(len(t.src))
	if line < len(t.lines) {
		end = t.lines[line]
	}
	b := t.src[start:end]
	for len(b) > 0 {
		switch c := b[len(b)-1]; {
		case c == '\n' || c == '\r':
			b = b[:len(b)-1]
			continue
		case c == 0xA8 || c == 0xA9:
			if len(b) >= 3 && b[len(b)-3] == 0xE2 && b[len(b)-2] == 0x80 {
				b = b[:len(b)-3]
			}
		}
		break
	}
	return b
}

// utf16Len counts the UTF-16 code units of b; invalid bytes count one each.
func utf16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if size == 1 && c >= 0xE0 && c <= 0xEF && i+2 < len(b) {
			// A surrogate encoded as generalized UTF-8 (WTF-8).
			size = 3
		}
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}
