package lifetime

import (
	"strconv"
	"unicode/utf8"
)

// appendGsonString appends s as a JSON string the way MemInsight's Gson
// writes it (HTML-safe escaping): '"' and '\\' escaped; \t \b \n \r \f
// as themselves; other control characters, '<' '>' '&' '=' '\”, U+2028
// and U+2029 as \uXXXX with lowercase hex.
func appendGsonString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\f':
				b = append(b, '\\', 'f')
			case '<', '>', '&', '=', '\'':
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			default:
				if c < 0x20 {
					b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
				} else {
					b = append(b, c)
				}
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == '\u2028' || r == '\u2029' {
			b = append(b, `\u202`...)
			b = append(b, hex[r&15])
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return append(b, '"')
}

// prettyJSON writes Gson's pretty-printed form (two-space indent, every
// array element and object member on its own line, "[]" and "{}" when
// empty) from a small tree of jsonValue nodes.
type jsonValue interface {
	appendPretty(b []byte, indent int) []byte
}

type jsonNum int64

type jsonStr string

type jsonArr []jsonValue

type jsonMember struct {
	Key   string
	Value jsonValue
}

type jsonObj []jsonMember

func appendIndent(b []byte, n int) []byte {
	b = append(b, '\n')
	for i := 0; i < n; i++ {
		b = append(b, ' ', ' ')
	}
	return b
}

func (v jsonNum) appendPretty(b []byte, _ int) []byte { return strconv.AppendInt(b, int64(v), 10) }

func (v jsonStr) appendPretty(b []byte, _ int) []byte { return appendGsonString(b, string(v)) }

func (v jsonArr) appendPretty(b []byte, indent int) []byte {
	if len(v) == 0 {
		return append(b, '[', ']')
	}
	b = append(b, '[')
	for i, e := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendIndent(b, indent+1)
		b = e.appendPretty(b, indent+1)
	}
	b = appendIndent(b, indent)
	return append(b, ']')
}

func (v jsonObj) appendPretty(b []byte, indent int) []byte {
	if len(v) == 0 {
		return append(b, '{', '}')
	}
	b = append(b, '{')
	for i, m := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendIndent(b, indent+1)
		b = appendGsonString(b, m.Key)
		b = append(b, ':', ' ')
		b = m.Value.appendPretty(b, indent+1)
	}
	b = appendIndent(b, indent)
	return append(b, '}')
}
