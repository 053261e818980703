package trace

import (
	"unicode/utf8"
)

// decodeUTF16LE converts UTF-16LE code units to a WTF-8 string: surrogate
// pairs become their supplementary character, a lone surrogate keeps its
// code unit as a three-byte sequence (which Go's UTF-8 functions read as
// invalid, and which encodeUTF16LE turns back into the same unit).
func decodeUTF16LE(b []byte) string {
	n := len(b) / 2
	ascii := true
	for i := 1; i < len(b); i += 2 {
		if b[i] != 0 || b[i-1] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		out := make([]byte, n)
		for i := range out {
			out[i] = b[2*i]
		}
		return string(out)
	}
	out := make([]byte, 0, n*3)
	for i := 0; i < n; i++ {
		u := rune(b[2*i]) | rune(b[2*i+1])<<8
		switch {
		case u < 0x80:
			out = append(out, byte(u))
		case u >= 0xD800 && u < 0xDC00 && i+1 < n:
			u2 := rune(b[2*i+2]) | rune(b[2*i+3])<<8
			if u2 >= 0xDC00 && u2 < 0xE000 {
				out = utf8.AppendRune(out, 0x10000+(u-0xD800)<<10+(u2-0xDC00))
				i++
				continue
			}
			out = appendSurrogate(out, u)
		case u >= 0xD800 && u < 0xE000:
			out = appendSurrogate(out, u)
		default:
			out = utf8.AppendRune(out, u)
		}
	}
	return string(out)
}

// appendSurrogate writes a lone surrogate in generalised UTF-8.
func appendSurrogate(out []byte, u rune) []byte {
	return append(out, 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F)
}

// nextUnitRune decodes one character of a WTF-8 string. It returns the
// character (a lone surrogate is returned as itself), its byte length, and
// whether it is a lone surrogate. Bytes that are not WTF-8 decode to U+FFFD.
func nextUnitRune(s string, i int) (r rune, size int, lone bool) {
	c := s[i]
	if c < utf8.RuneSelf {
		return rune(c), 1, false
	}
	if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
		return rune(c&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), 3, true
	}
	r, size = utf8.DecodeRuneInString(s[i:])
	return r, size, false
}

// utf16Len returns the number of UTF-16 code units that s encodes to.
func utf16Len(s string) int {
	n := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size, _ := nextUnitRune(s, i)
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// appendUTF16LE appends the UTF-16LE code units of the WTF-8 string s.
func appendUTF16LE(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			dst = append(dst, c, 0)
			i++
			continue
		}
		r, size, _ := nextUnitRune(s, i)
		i += size
		if r >= 0x10000 {
			r -= 0x10000
			hi, lo := 0xD800+(r>>10), 0xDC00+(r&0x3FF)
			dst = append(dst, byte(hi), byte(hi>>8), byte(lo), byte(lo>>8))
		} else {
			dst = append(dst, byte(r), byte(r>>8))
		}
	}
	return dst
}

const hexDigits = "0123456789abcdef"

// AppendQuoted appends s as JSON.stringify would write it: quotes,
// backslashes and control characters escaped (\b \f \n \r \t, others as
// \u00xx), lone surrogates as \udxxx, everything else literal.
func AppendQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size, lone := nextUnitRune(s, i)
			if !lone {
				if r == utf8.RuneError && size == 1 {
					// Not WTF-8: cannot come from a trace; write U+FFFD.
					dst = append(dst, s[start:i]...)
					dst = append(dst, "\uFFFD"...)
					i++
					start = i
					continue
				}
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', hexDigits[r>>12], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
