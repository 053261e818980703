package js

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// The lexer is written for this parser rather than built on
// github.com/tdewolff/parse/v2/js's Lexer, which we studied first: that lexer
// rejects legacy octal literals outright, treats "<!--" and "-->" as comments
// in every goal, returns whitespace and comments as tokens, keeps no decoded
// values, and tracks template nesting by counting braces itself. Each of
// those would need a second pass over the same bytes; one pass that the
// parser drives (regexp and template continuations are re-scanned on the
// parser's request, as in acorn and esbuild) is simpler and faster.

// token is the current token. Offsets are byte offsets into the source.
type token struct {
	kind    tokKind
	kw      keyword // for tName: the word, if it is a reserved or contextual one
	escaped bool    // tName: the name contains a \u escape
	nl      bool    // a line terminator precedes the token
	start   int32
	end     int32
	str     string  // tName: decoded name; tString: value; template: cooked value
	num     float64 // tNum
	// legacy is the offset of a legacy octal literal or escape (or \8, \9)
	// in a tNum or tString token, or -1.
	legacy int32
	// badEscape is the offset of an invalid escape in a template piece, or -1.
	badEscape int32
}

// lexer scans tokens on the parser's demand.
type lexer struct {
	src    []byte
	s      string // src viewed as a string, so substrings need no copies
	pos    int32
	module bool
	tok    token
	p      *parser // for errors
}

func (l *lexer) init(p *parser, src []byte, module bool) {
	l.p = p
	l.src = src
	if len(src) > 0 {
		l.s = unsafe.String(&src[0], len(src))
	}
	l.module = module
	// A hashbang line at the very start is a comment in every goal.
	if len(src) >= 2 && src[0] == '#' && src[1] == '!' {
		l.pos = 2
		l.skipLineComment()
	}
}

func (l *lexer) fail(start, end int32, msg string) {
	l.p.failAt(start, end, msg)
}

func (l *lexer) peekByte(i int32) byte {
	if int(i) < len(l.src) {
		return l.src[i]
	}
	return 0
}

// skipLineComment advances to the next line terminator (not consuming it).
func (l *lexer) skipLineComment() {
	for int(l.pos) < len(l.src) {
		c := l.src[l.pos]
		if c == '\n' || c == '\r' {
			return
		}
		if c == 0xE2 && l.isLSPS(l.pos) {
			return
		}
		l.pos++
	}
}

func (l *lexer) isLSPS(i int32) bool {
	return int(i)+2 < len(l.src) && l.src[i] == 0xE2 && l.src[i+1] == 0x80 && (l.src[i+2] == 0xA8 || l.src[i+2] == 0xA9)
}

// skipSpace skips white space and comments, noting line terminators.
func (l *lexer) skipSpace() {
	nl := false
	atStart := l.pos == 0 || l.tok.end == 0 && l.tok.kind == tEOF
	for int(l.pos) < len(l.src) {
		c := l.src[l.pos]
		switch c {
		case ' ', '\t', '\v', '\f':
			l.pos++
		case '\n', '\r':
			l.pos++
			nl = true
		case '/':
			switch l.peekByte(l.pos + 1) {
			case '/':
				l.pos += 2
				l.skipLineComment()
			case '*':
				start := l.pos
				end := strings.Index(l.s[l.pos+2:], "*/")
				if end < 0 {
					l.fail(start, start+2, "unterminated comment")
				}
				body := l.s[l.pos+2 : l.pos+2+int32(end)]
				if !nl && (strings.IndexByte(body, '\n') >= 0 || strings.IndexByte(body, '\r') >= 0 ||
					strings.Contains(body, "\u2028") || strings.Contains(body, "\u2029")) {
					nl = true
				}
				l.pos += 2 + int32(end) + 2
			default:
				l.tok.nl = nl
				return
			}
		case '<':
			// <!-- starts a single-line comment in scripts (Annex B).
			if !l.module && l.peekByte(l.pos+1) == '!' && l.peekByte(l.pos+2) == '-' && l.peekByte(l.pos+3) == '-' {
				l.pos += 4
				l.skipLineComment()
				continue
			}
			l.tok.nl = nl
			return
		case '-':
			// --> at the start of a line is a comment in scripts (Annex B).
			if !l.module && (nl || atStart) && l.peekByte(l.pos+1) == '-' && l.peekByte(l.pos+2) == '>' {
				l.pos += 3
				l.skipLineComment()
				continue
			}
			l.tok.nl = nl
			return
		default:
			if c < 0x80 {
				l.tok.nl = nl
				return
			}
			r, size := utf8.DecodeRuneInString(l.s[l.pos:])
			if r == 0x2028 || r == 0x2029 {
				nl = true
			} else if !isSpaceRune(r) {
				l.tok.nl = nl
				return
			}
			l.pos += int32(size)
		}
	}
	l.tok.nl = nl
}

func isSpaceRune(r rune) bool {
	return r == 0xA0 || r == 0xFEFF || unicode.Is(unicode.Zs, r)
}

// next scans the next token into l.tok.
func (l *lexer) next() {
	l.skipSpace()
	t := &l.tok
	t.start = l.pos
	t.kw = kwNone
	t.escaped = false
	t.legacy = -1
	if int(l.pos) >= len(l.src) {
		t.kind = tEOF
		t.end = l.pos
		return
	}
	c := l.src[l.pos]
	switch c {
	case '{':
		l.op(tLBrace, 1)
	case '}':
		l.op(tRBrace, 1)
	case '(':
		l.op(tLParen, 1)
	case ')':
		l.op(tRParen, 1)
	case '[':
		l.op(tLBrack, 1)
	case ']':
		l.op(tRBrack, 1)
	case ';':
		l.op(tSemi, 1)
	case ',':
		l.op(tComma, 1)
	case ':':
		l.op(tColon, 1)
	case '~':
		l.op(tTilde, 1)
	case '@':
		l.op(tAt, 1)
	case '.':
		if d := l.peekByte(l.pos + 1); d >= '0' && d <= '9' {
			l.scanNumber()
		} else if d == '.' && l.peekByte(l.pos+2) == '.' {
			l.op(tEllipsis, 3)
		} else {
			l.op(tDot, 1)
		}
	case '?':
		switch l.peekByte(l.pos + 1) {
		case '?':
			if l.peekByte(l.pos+2) == '=' {
				l.op(tNullishEq, 3)
			} else {
				l.op(tNullish, 2)
			}
		case '.':
			if d := l.peekByte(l.pos + 2); d >= '0' && d <= '9' {
				l.op(tQuestion, 1)
			} else {
				l.op(tQDot, 2)
			}
		default:
			l.op(tQuestion, 1)
		}
	case '=':
		switch l.peekByte(l.pos + 1) {
		case '=':
			if l.peekByte(l.pos+2) == '=' {
				l.op(tEq3, 3)
			} else {
				l.op(tEq2, 2)
			}
		case '>':
			l.op(tArrow, 2)
		default:
			l.op(tAssign, 1)
		}
	case '!':
		if l.peekByte(l.pos+1) == '=' {
			if l.peekByte(l.pos+2) == '=' {
				l.op(tNe2, 3)
			} else {
				l.op(tNe, 2)
			}
		} else {
			l.op(tBang, 1)
		}
	case '+':
		l.op3(tPlus, tInc, tPlusEq, '+')
	case '-':
		l.op3(tMinus, tDec, tMinusEq, '-')
	case '*':
		if l.peekByte(l.pos+1) == '*' {
			if l.peekByte(l.pos+2) == '=' {
				l.op(tStar2Eq, 3)
			} else {
				l.op(tStar2, 2)
			}
		} else if l.peekByte(l.pos+1) == '=' {
			l.op(tStarEq, 2)
		} else {
			l.op(tStar, 1)
		}
	case '/':
		if l.peekByte(l.pos+1) == '=' {
			l.op(tSlashEq, 2)
		} else {
			l.op(tSlash, 1)
		}
	case '%':
		if l.peekByte(l.pos+1) == '=' {
			l.op(tPercentEq, 2)
		} else {
			l.op(tPercent, 1)
		}
	case '&':
		l.op4(tAmp, tAnd, tAmpEq, tAndEq, '&')
	case '|':
		l.op4(tPipe, tOr, tPipeEq, tOrEq, '|')
	case '^':
		if l.peekByte(l.pos+1) == '=' {
			l.op(tCaretEq, 2)
		} else {
			l.op(tCaret, 1)
		}
	case '<':
		if l.peekByte(l.pos+1) == '<' {
			if l.peekByte(l.pos+2) == '=' {
				l.op(tShlEq, 3)
			} else {
				l.op(tShl, 2)
			}
		} else if l.peekByte(l.pos+1) == '=' {
			l.op(tLe, 2)
		} else {
			l.op(tLt, 1)
		}
	case '>':
		if l.peekByte(l.pos+1) == '>' {
			if l.peekByte(l.pos+2) == '>' {
				if l.peekByte(l.pos+3) == '=' {
					l.op(tUShrEq, 4)
				} else {
					l.op(tUShr, 3)
				}
			} else if l.peekByte(l.pos+2) == '=' {
				l.op(tShrEq, 3)
			} else {
				l.op(tShr, 2)
			}
		} else if l.peekByte(l.pos+1) == '=' {
			l.op(tGe, 2)
		} else {
			l.op(tGt, 1)
		}
	case '"', '\'':
		l.scanString(c)
	case '`':
		l.scanTemplate(l.pos + 1)
	case '#':
		l.pos++
		if !l.scanName() {
			l.fail(t.start, t.start+1, "unexpected \"#\"")
		}
		t.kind = tPrivate
		t.end = l.pos
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		l.scanNumber()
	default:
		if l.scanName() {
			t.kind = tName
			t.end = l.pos
			if !t.escaped || true {
				t.kw = lookupKeyword(t.str)
			}
			return
		}
		r, size := utf8.DecodeRuneInString(l.s[l.pos:])
		if r == utf8.RuneError && size == 1 {
			l.fail(l.pos, l.pos+1, "invalid UTF-8")
		}
		l.fail(l.pos, l.pos+int32(size), "unexpected "+strconv.QuoteRune(r))
	}
}

func (l *lexer) op(k tokKind, n int32) {
	l.tok.kind = k
	l.pos += n
	l.tok.end = l.pos
}

// op3 scans c, cc, c= (for + and -).
func (l *lexer) op3(one, two, eq tokKind, c byte) {
	switch l.peekByte(l.pos + 1) {
	case c:
		l.op(two, 2)
	case '=':
		l.op(eq, 2)
	default:
		l.op(one, 1)
	}
}

// op4 scans c, cc, c=, cc= (for & and |).
func (l *lexer) op4(one, two, eq, twoEq tokKind, c byte) {
	switch l.peekByte(l.pos + 1) {
	case c:
		if l.peekByte(l.pos+2) == '=' {
			l.op(twoEq, 3)
		} else {
			l.op(two, 2)
		}
	case '=':
		l.op(eq, 2)
	default:
		l.op(one, 1)
	}
}

// ---------------------------------------------------------------------------
// Identifiers

var asciiIDStart, asciiIDPart [128]bool

func init() {
	for c := 0; c < 128; c++ {
		start := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '$' || c == '_'
		asciiIDStart[c] = start
		asciiIDPart[c] = start || c >= '0' && c <= '9'
	}
}

//go:generate node testdata/genid.js

func isIDStartRune(r rune) bool {
	if r < 128 {
		return r >= 0 && asciiIDStart[r]
	}
	return unicode.Is(idStart, r)
}

func isIDPartRune(r rune) bool {
	if r < 128 {
		return r >= 0 && asciiIDPart[r]
	}
	return r == 0x200C || r == 0x200D || unicode.Is(idContinue, r)
}

// scanName scans an IdentifierName at l.pos into tok.str, reporting false
// (without moving) if none starts there.
func (l *lexer) scanName() bool {
	start := l.pos
	i := l.pos
	// Fast path: ASCII without escapes.
	for int(i) < len(l.src) {
		c := l.src[i]
		if c < 128 && asciiIDPart[c] {
			if i == start && !asciiIDStart[c] {
				return false
			}
			i++
			continue
		}
		break
	}
	if int(i) >= len(l.src) || l.src[i] != '\\' && l.src[i] < 128 {
		if i == start {
			return false
		}
		l.pos = i
		l.tok.str = l.s[start:i]
		return true
	}
	// Slow path: escapes or non-ASCII characters.
	var buf []byte
	buf = append(buf, l.src[start:i]...)
	escaped := false
	for int(i) < len(l.src) {
		c := l.src[i]
		first := i == start
		if c == '\\' {
			if l.peekByte(i+1) != 'u' {
				l.fail(i, i+1, "invalid escape in identifier")
			}
			r, n := l.scanUnicodeEscape(i + 2)
			if n < 0 {
				l.fail(i, i+2, "invalid Unicode escape sequence")
			}
			if first && !isIDStartRune(r) || !first && !isIDPartRune(r) {
				l.fail(i, i+2+n, "invalid identifier character in escape")
			}
			buf = utf8.AppendRune(buf, r)
			i += 2 + n
			escaped = true
			continue
		}
		if c < 128 {
			if first && !asciiIDStart[c] || !asciiIDPart[c] {
				break
			}
			buf = append(buf, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(l.s[i:])
		if first && !isIDStartRune(r) || !first && !isIDPartRune(r) {
			break
		}
		buf = append(buf, l.src[i:i+int32(size)]...)
		i += int32(size)
	}
	if i == start {
		return false
	}
	l.pos = i
	if escaped {
		l.tok.str = string(buf)
		l.tok.escaped = true
	} else {
		l.tok.str = l.s[start:i]
	}
	return true
}

// scanUnicodeEscape decodes the part after "\u" at i: XXXX or {X...}. It
// returns the code point and the bytes used, or n < 0 if malformed.
func (l *lexer) scanUnicodeEscape(i int32) (r rune, n int32) {
	if l.peekByte(i) == '{' {
		j := i + 1
		var v rune
		for {
			d := hexVal(l.peekByte(j))
			if d < 0 {
				break
			}
			v = v*16 + rune(d)
			if v > 0x10FFFF {
				return 0, -1
			}
			j++
		}
		if j == i+1 || l.peekByte(j) != '}' {
			return 0, -1
		}
		return v, j + 1 - i
	}
	var v rune
	for k := int32(0); k < 4; k++ {
		d := hexVal(l.peekByte(i + k))
		if d < 0 {
			return 0, -1
		}
		v = v*16 + rune(d)
	}
	return v, 4
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// ---------------------------------------------------------------------------
// Numbers

func isDigitIn(c byte, base int) bool {
	switch base {
	case 2:
		return c == '0' || c == '1'
	case 8:
		return c >= '0' && c <= '7'
	case 10:
		return c >= '0' && c <= '9'
	}
	return hexVal(c) >= 0
}

// scanDigits scans digits of base with numeric separators from i, returning
// the end. Separators must sit between two digits.
func (l *lexer) scanDigits(i int32, base int, allowSep bool) int32 {
	start := i
	for {
		c := l.peekByte(i)
		if isDigitIn(c, base) {
			i++
			continue
		}
		if c == '_' && allowSep {
			if i == start || !isDigitIn(l.peekByte(i-1), base) || !isDigitIn(l.peekByte(i+1), base) {
				l.fail(i, i+1, "invalid numeric separator")
			}
			i++
			continue
		}
		return i
	}
}

func (l *lexer) scanNumber() {
	t := &l.tok
	start := l.pos
	i := start
	kind := tNum
	c := l.src[i]
	base := 10
	if c == '0' {
		switch l.peekByte(i + 1) {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
	}
	if base != 10 {
		i = l.scanDigits(i+2, base, true)
		if i == start+2 {
			l.fail(start, i, "missing digits after number prefix")
		}
		if l.peekByte(i) == 'n' {
			kind = tBigInt
			i++
		}
	} else if c == '0' && l.peekByte(i+1) >= '0' && l.peekByte(i+1) <= '9' {
		// Legacy octal (0777) or a decimal with a leading zero (089).
		t.legacy = start
		i++
		octal := true
		for c := l.peekByte(i); c >= '0' && c <= '9'; c = l.peekByte(i) {
			if c >= '8' {
				octal = false
			}
			i++
		}
		if octal {
			base = 8
		} else {
			i = l.scanFraction(i)
		}
		if c := l.peekByte(i); c == '_' || c == 'n' {
			l.fail(i, i+1, "invalid number")
		}
	} else {
		if c == '0' && l.peekByte(i+1) == '_' {
			l.fail(i+1, i+2, "invalid numeric separator")
		}
		if c != '.' {
			i = l.scanDigits(i, 10, true)
		}
		if l.peekByte(i) == 'n' {
			if c == '0' && i != start+1 {
				l.fail(start, i, "invalid BigInt literal")
			}
			kind = tBigInt
			i++
		} else {
			i = l.scanFraction(i)
		}
	}
	if int(i) < len(l.src) {
		c := l.src[i]
		r := rune(c)
		if c >= 0x80 {
			r, _ = utf8.DecodeRuneInString(l.s[i:])
		}
		if c == '\\' || isIDStartRune(r) || c >= '0' && c <= '9' {
			l.fail(i, i+1, "identifier starts immediately after numeric literal")
		}
	}
	l.pos = i
	t.kind = kind
	t.end = i
	if kind == tBigInt {
		return
	}
	raw := l.s[start:i]
	if strings.IndexByte(raw, '_') >= 0 {
		raw = strings.ReplaceAll(raw, "_", "")
	}
	switch base {
	case 10:
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			l.fail(start, i, "invalid number")
		}
		t.num = f
	default:
		digits := raw
		if t.legacy < 0 {
			digits = raw[2:]
		}
		if u, err := strconv.ParseUint(digits, base, 64); err == nil {
			t.num = float64(u)
		} else {
			var b big.Int
			b.SetString(digits, base)
			f, _ := new(big.Float).SetInt(&b).Float64()
			if math.IsInf(f, 0) {
				f = math.Inf(1)
			}
			t.num = f
		}
	}
}

// scanFraction scans an optional ".digits" and exponent after an integer part.
func (l *lexer) scanFraction(i int32) int32 {
	if l.peekByte(i) == '.' {
		i++
		if l.peekByte(i) == '_' {
			l.fail(i, i+1, "invalid numeric separator")
		}
		i = l.scanDigits(i, 10, true)
	}
	if c := l.peekByte(i); c == 'e' || c == 'E' {
		i++
		if c := l.peekByte(i); c == '+' || c == '-' {
			i++
		}
		j := l.scanDigits(i, 10, true)
		if j == i {
			l.fail(i, i, "missing exponent")
		}
		i = j
	}
	return i
}

// ---------------------------------------------------------------------------
// Strings and templates

// appendWTF8 appends r as UTF-8, encoding a surrogate code point as its
// three-byte generalized UTF-8 form.
func appendWTF8(b []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(b, byte(0xE0|r>>12), byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(b, r)
}

func (l *lexer) scanString(quote byte) {
	t := &l.tok
	start := l.pos
	i := start + 1
	// Fast path: no escapes.
	for int(i) < len(l.src) {
		c := l.src[i]
		if c == quote {
			t.kind = tString
			t.str = l.s[start+1 : i]
			l.pos = i + 1
			t.end = l.pos
			return
		}
		if c == '\\' || c == '\n' || c == '\r' {
			break
		}
		i++
	}
	buf := make([]byte, 0, i-start+16)
	buf = append(buf, l.src[start+1:i]...)
	for {
		if int(i) >= len(l.src) {
			l.fail(start, i, "unterminated string literal")
		}
		c := l.src[i]
		switch {
		case c == quote:
			t.kind = tString
			t.str = string(buf)
			l.pos = i + 1
			t.end = l.pos
			return
		case c == '\n' || c == '\r':
			l.fail(start, i, "unterminated string literal")
		case c == '\\':
			var bad int32
			buf, i, bad = l.scanEscape(buf, i, false)
			if bad >= 0 {
				l.fail(bad, i, "invalid escape sequence")
			}
		default:
			buf = append(buf, c)
			i++
		}
	}
}

// scanEscape decodes the escape at i (the backslash) into buf. In a
// template, legacy octal escapes are invalid rather than recorded in
// tok.legacy. It returns the new offset and, for an invalid escape, its
// offset (else -1).
func (l *lexer) scanEscape(buf []byte, i int32, template bool) ([]byte, int32, int32) {
	esc := i
	i++
	if int(i) >= len(l.src) {
		return buf, i, esc
	}
	c := l.src[i]
	switch c {
	case 'n':
		return append(buf, '\n'), i + 1, -1
	case 't':
		return append(buf, '\t'), i + 1, -1
	case 'r':
		return append(buf, '\r'), i + 1, -1
	case 'b':
		return append(buf, '\b'), i + 1, -1
	case 'f':
		return append(buf, '\f'), i + 1, -1
	case 'v':
		return append(buf, '\v'), i + 1, -1
	case '\r':
		i++
		if l.peekByte(i) == '\n' {
			i++
		}
		return buf, i, -1
	case '\n':
		return buf, i + 1, -1
	case 'x':
		h1, h2 := hexVal(l.peekByte(i+1)), hexVal(l.peekByte(i+2))
		if h1 < 0 || h2 < 0 {
			return buf, i + 1, esc
		}
		return appendWTF8(buf, rune(h1*16+h2)), i + 3, -1
	case 'u':
		r, n := l.scanUnicodeEscape(i + 1)
		if n < 0 {
			return buf, i + 1, esc
		}
		i += 1 + n
		if r >= 0xD800 && r <= 0xDBFF && l.peekByte(i) == '\\' && l.peekByte(i+1) == 'u' {
			if r2, n2 := l.scanUnicodeEscape(i + 2); n2 >= 0 && r2 >= 0xDC00 && r2 <= 0xDFFF {
				return utf8.AppendRune(buf, (r-0xD800)<<10+(r2-0xDC00)+0x10000), i + 2 + n2, -1
			}
		}
		return appendWTF8(buf, r), i, -1
	case '0', '1', '2', '3', '4', '5', '6', '7':
		if c == '0' && !(l.peekByte(i+1) >= '0' && l.peekByte(i+1) <= '9') {
			return append(buf, 0), i + 1, -1
		}
		if template {
			return buf, i + 1, esc
		}
		if l.tok.legacy < 0 {
			l.tok.legacy = esc
		}
		v := int(c - '0')
		i++
		max := 2
		if c >= '4' {
			max = 1
		}
		for k := 0; k < max; k++ {
			d := l.peekByte(i)
			if d < '0' || d > '7' {
				break
			}
			v = v*8 + int(d-'0')
			i++
		}
		return appendWTF8(buf, rune(v)), i, -1
	case '8', '9':
		if template {
			return buf, i + 1, esc
		}
		if l.tok.legacy < 0 {
			l.tok.legacy = esc
		}
		return append(buf, c), i + 1, -1
	}
	if c < 0x80 {
		return append(buf, c), i + 1, -1
	}
	_, size := utf8.DecodeRuneInString(l.s[i:])
	if l.isLSPS(i) {
		return buf, i + 3, -1 // line continuation
	}
	return append(buf, l.src[i:i+int32(size)]...), i + int32(size), -1
}

// scanTemplate scans a template piece starting at i (just after "`" or "}")
// up to and including "`" or "${".
func (l *lexer) scanTemplate(i int32) {
	t := &l.tok
	head := l.src[i-1] == '`'
	t.badEscape = -1
	t.legacy = -1
	start := i
	var buf []byte
	plain := true // no escapes and no CR: cooked is a substring
	for {
		if int(i) >= len(l.src) {
			l.fail(t.start, i, "unterminated template literal")
		}
		c := l.src[i]
		switch {
		case c == '`' || c == '$' && l.peekByte(i+1) == '{':
			if plain {
				t.str = l.s[start:i]
			} else {
				t.str = string(buf)
			}
			if c == '`' {
				l.pos = i + 1
				if head {
					t.kind = tTemplate
				} else {
					t.kind = tTemplateTail
				}
			} else {
				l.pos = i + 2
				if head {
					t.kind = tTemplateHead
				} else {
					t.kind = tTemplateMiddle
				}
			}
			t.end = l.pos
			return
		case c == '\\':
			if plain {
				buf = append(buf, l.src[start:i]...)
				plain = false
			}
			var bad int32
			buf, i, bad = l.scanEscape(buf, i, true)
			if bad >= 0 && t.badEscape < 0 {
				t.badEscape = bad
			}
		case c == '\r':
			if plain {
				buf = append(buf, l.src[start:i]...)
				plain = false
			}
			buf = append(buf, '\n')
			i++
			if l.peekByte(i) == '\n' {
				i++
			}
		default:
			if !plain {
				buf = append(buf, c)
			}
			i++
		}
	}
}

// templateRaw returns the raw value of the template piece in [start, end):
// the source text with CR LF and CR turned into LF.
func templateRaw(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// rescanTemplateContinuation re-scans the current "}" token as the start of
// a template middle or tail piece.
func (l *lexer) rescanTemplateContinuation() {
	l.pos = l.tok.start
	l.tok.start = l.pos
	l.scanTemplate(l.pos + 1)
}

// rescanRegExp re-scans the current "/" or "/=" token as a regular
// expression literal; tok.str receives the pattern, and the flags follow.
func (l *lexer) rescanRegExp() (pattern, flags string) {
	t := &l.tok
	start := t.start
	i := start + 1
	inClass := false
	for {
		if int(i) >= len(l.src) {
			l.fail(start, i, "unterminated regular expression")
		}
		c := l.src[i]
		if c == '\n' || c == '\r' || l.isLSPS(i) {
			l.fail(start, i, "unterminated regular expression")
		}
		if c == '\\' {
			i++
			if int(i) >= len(l.src) || l.src[i] == '\n' || l.src[i] == '\r' || l.isLSPS(i) {
				l.fail(start, i, "unterminated regular expression")
			}
			_, size := utf8.DecodeRuneInString(l.s[i:])
			i += int32(size)
			continue
		}
		if c == '[' {
			inClass = true
		} else if c == ']' {
			inClass = false
		} else if c == '/' && !inClass {
			break
		}
		i++
	}
	pattern = l.s[start+1 : i]
	i++
	fstart := i
	var seen [128]bool
	for int(i) < len(l.src) {
		c := l.src[i]
		if c == '\\' {
			l.fail(i, i+1, "invalid regular expression flags")
		}
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(l.s[i:])
			if isIDPartRune(r) {
				l.fail(i, i+int32(size), "invalid regular expression flag")
			}
			break
		}
		if !asciiIDPart[c] {
			break
		}
		switch c {
		case 'd', 'g', 'i', 'm', 's', 'u', 'v', 'y':
			if seen[c] {
				l.fail(i, i+1, "duplicate regular expression flag "+string(c))
			}
			seen[c] = true
		default:
			l.fail(i, i+1, "invalid regular expression flag "+string(c))
		}
		i++
	}
	if seen['u'] && seen['v'] {
		l.fail(fstart, i, "regular expression flags u and v cannot be used together")
	}
	flags = l.s[fstart:i]
	l.pos = i
	t.kind = tRegExp
	t.end = i
	return pattern, flags
}

// snapshot and restore let the parser look ahead.
type lexState struct {
	pos int32
	tok token
}

func (l *lexer) snapshot() lexState { return lexState{l.pos, l.tok} }
func (l *lexer) restore(s lexState) { l.pos, l.tok = s.pos, s.tok }
