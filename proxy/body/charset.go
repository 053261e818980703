package body

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/transform"
)

// UnknownCharsetError is the error of ToUTF8 and FromUTF8 for a label the
// Encoding Standard does not define.
type UnknownCharsetError struct {
	Label string
}

func (e *UnknownCharsetError) Error() string {
	return fmt.Sprintf("body: unknown character encoding %q", e.Label)
}

// UnrepresentableError is FromUTF8's error for a character the encoding
// has no bytes for: Offset is its byte offset in FromUTF8's input.
// Encoding is the canonical name. The replacement encoding, which has no
// encoder, reports its first character.
type UnrepresentableError struct {
	Encoding string
	Offset   int
}

func (e *UnrepresentableError) Error() string {
	return fmt.Sprintf("body: the character at offset %d cannot be encoded in %s", e.Offset, e.Encoding)
}

// UndecodableError is ToUTF8's error for text in one of the legacy
// multi-byte encodings (Shift_JIS, EUC-JP, ISO-2022-JP, EUC-KR, Big5, GBK,
// gb18030) that holds a byte sequence those encodings do not map. The
// decoders for them (golang.org/x/text's) map every valid sequence as
// browsers do, but recover from an invalid one differently (they may
// swallow the ASCII byte that follows a bad lead byte, which browsers
// keep) and lack the standard's private-use mappings; rather than
// produce text a browser would not, ToUTF8 refuses.
type UndecodableError struct {
	Encoding string
}

func (e *UndecodableError) Error() string {
	return fmt.Sprintf("body: the text holds byte sequences that are invalid in %s", e.Encoding)
}

// ToUTF8 decodes b from the encoding label names to UTF-8, as a browser
// does: a byte order mark of that encoding at the start is dropped (only
// UTF-8 and the UTF-16s have one), and each invalid sequence becomes
// U+FFFD, by the Encoding Standard's rules for UTF-8, UTF-16 and the
// single-byte encodings. The replacement encoding gives a single U+FFFD
// for any non-empty input. For the legacy multi-byte encodings, see
// UndecodableError.
//
// For UTF-8, valid input is returned as it is (b itself, past a BOM), not
// copied. An unknown label is an *UnknownCharsetError.
func ToUTF8(label string, b []byte) ([]byte, error) {
	name, ok := Lookup(label)
	if !ok {
		return nil, &UnknownCharsetError{Label: label}
	}
	switch name {
	case "utf-8":
		b = bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF})
		if utf8.Valid(b) {
			return b, nil
		}
		return decodeUTF8(b), nil
	case "utf-16le":
		return decodeUTF16(bytes.TrimPrefix(b, []byte{0xFF, 0xFE}), false), nil
	case "utf-16be":
		return decodeUTF16(bytes.TrimPrefix(b, []byte{0xFE, 0xFF}), true), nil
	case "replacement":
		if len(b) == 0 {
			return []byte{}, nil
		}
		return []byte("\uFFFD"), nil
	}
	if t := singleByteTable(name); t != nil {
		return t.decode(b), nil
	}
	dec, enc := multiByte(name)
	out, _, err := transform.Bytes(dec.NewDecoder(), b)
	if err != nil {
		return nil, fmt.Errorf("body: decoding %s: %w", name, err)
	}
	// A U+FFFD that does not encode back to the input came from an
	// invalid sequence, where this decoder and browsers may part.
	if bytes.Contains(out, []byte("\uFFFD")) {
		back, _, err := transform.Bytes(enc.NewEncoder(), out)
		if err != nil || !bytes.Equal(back, b) {
			return nil, &UndecodableError{Encoding: name}
		}
	}
	return out, nil
}

// FromUTF8 encodes UTF-8 text b in the encoding label names. A character
// the encoding cannot represent is an *UnrepresentableError: unlike a
// browser's encoder for a form or a URL, which writes such a character as
// an HTML character reference, FromUTF8 leaves the choice to the caller
// (the proxy serves the page unchanged). No byte order mark is written
// (see BOM). For UTF-8, b is returned as it is.
//
// b must be valid UTF-8; invalid UTF-8 is an error. An unknown label is
// an *UnknownCharsetError.
func FromUTF8(label string, b []byte) ([]byte, error) {
	name, ok := Lookup(label)
	if !ok {
		return nil, &UnknownCharsetError{Label: label}
	}
	if name == "utf-8" {
		return b, nil
	}
	if !utf8.Valid(b) {
		return nil, errors.New("body: FromUTF8: the text is not valid UTF-8")
	}
	switch name {
	case "utf-16le", "utf-16be":
		return encodeUTF16(b, name == "utf-16be"), nil
	case "replacement":
		if len(b) == 0 {
			return []byte{}, nil
		}
		return nil, &UnrepresentableError{Encoding: name, Offset: 0}
	}
	if t := singleByteTable(name); t != nil {
		return t.encode(name, b)
	}
	_, enc := multiByte(name)
	return encodeWith(name, enc.NewEncoder(), b)
}

// encodeWith runs an x/text encoder over b, reporting where it stopped on
// a character it cannot encode.
func encodeWith(name string, t transform.Transformer, b []byte) ([]byte, error) {
	out := make([]byte, 0, len(b)+len(b)/4+16)
	buf := make([]byte, 32<<10)
	for pos := 0; ; {
		nDst, nSrc, err := t.Transform(buf, b[pos:], true)
		out = append(out, buf[:nDst]...)
		pos += nSrc
		switch {
		case err == nil:
			return out, nil
		case err == transform.ErrShortDst:
			if nDst == 0 && nSrc == 0 {
				buf = make([]byte, 2*len(buf))
			}
		default:
			// The encoders stop in front of the rune they refuse.
			return nil, &UnrepresentableError{Encoding: name, Offset: pos}
		}
	}
}

// multiByte is the x/text encoding for decoding and for encoding a legacy
// multi-byte encoding. The Encoding Standard's GBK decoder is its gb18030
// decoder (four-byte sequences included); its encoder is GBK's own.
func multiByte(name string) (dec, enc encoding.Encoding) {
	enc, _ = htmlindex.Get(name) // name came from Lookup
	if name == "gbk" {
		return simplifiedchinese.GB18030, enc
	}
	return enc, enc
}

// decodeUTF8 is the Encoding Standard's UTF-8 decoder for input with
// errors: each maximal prefix of a valid sequence that cannot be
// completed becomes one U+FFFD, as browsers (and Unicode's recommended
// practice) do; Go's own decoding replaces byte by byte.
func decodeUTF8(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/2)
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			out = append(out, c)
			i++
			continue
		}
		need, lo, hi := 0, byte(0x80), byte(0xBF)
		switch {
		case 0xC2 <= c && c <= 0xDF:
			need = 1
		case 0xE0 <= c && c <= 0xEF:
			need = 2
			if c == 0xE0 {
				lo = 0xA0
			} else if c == 0xED {
				hi = 0x9F // no surrogates
			}
		case 0xF0 <= c && c <= 0xF4:
			need = 3
			if c == 0xF0 {
				lo = 0x90
			} else if c == 0xF4 {
				hi = 0x8F // nothing past U+10FFFF
			}
		default:
			out = utf8.AppendRune(out, utf8.RuneError)
			i++
			continue
		}
		j := i + 1
		for k := 0; k < need; k++ {
			if j >= len(b) || b[j] < lo || b[j] > hi {
				break
			}
			lo, hi = 0x80, 0xBF
			j++
		}
		if j-i == need+1 {
			out = append(out, b[i:j]...)
		} else {
			// The bytes up to the bad one are one error; the bad one
			// is read afresh.
			out = utf8.AppendRune(out, utf8.RuneError)
		}
		i = j
	}
	return out
}

// decodeUTF16 is the Encoding Standard's shared UTF-16 decoder: a lone
// surrogate becomes U+FFFD (the code unit after a lone lead surrogate is
// read afresh), and so does an odd byte or a lead surrogate at the end.
func decodeUTF16(b []byte, bigEndian bool) []byte {
	out := make([]byte, 0, len(b)+len(b)/2)
	var lead rune = -1
	for i := 0; i+1 < len(b); i += 2 {
		var cu rune
		if bigEndian {
			cu = rune(b[i])<<8 | rune(b[i+1])
		} else {
			cu = rune(b[i+1])<<8 | rune(b[i])
		}
		if lead >= 0 {
			l := lead
			lead = -1
			if 0xDC00 <= cu && cu <= 0xDFFF {
				out = utf8.AppendRune(out, utf16.DecodeRune(l, cu))
				continue
			}
			out = utf8.AppendRune(out, utf8.RuneError)
		}
		switch {
		case 0xD800 <= cu && cu <= 0xDBFF:
			lead = cu
		case 0xDC00 <= cu && cu <= 0xDFFF:
			out = utf8.AppendRune(out, utf8.RuneError)
		default:
			out = utf8.AppendRune(out, cu)
		}
	}
	if lead >= 0 || len(b)%2 == 1 {
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out
}

func encodeUTF16(b []byte, bigEndian bool) []byte {
	out := make([]byte, 0, 2*len(b))
	put := func(u uint16) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	for _, r := range string(b) {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			put(uint16(hi))
			put(uint16(lo))
		} else {
			put(uint16(r))
		}
	}
	return out
}

// sbTable is a single-byte encoding: each byte's code point (U+FFFD for
// the few bytes some encodings leave unmapped) and the way back.
type sbTable struct {
	toRune [256]rune
	toByte map[rune]byte // the non-ASCII code points
}

var sbTables sync.Map // canonical name -> *sbTable

// singleByteTable is the table of a single-byte encoding, nil for any
// other. The tables are x/text's, mended: they come from an edition of
// the Encoding Standard's indexes older than its mapping of the bytes
// 0x80-0x9F that an encoding leaves undefined to the C1 controls of the
// same number (windows-1252's 0x81 is U+0081 for browsers; x/text's
// U+FFFD), so those bytes are mapped here as browsers map them.
func singleByteTable(name string) *sbTable {
	if t, ok := sbTables.Load(name); ok {
		return t.(*sbTable)
	}
	var cm *charmap.Charmap
	if name == "iso-8859-8-i" {
		cm = charmap.ISO8859_8 // the same bytes, only read right to left
	} else {
		enc, _ := htmlindex.Get(name)
		c, ok := enc.(*charmap.Charmap)
		if !ok {
			return nil
		}
		cm = c
	}
	t := &sbTable{toByte: map[rune]byte{}}
	for i := 0; i < 256; i++ {
		r := cm.DecodeByte(byte(i))
		if r == utf8.RuneError && 0x80 <= i && i <= 0x9F {
			r = rune(i)
		}
		t.toRune[i] = r
		if i >= 0x80 && r != utf8.RuneError {
			t.toByte[r] = byte(i)
		}
	}
	actual, _ := sbTables.LoadOrStore(name, t)
	return actual.(*sbTable)
}

func (t *sbTable) decode(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/2)
	for _, c := range b {
		if c < 0x80 && t.toRune[c] == rune(c) {
			out = append(out, c)
			continue
		}
		out = utf8.AppendRune(out, t.toRune[c])
	}
	return out
}

func (t *sbTable) encode(name string, b []byte) ([]byte, error) {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		if c := b[i]; c < 0x80 && t.toRune[c] == rune(c) {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		c, ok := t.toByte[r]
		if !ok {
			return nil, &UnrepresentableError{Encoding: name, Offset: i}
		}
		out = append(out, c)
		i += size
	}
	return out, nil
}
