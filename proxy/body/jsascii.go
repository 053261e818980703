package body

import (
	"bytes"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// JSASCII rewrites JavaScript source so that it is pure ASCII and means
// what it meant, or reports false when it cannot be sure of that. code
// must be valid UTF-8 (else false); pure ASCII comes back as it is.
//
// Every character beyond ASCII is written in the escape its place allows:
//   - in a string literal, \uXXXX, a supplementary character as its
//     surrogate pair (\uD83D\uDE00); an escaped one ("\é", an identity
//     escape) the same, and an escaped line separator (a line
//     continuation) dropped;
//   - in an identifier or a private name, \uXXXX or \u{1F600}, which name
//     the same binding or property (no keyword has a character beyond
//     ASCII, so an escape cannot turn one into a name);
//   - in a regular expression literal, \uXXXX, and a supplementary
//     character as a surrogate pair without the u or v flag (where the
//     pattern sees code units) or as \u{1F600} with them (where it sees
//     code points), and \u{...} in a capture group's name;
//   - in a comment, \uXXXX text (it is a comment), a line or paragraph
//     separator as a line feed, since a multi-line comment holding a line
//     terminator counts as one for semicolon insertion; in a
//     sourceMappingURL or sourceURL comment the URL's UTF-8,
//     percent-encoded, which a URL parser reads as the same URL;
//   - between tokens, a space for a space separator (U+00A0, U+3000, the
//     BOM...) and a line feed for U+2028 and U+2029.
//
// A template literal whose text holds a character beyond ASCII is
// refused: an escape there would change the raw text that tag functions
// and String.raw see. Inside its ${} substitutions, which are code, the
// rules above apply. Reflection on source text shows the escapes:
// Function.prototype.toString, and a regular expression's source and
// toString; no escaping can avoid that, and code that rebuilds a pattern
// from its source with the same flags rebuilds the same pattern.
//
// The tokenizer knows strings, templates with nested substitutions,
// comments (HTML-like ones included, and a hashbang), regular expressions
// and division. It tells the last two apart by the token before the
// slash: after an operand (a name, a number, a literal, ")" or "]") it is
// division, after an operator, a punctuator or a keyword such as return,
// typeof or case it starts a regular expression. A "}" says what its "{"
// was: a block's end (after ";", "{", "}", "=>", else, do, try, finally,
// the ")" of if/while/for/with/switch/catch) is followed by a statement,
// so a regular expression; an object literal's (after "(", "[", ",", an
// operator, typeof...) by an operator, so a division. ++ and -- are
// postfix after an operand on the same line, prefix elsewhere.
//
// Where the token leaves the question open — a "}" whose "{" could be
// either (a function's body: declaration or expression? after ":", a
// label's block or a property's object?), the ")" of if (...) (or of a
// method named if), the contextual of/yield/await — and where "<!--"
// and "-->" may be comments (in scripts) or operators (in modules), it
// reads the source both ways, side by side, until the two readings meet
// again at the same place in the same state: if they wrote the same
// output it takes it (the escapes of most characters are the same in
// every place, so most forks end so), if not it returns false, and a
// reading that comes to something that is not JavaScript is dropped.
// When unsure, it refuses: a false costs the caller only the UTF-8 it
// already had.
func JSASCII(code []byte) ([]byte, bool) {
	if !utf8.Valid(code) {
		return nil, false
	}
	ascii := true
	for _, c := range code {
		if c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return code, true
	}
	out, ok := escapeJS(code)
	if !ok {
		return nil, false
	}
	for _, c := range out {
		if c >= 0x80 {
			return nil, false // cannot happen; never send what was not asked for
		}
	}
	return out, true
}

// prevKind is what the last significant token says about the next one.
type prevKind uint8

const (
	pRegex prevKind = iota // an operator, punctuator or keyword, or nothing: "/" starts a regular expression
	pDiv                   // an operand: "/" divides
	pAmbig                 // either: read both ways
	pDot                   // "." or "?.": a name here is a property, never a keyword
	pCtrl                  // if, while, for, with: their "(" is a control paren
)

// frame is an open bracket.
type frame uint8

const (
	fParen     frame = iota
	fCtrlParen       // the ( of if/while/for/with: after its ), a "/" is ambiguous
	fBracket
	fBlock    // a block or a body whose } ends a statement: a "/" after it starts a regular expression
	fObject   // an object literal: a "/" after its } divides
	fBrace    // either (a function's body, a class's, a label's block or an object after ":"...)
	fTemplate // the ${ of a template literal: its } resumes the template's text
)

// jsState is one reading's position and all that decides how it reads on.
type jsState struct {
	pos       int
	prev      prevKind
	brace     frame // what a "{" here opens: fBlock, fObject or fBrace
	lineStart bool  // only whitespace and comments since the last line terminator (or the start)
	force     uint8 // the reading to take of the ambiguous token at pos: 1 the first, 2 the second
	stack     []frame
}

func (s *jsState) equal(t *jsState) bool {
	return s.pos == t.pos && s.prev == t.prev && s.brace == t.brace && s.lineStart == t.lineStart && s.force == t.force &&
		len(s.stack) == len(t.stack) && string(s.stack) == string(t.stack)
}

// step results.
type status uint8

const (
	stOK      status = iota
	stEOF            // the reading is complete
	stFork           // the token at pos reads two ways; nothing consumed
	stInvalid        // not JavaScript as read: this reading is wrong
	stRefuse         // JavaScript that cannot be escaped
)

// maxReadings bounds the readings followed at once.
const maxReadings = 16

type reading struct {
	st   jsState
	out  []byte // since the readings parted (all of it while there is one)
	done bool
}

// escapeJS runs the readings. While there is one, its output is the
// result's; when it forks, each reading writes its own continuation, and
// when readings meet, their continuations must agree.
func escapeJS(src []byte) ([]byte, bool) {
	var base []byte
	first := &reading{st: jsState{brace: fBlock, lineStart: true}}
	if bytes.HasPrefix(src, []byte("#!")) {
		first.st.pos = lineComment(src, 0, &base)
	}
	rs := []*reading{first}
	flush := func() {
		if len(rs) == 1 {
			base = append(base, rs[0].out...)
			rs[0].out = nil
		}
	}
	for {
		var r *reading
		for _, x := range rs {
			if !x.done && (r == nil || x.st.pos < r.st.pos) {
				r = x
			}
		}
		if r == nil {
			break
		}
		out := &r.out
		if len(rs) == 1 {
			out = &base
		}
		switch step(src, &r.st, out) {
		case stEOF:
			r.done = true
			continue
		case stFork:
			if len(rs) >= maxReadings {
				return nil, false
			}
			c := &reading{st: r.st, out: append([]byte(nil), r.out...)}
			c.st.stack = append([]frame(nil), r.st.stack...)
			r.st.force, c.st.force = 1, 2
			rs = append(rs, c)
			continue
		case stInvalid:
			rs = remove(rs, r)
			if len(rs) == 0 {
				return nil, false
			}
			flush()
			continue
		case stRefuse:
			return nil, false
		}
		// Two readings in the same state have the same future: keep one,
		// if they agree on the past.
		for _, x := range rs {
			if x != r && !x.done && x.st.equal(&r.st) {
				if !bytes.Equal(x.out, r.out) {
					return nil, false
				}
				rs = remove(rs, r)
				flush()
				break
			}
		}
	}
	for _, x := range rs[1:] {
		if !bytes.Equal(x.out, rs[0].out) {
			return nil, false
		}
	}
	return append(base, rs[0].out...), true
}

func remove(rs []*reading, r *reading) []*reading {
	for i, x := range rs {
		if x == r {
			return append(rs[:i], rs[i+1:]...)
		}
	}
	return rs
}

// token ends a significant token: what a "/" and a "{" after it mean.
func token(st *jsState, end int, prev prevKind, brace frame) status {
	st.pos = end
	st.prev = prev
	st.brace = brace
	st.lineStart = false
	return stOK
}

// step reads one token, or one piece of whitespace or one comment, at
// st.pos, writes its escaped text to out and moves st past it.
func step(src []byte, st *jsState, out *[]byte) status {
	i := st.pos
	if i >= len(src) {
		if len(st.stack) != 0 {
			return stInvalid
		}
		return stEOF
	}
	c := src[i]
	next := byte(0)
	if i+1 < len(src) {
		next = src[i+1]
	}
	switch {
	case c == ' ' || c == '\t' || c == '\v' || c == '\f':
		*out = append(*out, c)
		st.pos++
		return stOK
	case c == '\n' || c == '\r':
		*out = append(*out, c)
		st.pos++
		st.lineStart = true
		return stOK
	case c >= 0x80:
		r, size := utf8.DecodeRune(src[i:])
		switch {
		case r == 0x2028 || r == 0x2029:
			*out = append(*out, '\n')
			st.pos += size
			st.lineStart = true
			return stOK
		case r == 0xFEFF || unicode.Is(unicode.Zs, r):
			*out = append(*out, ' ')
			st.pos += size
			return stOK
		case isIDPart(r):
			return identifier(src, st, out, false)
		}
		return stInvalid
	case isIdentStartASCII(c) || c == '\\':
		return identifier(src, st, out, false)
	case '0' <= c && c <= '9' || c == '.' && '0' <= next && next <= '9':
		// Loosely: digits, letters, "_" and "." (1e3, 0x1F, 1_000n,
		// 1.5.toFixed); a sign in an exponent ends it, harmlessly.
		j := i + 1
		for j < len(src) && (isIdentStartASCII(src[j]) || '0' <= src[j] && src[j] <= '9' || src[j] == '.') {
			j++
		}
		*out = append(*out, src[i:j]...)
		return token(st, j, pDiv, fBrace)
	case c == '"' || c == '\'':
		return stringLit(src, st, out)
	case c == '`':
		*out = append(*out, '`')
		st.pos++
		return templateText(src, st, out)
	case c == '/' && next == '/':
		st.pos = lineComment(src, i, out)
		return stOK
	case c == '/' && next == '*':
		return blockComment(src, st, out)
	case c == '/':
		regex := st.prev != pDiv
		if st.prev == pAmbig {
			if st.force == 0 {
				return stFork
			}
			regex = st.force == 1
			st.force = 0
		}
		if regex {
			return regexLit(src, st, out)
		}
		*out = append(*out, '/')
		return token(st, i+1, pRegex, fObject)
	case c == '#':
		if i+1 < len(src) && startsIdentifier(src[i+1:]) {
			*out = append(*out, '#')
			st.pos++
			return identifier(src, st, out, true)
		}
		return stInvalid
	case c == '<' && bytes.HasPrefix(src[i:], []byte("<!--")),
		c == '-' && st.lineStart && bytes.HasPrefix(src[i:], []byte("-->")):
		// An HTML-like comment in a script, operators in a module.
		if st.force == 0 {
			return stFork
		}
		f := st.force
		st.force = 0
		if f == 1 {
			st.pos = lineComment(src, i, out)
			return stOK
		}
		if c == '<' {
			*out = append(*out, '<')
			return token(st, i+1, pRegex, fObject)
		}
		*out = append(*out, '-', '-')
		return token(st, i+2, incDecKind(st), fBrace)
	case c == '(':
		f := fParen
		if st.prev == pCtrl {
			f = fCtrlParen
		}
		st.stack = append(st.stack, f)
		*out = append(*out, c)
		return token(st, i+1, pRegex, fObject)
	case c == '[':
		st.stack = append(st.stack, fBracket)
		*out = append(*out, c)
		return token(st, i+1, pRegex, fObject)
	case c == '{':
		st.stack = append(st.stack, st.brace)
		*out = append(*out, c)
		// In a block or a body, "{" opens a block; an object literal
		// cannot start with one.
		return token(st, i+1, pRegex, fBlock)
	case c == ')' || c == ']' || c == '}':
		if len(st.stack) == 0 {
			return stInvalid
		}
		top := st.stack[len(st.stack)-1]
		st.stack = st.stack[:len(st.stack)-1]
		*out = append(*out, c)
		switch {
		case c == ')' && top == fParen:
			// A call's arguments, a parenthesised expression, or the
			// parameters of a function, whose "{" may be a declaration's
			// body or an expression's.
			return token(st, i+1, pDiv, fBrace)
		case c == ')' && top == fCtrlParen:
			// A regular expression can follow if (...), but so can a
			// division follow a method named if; both readings.
			return token(st, i+1, pAmbig, fBlock)
		case c == ']' && top == fBracket:
			return token(st, i+1, pDiv, fBrace)
		case c == '}' && top == fBlock:
			return token(st, i+1, pRegex, fBlock)
		case c == '}' && top == fObject:
			return token(st, i+1, pDiv, fBlock)
		case c == '}' && top == fBrace:
			return token(st, i+1, pAmbig, fBlock)
		case c == '}' && top == fTemplate:
			st.pos++
			return templateText(src, st, out)
		}
		return stInvalid
	case c == '.':
		if bytes.HasPrefix(src[i:], []byte("...")) {
			*out = append(*out, "..."...)
			return token(st, i+3, pRegex, fObject)
		}
		*out = append(*out, '.')
		return token(st, i+1, pDot, fBrace)
	case c == '?' && next == '.' && !(i+2 < len(src) && '0' <= src[i+2] && src[i+2] <= '9'):
		*out = append(*out, "?."...)
		return token(st, i+2, pDot, fBrace)
	case (c == '+' || c == '-') && next == c:
		*out = append(*out, c, c)
		return token(st, i+2, incDecKind(st), fBrace)
	case c == '=' && next == '>':
		*out = append(*out, "=>"...)
		return token(st, i+2, pRegex, fBlock) // an arrow's body
	case c == ';':
		*out = append(*out, c)
		return token(st, i+1, pRegex, fBlock)
	case c == ':' || c == '@':
		// A label's, a case's, a property's or a conditional's colon;
		// a decorator.
		*out = append(*out, c)
		return token(st, i+1, pRegex, fBrace)
	case bytes.IndexByte([]byte("=!%&*^|~,<>?+-"), c) >= 0:
		*out = append(*out, c)
		return token(st, i+1, pRegex, fObject)
	}
	return stInvalid
}

// incDecKind is what a "/" after ++ or -- means: after an operand on the
// same line it is the postfix operator and a "/" divides; at the start of
// an expression it is the prefix one, and a "/" starts the operand, a
// regular expression. After a token that leaves it open (of, yield and
// await may be names), both readings.
func incDecKind(st *jsState) prevKind {
	switch {
	case st.prev == pDiv && !st.lineStart:
		return pDiv
	case st.prev == pDiv || st.prev == pRegex:
		// A line break before ++ makes it a prefix (no line
		// terminator may precede the postfix operator).
		return pRegex
	}
	return pAmbig
}

// identifier reads a name (a private one after its "#"): ASCII copied,
// escapes copied, other characters escaped.
func identifier(src []byte, st *jsState, out *[]byte, private bool) status {
	start := st.pos
	i := start
	plain := true // lower-case ASCII letters only: perhaps a keyword
	for i < len(src) {
		c := src[i]
		switch {
		case 'a' <= c && c <= 'z':
			*out = append(*out, c)
			i++
		case isIdentStartASCII(c) || '0' <= c && c <= '9':
			*out = append(*out, c)
			i++
			plain = false
		case c == '\\':
			n := unicodeEscapeLen(src[i:])
			if n == 0 {
				return stInvalid
			}
			*out = append(*out, src[i:i+n]...)
			i += n
			plain = false
		case c >= 0x80:
			r, size := utf8.DecodeRune(src[i:])
			if !isIDPart(r) {
				goto end
			}
			*out = appendCodePointEscape(*out, r)
			i += size
			plain = false
		default:
			goto end
		}
	}
end:
	if i == start {
		return stInvalid
	}
	prev, brace := pDiv, fBrace
	if plain && !private && st.prev != pDot {
		prev, brace = keywordKind(string(src[start:i]))
	}
	return token(st, i, prev, brace)
}

// keywordKind is what a name that may be a keyword says of a "/" and of
// a "{" after it.
func keywordKind(w string) (prevKind, frame) {
	switch w {
	case "this", "super", "null", "true", "false":
		return pDiv, fBrace
	case "if", "while", "for", "with", "switch", "catch":
		return pCtrl, fBlock // catch {} has no parameter
	case "of", "yield", "await":
		// Keywords in some places (for-of, generators, async
		// functions and modules), plain names in others.
		return pAmbig, fBrace
	case "else", "do", "try", "finally":
		return pRegex, fBlock
	case "typeof", "void", "delete", "in", "instanceof", "throw", "case", "new", "extends":
		return pRegex, fObject // an operand follows
	case "break", "class", "const", "continue", "debugger", "default", "enum", "export",
		"function", "import", "return", "var":
		// return { is an object on the same line and a block on the
		// next; class { is a declaration's body or an expression's.
		return pRegex, fBrace
	}
	return pDiv, fBrace
}

// stringLit reads a string literal.
func stringLit(src []byte, st *jsState, out *[]byte) status {
	q := src[st.pos]
	*out = append(*out, q)
	for i := st.pos + 1; i < len(src); {
		c := src[i]
		switch {
		case c == q:
			*out = append(*out, q)
			return token(st, i+1, pDiv, fBrace)
		case c == '\n' || c == '\r':
			return stInvalid
		case c == '\\':
			if i+1 >= len(src) {
				return stInvalid
			}
			d := src[i+1]
			switch {
			case d == '\r' && i+2 < len(src) && src[i+2] == '\n':
				*out = append(*out, src[i:i+3]...)
				i += 3
			case d < 0x80:
				*out = append(*out, c, d)
				i += 2
			default:
				r, size := utf8.DecodeRune(src[i+1:])
				if r != 0x2028 && r != 0x2029 {
					// "\é" is é: the escape in its place.
					*out = appendUTF16Escape(*out, r)
				} // else a line continuation: nothing
				i += 1 + size
			}
		case c >= 0x80:
			r, size := utf8.DecodeRune(src[i:])
			*out = appendUTF16Escape(*out, r)
			i += size
		default:
			*out = append(*out, c)
			i++
		}
	}
	return stInvalid
}

// templateText reads a template literal's text from st.pos (past its "`"
// or the "}" of a substitution) to its end or its next "${".
func templateText(src []byte, st *jsState, out *[]byte) status {
	for i := st.pos; i < len(src); {
		switch c := src[i]; {
		case c == '`':
			*out = append(*out, src[st.pos:i+1]...)
			return token(st, i+1, pDiv, fBrace)
		case c == '$' && i+1 < len(src) && src[i+1] == '{':
			*out = append(*out, src[st.pos:i+2]...)
			st.stack = append(st.stack, fTemplate)
			return token(st, i+2, pRegex, fObject)
		case c == '\\':
			if i+1 >= len(src) {
				return stInvalid
			}
			if src[i+1] >= 0x80 {
				return stRefuse
			}
			i += 2
		case c >= 0x80:
			return stRefuse
		default:
			i++
		}
	}
	return stInvalid
}

// lineComment writes the single-line comment (or hashbang, or HTML-like
// comment) at src[i:] and returns where it ends: at the line terminator,
// which it leaves to the caller.
func lineComment(src []byte, i int, out *[]byte) int {
	url := isURLComment(src[i:])
	for i < len(src) {
		c := src[i]
		if c == '\n' || c == '\r' {
			break
		}
		if c < 0x80 {
			*out = append(*out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == 0x2028 || r == 0x2029 {
			break
		}
		*out = appendCommentEscape(*out, src[i:i+size], url)
		i += size
	}
	return i
}

func blockComment(src []byte, st *jsState, out *[]byte) status {
	end := bytes.Index(src[st.pos+2:], []byte("*/"))
	if end < 0 {
		return stInvalid
	}
	end += st.pos + 2
	url := isURLComment(src[st.pos:])
	newline := false
	for i := st.pos; i < end; {
		c := src[i]
		if c < 0x80 {
			newline = newline || c == '\n' || c == '\r'
			*out = append(*out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == 0x2028 || r == 0x2029 {
			newline = true
			*out = append(*out, '\n')
		} else {
			*out = appendCommentEscape(*out, src[i:i+size], url)
		}
		i += size
	}
	*out = append(*out, "*/"...)
	st.pos = end + 2
	if newline {
		st.lineStart = true
	}
	return stOK
}

// isURLComment reports whether a comment is a sourceMappingURL or
// sourceURL annotation, whose text is a URL and not only a remark.
func isURLComment(c []byte) bool {
	if len(c) < 3 || (c[2] != '#' && c[2] != '@') {
		return false
	}
	c = c[3:]
	return bytes.HasPrefix(c, []byte(" sourceMappingURL=")) || bytes.HasPrefix(c, []byte(" sourceURL="))
}

// regexLit reads a regular expression literal: its body to the first "/"
// outside a class, then its flags, which decide the escapes.
func regexLit(src []byte, st *jsState, out *[]byte) status {
	start := st.pos
	i := start + 1
	inClass := false
body:
	for {
		if i >= len(src) {
			return stInvalid
		}
		c := src[i]
		switch {
		case c == '\n' || c == '\r':
			return stInvalid
		case c == '\\':
			i++
			if i >= len(src) || src[i] == '\n' || src[i] == '\r' {
				return stInvalid
			}
			if src[i] >= 0x80 {
				r, size := utf8.DecodeRune(src[i:])
				if r == 0x2028 || r == 0x2029 {
					return stInvalid
				}
				i += size
				continue
			}
		case c >= 0x80:
			r, size := utf8.DecodeRune(src[i:])
			if r == 0x2028 || r == 0x2029 {
				return stInvalid
			}
			i += size
			continue
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '/' && !inClass:
			break body
		}
		i++
	}
	bodyEnd := i
	i++
	flagsStart := i
	for i < len(src) && (isIdentStartASCII(src[i]) || '0' <= src[i] && src[i] <= '9') {
		i++
	}
	if i < len(src) && startsIdentifier(src[i:]) {
		return stInvalid // flags take no escapes nor other letters
	}
	flags := src[flagsStart:i]
	unicodeMode := bytes.ContainsAny(flags, "uv")
	*out = append(*out, '/')
	if !appendRegexBody(out, src[start+1:bodyEnd], unicodeMode) {
		return stInvalid
	}
	*out = append(*out, '/')
	*out = append(*out, flags...)
	return token(st, i, pDiv, fBrace)
}

// appendRegexBody writes a pattern with its non-ASCII characters
// escaped; false for a pattern that cannot be valid.
func appendRegexBody(out *[]byte, body []byte, unicodeMode bool) bool {
	inClass, inName := false, false
	esc := func(r rune) {
		switch {
		case r < 0x10000:
			*out = appendU4(*out, r)
		case unicodeMode || inName:
			// A group name is read as in Unicode mode whatever the
			// flags, so there, too, \u{...} is one code point.
			*out = appendBraced(*out, r)
		default:
			*out = appendUTF16Escape(*out, r)
		}
	}
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			if body[i+1] >= 0x80 {
				// An identity escape, "\é", is é; Unicode mode has none.
				if unicodeMode {
					return false
				}
				r, size := utf8.DecodeRune(body[i+1:])
				esc(r)
				i += 1 + size
				continue
			}
			if !inClass && body[i+1] == 'k' && i+2 < len(body) && body[i+2] == '<' {
				*out = append(*out, `\k<`...)
				inName = true
				i += 3
				continue
			}
			*out = append(*out, c, body[i+1])
			i += 2
			continue
		case c >= 0x80:
			r, size := utf8.DecodeRune(body[i:])
			esc(r)
			i += size
			continue
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == '(' && !inClass && bytes.HasPrefix(body[i:], []byte("(?<")) &&
			!bytes.HasPrefix(body[i:], []byte("(?<=")) && !bytes.HasPrefix(body[i:], []byte("(?<!")):
			*out = append(*out, "(?<"...)
			inName = true
			i += 3
			continue
		case c == '>':
			inName = false
		}
		*out = append(*out, c)
		i++
	}
	return true
}

// startsIdentifier reports whether b starts with a character that can
// start or continue a name.
func startsIdentifier(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	if b[0] < 0x80 {
		return isIdentStartASCII(b[0]) || b[0] == '\\'
	}
	r, _ := utf8.DecodeRune(b)
	return isIDPart(r)
}

func isIdentStartASCII(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '$' || c == '_'
}

// isIDPart reports whether r, beyond ASCII, may be part of a name
// (Unicode's ID_Continue, with ZWNJ and ZWJ). Nothing else beyond ASCII
// may stand outside strings, comments, templates and regular expressions
// except the whitespace step handles, so a reading that meets anything
// else is wrong; it matters most for supplementary characters, whose
// escape in a name (\u{...}) differs from the one in a regular expression
// without the u flag.
func isIDPart(r rune) bool {
	if r == 0x200C || r == 0x200D {
		return true
	}
	if unicode.Is(unicode.Pattern_Syntax, r) || unicode.Is(unicode.Pattern_White_Space, r) {
		return false
	}
	return unicode.In(r, unicode.L, unicode.Nl, unicode.Other_ID_Start, unicode.Mn, unicode.Mc,
		unicode.Nd, unicode.Pc, unicode.Other_ID_Continue)
}

// unicodeEscapeLen is the length of the \uXXXX or \u{X...} escape at the
// start of b, 0 if there is none.
func unicodeEscapeLen(b []byte) int {
	if len(b) < 3 || b[0] != '\\' || b[1] != 'u' {
		return 0
	}
	if b[2] == '{' {
		for i := 3; i < len(b); i++ {
			if b[i] == '}' {
				if i == 3 {
					return 0
				}
				return i + 1
			}
			if !isHex(b[i]) {
				return 0
			}
		}
		return 0
	}
	if len(b) < 6 {
		return 0
	}
	for _, c := range b[2:6] {
		if !isHex(c) {
			return 0
		}
	}
	return 6
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

const hexDigits = "0123456789ABCDEF"

// appendU4 writes \uXXXX for a BMP code point.
func appendU4(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
}

// appendBraced writes \u{X...}.
func appendBraced(b []byte, r rune) []byte {
	b = append(b, '\\', 'u', '{')
	started := false
	for shift := 20; shift >= 0; shift -= 4 {
		d := r >> uint(shift) & 0xF
		if d != 0 || started || shift == 0 {
			b = append(b, hexDigits[d])
			started = true
		}
	}
	return append(b, '}')
}

// appendUTF16Escape writes a code point as its UTF-16 code units, each
// \uXXXX.
func appendUTF16Escape(b []byte, r rune) []byte {
	if r < 0x10000 {
		return appendU4(b, r)
	}
	hi, lo := utf16.EncodeRune(r)
	return appendU4(appendU4(b, hi), lo)
}

// appendCodePointEscape writes the escape a name takes.
func appendCodePointEscape(b []byte, r rune) []byte {
	if r < 0x10000 {
		return appendU4(b, r)
	}
	return appendBraced(b, r)
}

// appendCommentEscape writes one character of a comment: as escape text,
// or percent-encoded in a URL annotation.
func appendCommentEscape(b []byte, ch []byte, url bool) []byte {
	if url {
		for _, c := range ch {
			b = append(b, '%', hexDigits[c>>4], hexDigits[c&0xF])
		}
		return b
	}
	r, _ := utf8.DecodeRune(ch)
	return appendUTF16Escape(b, r)
}
