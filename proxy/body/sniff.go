package body

import (
	"bytes"
	"strings"

	"golang.org/x/text/encoding/htmlindex"
)

// prescanLimit is how far into a page the meta prescan looks for the start
// of a declaration: the 1024 bytes the HTML Standard advises. A tag that
// starts inside them is read to its end.
const prescanLimit = 1024

// Lookup is the Encoding Standard's "get an encoding": the canonical name
// of the encoding that label denotes (ASCII whitespace around it ignored,
// ASCII case-insensitive), or false for a label the standard does not
// define. Note that several labels name the "replacement" encoding (for
// example iso-2022-kr), which decodes any non-empty input to a single
// U+FFFD, as browsers do to keep those encodings' attacks out.
func Lookup(label string) (name string, ok bool) {
	label = strings.Trim(label, "\t\n\f\r ")
	for i := 0; i < len(label); i++ {
		// No label has a byte beyond ASCII; htmlindex would fold some
		// (its lowering is Unicode's, its trimming too).
		if label[i] >= 0x80 {
			return "", false
		}
	}
	enc, err := htmlindex.Get(label)
	if err != nil {
		return "", false
	}
	name, err = htmlindex.Name(enc)
	if err != nil {
		return "", false
	}
	return name, true
}

// bomEncoding is the Encoding Standard's "BOM sniff": the encoding a byte
// order mark at the start of b names, and the mark's length.
func bomEncoding(b []byte) (string, int) {
	switch {
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		return "utf-8", 3
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		return "utf-16be", 2
	case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
		return "utf-16le", 2
	}
	return "", 0
}

// BOM returns the byte order mark of the named encoding (UTF-8 and the two
// UTF-16s), nil for any other. ToUTF8 drops a BOM; put it back in front of
// FromUTF8's output when the original had one, since a BOM outranks every
// other declaration in a browser's sniffing.
func BOM(name string) []byte {
	n, _ := Lookup(name)
	switch n {
	case "utf-8":
		return []byte{0xEF, 0xBB, 0xBF}
	case "utf-16le":
		return []byte{0xFF, 0xFE}
	case "utf-16be":
		return []byte{0xFE, 0xFF}
	}
	return nil
}

// HTMLCharset is the HTML Standard's encoding sniffing algorithm for a
// page: the canonical name of the encoding a browser decodes it with, and
// whether it is certain of it. contentType is the response's Content-Type
// header value (as the proxy received it, values joined by commas if
// there were several); body is the page, or as much of its start as the
// caller has (the first 1024 bytes and a little more are enough).
//
// In order, the first that gives an answer:
//  1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE): certain;
//  2. the Content-Type charset parameter, if it is a label the Encoding
//     Standard defines (utf-16 here means UTF-16, as the header says):
//     certain;
//  3. the prescan of the page's start: a UTF-16 XML declaration's first
//     bytes, then <meta charset=...> or <meta http-equiv=content-type
//     content="...; charset=..."> (a meta declaring UTF-16 means UTF-8,
//     and x-user-defined means windows-1252, since bytes that could be
//     read as ASCII cannot be UTF-16), then an XML declaration at the very
//     start (<?xml ... encoding="..."?>, UTF-16 again meaning UTF-8):
//     tentative;
//  4. windows-1252, the default of browsers outside East Asian and some
//     Eastern European locales: tentative. Browsers' optional guessing
//     from the content is not modelled (Chromium, for one, does not guess
//     for pages served over HTTP).
//
// A tentative answer can still change in a browser: one that meets a
// <meta> declaration further into <head> than the prescan looked starts
// over in that encoding (the standard's "change the encoding"). The
// prescan here looks for declarations that start in the first 1024 bytes,
// as the standard advises and as browsers prescan.
func HTMLCharset(contentType string, body []byte) (name string, certain bool) {
	if n, _ := bomEncoding(body); n != "" {
		return n, true
	}
	if label, ok := contentTypeCharset(contentType); ok {
		if n, ok := Lookup(label); ok {
			return n, true
		}
	}
	if n := prescan(body); n != "" {
		return n, false
	}
	return "windows-1252", false
}

// ScriptCharset is the encoding a browser decodes a classic script with
// (the HTML Standard's "fetch a classic script"): a byte order mark
// first, then the response's Content-Type charset parameter, else
// fallback, which is the script element's charset attribute if it has a
// valid one and otherwise the page's encoding. A label neither the header
// nor fallback makes valid gives "utf-8". The result is a canonical name.
//
// Module scripts, workers and JSON are always UTF-8 (a UTF-8 BOM dropped,
// the header's charset ignored): do not ask this function about them.
func ScriptCharset(contentType string, body []byte, fallback string) string {
	if n, _ := bomEncoding(body); n != "" {
		return n
	}
	if label, ok := contentTypeCharset(contentType); ok {
		if n, ok := Lookup(label); ok {
			return n
		}
	}
	if n, ok := Lookup(fallback); ok {
		return n
	}
	return "utf-8"
}

// prescan is the HTML Standard's "prescan a byte stream to determine its
// encoding": the canonical name it finds, or "".
func prescan(b []byte) string {
	// UTF-16 XML declarations' first two characters, "<?": a page so
	// encoded that has no BOM is still recognised.
	if bytes.HasPrefix(b, []byte{0x3C, 0x00, 0x3F, 0x00}) {
		return "utf-16le"
	}
	if bytes.HasPrefix(b, []byte{0x00, 0x3C, 0x00, 0x3F}) {
		return "utf-16be"
	}
	p := &scanner{b: b}
	for p.pos < len(b) && p.pos < prescanLimit {
		switch {
		case p.hasPrefix("<!--"):
			// To the first "-->" after the "<", whose dashes may be
			// those of "<!--" itself: "<!-->" is a whole comment.
			end := bytes.Index(b[p.pos+2:], []byte("-->"))
			if end < 0 {
				return xmlDeclEncoding(b)
			}
			p.pos += 2 + end + 2
		case p.hasPrefixFold("<meta") && p.pos+5 < len(b) && isSpaceOrSlash(b[p.pos+5]):
			p.pos += 5 // at the space or slash, which attribute skips
			if n, done := p.meta(); done {
				if n != "" {
					return n
				}
				return xmlDeclEncoding(b)
			}
		case p.pos+1 < len(b) && b[p.pos] == '<' && (isASCIIAlpha(b[p.pos+1]) ||
			b[p.pos+1] == '/' && p.pos+2 < len(b) && isASCIIAlpha(b[p.pos+2])):
			// Any other tag: skip its name and its attributes, which
			// may hold a ">" in quotes.
			i := p.pos + 1
			for i < len(b) && !isSpace(b[i]) && b[i] != '>' {
				i++
			}
			p.pos = i
			for {
				_, _, ok := p.attribute()
				if !ok {
					break
				}
			}
			if p.pos >= len(b) {
				return xmlDeclEncoding(b)
			}
		case p.hasPrefix("<!") || p.hasPrefix("</") || p.hasPrefix("<?"):
			end := bytes.IndexByte(b[p.pos+1:], '>')
			if end < 0 {
				return xmlDeclEncoding(b)
			}
			p.pos += 1 + end
		}
		p.pos++
	}
	return xmlDeclEncoding(b)
}

// scanner is the prescan's position in the page.
type scanner struct {
	b   []byte
	pos int
}

func (p *scanner) hasPrefix(s string) bool { return bytes.HasPrefix(p.b[p.pos:], []byte(s)) }

func (p *scanner) hasPrefixFold(s string) bool {
	return len(p.b)-p.pos >= len(s) && asciiEqualFold(p.b[p.pos:p.pos+len(s)], s)
}

// meta reads the attributes of a <meta> tag (p is past "<meta" and the
// byte after it) and decides as the prescan's meta steps do. done is
// false when the tag declares nothing usable and the prescan goes on;
// done with an empty name means the page ended inside the tag.
func (p *scanner) meta() (name string, done bool) {
	seen := map[string]bool{}
	gotPragma := false
	needPragma := 0 // 0: null, 1: true, 2: false
	charset := ""   // "" null, "\x00" failure, else a canonical name
	for {
		attr, value, ok := p.attribute()
		if !ok {
			break
		}
		if seen[attr] {
			continue
		}
		seen[attr] = true
		switch attr {
		case "http-equiv":
			if value == "content-type" {
				gotPragma = true
			}
		case "content":
			// Only a label that names an encoding counts here, unlike
			// the charset attribute's, whose failure is final.
			if charset == "" {
				if label, ok := metaContentCharset(value); ok {
					if n, ok := Lookup(label); ok {
						charset = n
						needPragma = 1
					}
				}
			}
		case "charset":
			charset = "\x00"
			if n, ok := Lookup(value); ok {
				charset = n
			}
			needPragma = 2
		}
	}
	if p.pos >= len(p.b) {
		return "", true // the page, or the part the caller gave, ends in the tag
	}
	if needPragma == 0 || needPragma == 1 && !gotPragma || charset == "" || charset == "\x00" {
		return "", false
	}
	switch charset {
	case "utf-16le", "utf-16be":
		charset = "utf-8"
	case "x-user-defined":
		charset = "windows-1252"
	}
	return charset, true
}

// attribute is the prescan's "get an attribute": the next attribute's
// name and value, lowered to ASCII lower case, or false at the tag's end
// (p then at its ">") or the page's.
func (p *scanner) attribute() (name, value string, ok bool) {
	b := p.b
	for p.pos < len(b) && (isSpace(b[p.pos]) || b[p.pos] == '/') {
		p.pos++
	}
	if p.pos >= len(b) || b[p.pos] == '>' {
		return "", "", false
	}
	var n, v []byte
	// The name, up to "=", a space, "/" or ">" (a first "=" belongs to
	// the name: "<meta =x>").
	for {
		if p.pos >= len(b) {
			return "", "", false
		}
		c := b[p.pos]
		if c == '=' && len(n) > 0 {
			p.pos++
			goto value
		}
		if isSpace(c) {
			break
		}
		if c == '/' || c == '>' {
			return string(n), "", true
		}
		n = append(n, asciiLowerByte(c))
		p.pos++
	}
	// Spaces after the name; an attribute without "=" has no value.
	for p.pos < len(b) && isSpace(b[p.pos]) {
		p.pos++
	}
	if p.pos >= len(b) {
		return "", "", false
	}
	if b[p.pos] != '=' {
		return string(n), "", true
	}
	p.pos++
value:
	for p.pos < len(b) && isSpace(b[p.pos]) {
		p.pos++
	}
	if p.pos >= len(b) {
		return "", "", false
	}
	switch c := b[p.pos]; c {
	case '"', '\'':
		for p.pos++; p.pos < len(b); p.pos++ {
			if b[p.pos] == c {
				p.pos++
				return string(n), string(v), true
			}
			v = append(v, asciiLowerByte(b[p.pos]))
		}
		return "", "", false
	case '>':
		return string(n), "", true
	}
	for ; p.pos < len(b); p.pos++ {
		c := b[p.pos]
		if isSpace(c) || c == '>' {
			return string(n), string(v), true
		}
		v = append(v, asciiLowerByte(c))
	}
	return "", "", false
}

// metaContentCharset is the HTML Standard's "extracting a character
// encoding from a meta element": the label in a content attribute's
// value ("text/html; charset=shift_jis"), already lowered.
func metaContentCharset(s string) (string, bool) {
	for {
		i := strings.Index(s, "charset")
		if i < 0 {
			return "", false
		}
		s = strings.TrimLeft(s[i+len("charset"):], "\t\n\f\r ")
		if s == "" || s[0] != '=' {
			continue // look for another "charset" from here
		}
		s = strings.TrimLeft(s[1:], "\t\n\f\r ")
		if s == "" {
			return "", false
		}
		switch q := s[0]; q {
		case '"', '\'':
			end := strings.IndexByte(s[1:], q)
			if end < 0 {
				return "", false
			}
			return s[1 : 1+end], true
		}
		end := strings.IndexAny(s, "\t\n\f\r ;")
		if end < 0 {
			end = len(s)
		}
		return s[:end], true
	}
}

// xmlDeclEncoding is the HTML Standard's "get an XML encoding", the
// prescan's last resort: the encoding an XML declaration at the very start
// of the page names (<?xml version="1.0" encoding="euc-kr"?>; the quotes
// required, "<?xml" in lower case), UTF-16 meaning UTF-8; else "".
func xmlDeclEncoding(b []byte) string {
	if !bytes.HasPrefix(b, []byte("<?xml")) {
		return ""
	}
	end := bytes.IndexByte(b, '>')
	if end < 0 {
		return ""
	}
	decl := b[:end]
	i := 0
	for ; i+len("encoding") <= len(decl); i++ {
		if asciiEqualFold(decl[i:i+len("encoding")], "encoding") {
			break
		}
	}
	if i+len("encoding") > len(decl) {
		return ""
	}
	rest := decl[i+len("encoding"):]
	rest = bytes.TrimLeftFunc(rest, func(r rune) bool { return r <= 0x20 })
	if len(rest) == 0 || rest[0] != '=' {
		return ""
	}
	rest = bytes.TrimLeftFunc(rest[1:], func(r rune) bool { return r <= 0x20 })
	if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
		return ""
	}
	q := rest[0]
	rest = rest[1:]
	j := bytes.IndexByte(rest, q)
	if j < 0 {
		return ""
	}
	label := rest[:j]
	for _, c := range label {
		if c <= 0x20 {
			return ""
		}
	}
	n, ok := Lookup(string(label))
	if !ok {
		return ""
	}
	if n == "utf-16le" || n == "utf-16be" {
		n = "utf-8"
	}
	return n
}

// contentTypeCharset is the charset parameter of the MIME type that the
// Fetch Standard's "extract a MIME type" finds in a Content-Type value:
// of several comma-separated types the last valid one, with the charset
// of an earlier one of the same essence if it has none of its own.
func contentTypeCharset(header string) (string, bool) {
	charset, essence := "", ""
	hasCharset := false
	for _, v := range splitHeaderValues(header) {
		ess, params, ok := parseMIMEType(v)
		if !ok || ess == "*/*" {
			continue
		}
		cs, has := params["charset"]
		if ess != essence {
			charset, hasCharset = cs, has
			essence = ess
		} else if has {
			charset, hasCharset = cs, true
		}
	}
	return charset, hasCharset
}

// splitHeaderValues is Fetch's "getting, decoding, and splitting" of a
// header value: split at commas outside quoted strings, each part trimmed
// of spaces and tabs.
func splitHeaderValues(s string) []string {
	var values []string
	var cur strings.Builder
	for i := 0; ; {
		for i < len(s) && s[i] != '"' && s[i] != ',' {
			cur.WriteByte(s[i])
			i++
		}
		if i < len(s) && s[i] == '"' {
			j := skipQuoted(s, i)
			cur.WriteString(s[i:j])
			i = j
			if i < len(s) {
				continue
			}
		}
		values = append(values, strings.Trim(cur.String(), " \t"))
		cur.Reset()
		if i >= len(s) {
			return values
		}
		i++ // the comma
	}
}

// skipQuoted returns the index just past the HTTP quoted string that
// starts at s[i] (a '"'), or len(s) if it is not closed.
func skipQuoted(s string, i int) int {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(s)
}

// parseMIMEType is the MIME Sniffing Standard's "parse a MIME type": the
// lowered type/subtype and the parameters (names lowered, the first of a
// name kept, quoted values unquoted), or false.
func parseMIMEType(s string) (essence string, params map[string]string, ok bool) {
	s = strings.Trim(s, "\t\n\r ")
	slash := strings.IndexByte(s, '/')
	if slash <= 0 || !isToken(s[:slash]) {
		return "", nil, false
	}
	typ := s[:slash]
	rest := s[slash+1:]
	semi := strings.IndexByte(rest, ';')
	if semi < 0 {
		semi = len(rest)
	}
	sub := strings.TrimRight(rest[:semi], "\t\n\r ")
	if sub == "" || !isToken(sub) {
		return "", nil, false
	}
	essence = asciiLower(typ) + "/" + asciiLower(sub)
	params = map[string]string{}
	rest = rest[semi:]
	for len(rest) > 0 {
		rest = strings.TrimLeft(rest[1:], "\t\n\r ") // past the ';'
		i := strings.IndexAny(rest, ";=")
		if i < 0 {
			break
		}
		name := asciiLower(rest[:i])
		if rest[i] == ';' {
			rest = rest[i:]
			continue
		}
		rest = rest[i+1:]
		var value string
		if rest != "" && rest[0] == '"' {
			var b strings.Builder
			j := 1
			for ; j < len(rest); j++ {
				c := rest[j]
				if c == '\\' {
					j++
					if j >= len(rest) {
						b.WriteByte('\\')
						break
					}
					b.WriteByte(rest[j])
					continue
				}
				if c == '"' {
					j++
					break
				}
				b.WriteByte(c)
			}
			value = b.String()
			rest = rest[min(j, len(rest)):]
			k := strings.IndexByte(rest, ';')
			if k < 0 {
				k = len(rest)
			}
			rest = rest[k:]
		} else {
			k := strings.IndexByte(rest, ';')
			if k < 0 {
				k = len(rest)
			}
			value = strings.TrimRight(rest[:k], "\t\n\r ")
			rest = rest[k:]
			if value == "" {
				continue
			}
		}
		if name != "" && isToken(name) && isQuotedStringText(value) {
			if _, dup := params[name]; !dup {
				params[name] = value
			}
		}
	}
	return essence, params, true
}

// asciiEqualFold reports whether b is s but for the case of ASCII letters.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if asciiLowerByte(b[i]) != asciiLowerByte(s[i]) {
			return false
		}
	}
	return true
}

func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isASCIIAlpha(c) || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return s != ""
}

func isQuotedStringText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '\t' && (c < 0x20 || c == 0x7F) {
			return false
		}
	}
	return true
}

func isSpace(c byte) bool { return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ' }

func isSpaceOrSlash(c byte) bool { return isSpace(c) || c == '/' }

func isASCIIAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func asciiLowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
