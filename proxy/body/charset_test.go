package body

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

func TestLookup(t *testing.T) {
	for label, want := range map[string]string{
		"utf-8":             "utf-8",
		" UTF8\n":           "utf-8",
		"unicode-1-1-utf-8": "utf-8",
		"latin1":            "windows-1252",
		"ISO-8859-1":        "windows-1252",
		"ascii":             "windows-1252",
		"sjis":              "shift_jis",
		"Shift_JIS":         "shift_jis",
		"utf-16":            "utf-16le",
		"UTF-16BE":          "utf-16be",
		"x-user-defined":    "x-user-defined",
		"iso-2022-kr":       "replacement",
		"gb2312":            "gbk",
		"ks_c_5601-1987":    "euc-kr",
		"iso-8859-8-i":      "iso-8859-8-i",
	} {
		got, ok := Lookup(label)
		require.True(t, ok, "%q", label)
		require.Equal(t, want, got, "%q", label)
	}
	for _, label := range []string{"", "utf-7", "bogus", "utf-8\u00a0", "\u212Aoi8-r", "utf 8"} {
		_, ok := Lookup(label)
		require.False(t, ok, "%q", label)
	}
}

func TestHTMLCharset(t *testing.T) {
	pad := strings.Repeat("x", 1100)
	cases := []struct {
		name, contentType, body string
		want                    string
		certain                 bool
	}{
		// The byte order mark wins over everything.
		{"utf-8 BOM over header", "text/html; charset=shift_jis", "\xEF\xBB\xBF<meta charset=koi8-r>", "utf-8", true},
		{"utf-16le BOM", "text/html; charset=utf-8", "\xFF\xFEa\x00", "utf-16le", true},
		{"utf-16be BOM", "", "\xFE\xFF\x00a", "utf-16be", true},

		// Then the header.
		{"header over meta", "text/html; charset=Shift_JIS", "<meta charset=koi8-r>", "shift_jis", true},
		{"header quoted", `text/html;charset="euc-kr"`, "", "euc-kr", true},
		{"header label", "text/html; charset=latin1", "", "windows-1252", true},
		{"header utf-16 is utf-16", "text/html; charset=utf-16", "<meta charset=koi8-r>", "utf-16le", true},
		{"header replacement", "text/html; charset=iso-2022-kr", "", "replacement", true},
		{"header unknown label", "text/html; charset=bogus", "<meta charset=koi8-r>", "koi8-r", false},
		{"header empty charset", "text/html; charset=", "<meta charset=koi8-r>", "koi8-r", false},
		{"header lenient params", "text/html; foo; bar=; charset=big5 ; charset=gbk", "", "big5", true},
		{"header case", "Text/HTML; CHARSET=Big5", "", "big5", true},
		{"header two values, same type", "text/html;charset=gbk, text/html", "", "gbk", true},
		{"header two values, new type", "text/plain;charset=gbk, text/html", "<meta charset=koi8-r>", "koi8-r", false},
		{"header */* skipped", "text/html;charset=gbk, */*", "", "gbk", true},
		{"header comma in quotes", `text/html;charset="big5,x", text/html;charset=koi8-u`, "", "koi8-u", true},
		{"header invalid type", "html; charset=big5", "<meta charset=koi8-r>", "koi8-r", false},

		// Then the prescan.
		{"meta charset", "text/html", `<meta charset="Shift_JIS">`, "shift_jis", false},
		{"meta charset unquoted", "", `<meta charset=utf-8>`, "utf-8", false},
		{"meta upper case", "", `<META CHARSET='KOI8-R'>`, "koi8-r", false},
		{"meta slash", "", `<meta/charset=koi8-r>`, "koi8-r", false},
		{"meta pragma", "", `<meta http-equiv="Content-Type" content="text/html; charset=euc-kr">`, "euc-kr", false},
		{"meta pragma reversed", "", `<meta content="text/html; charset=euc-kr" http-equiv="content-type">`, "euc-kr", false},
		{"meta pragma quoted label", "", `<meta http-equiv=content-type content="text/html; charset='shift_jis'">`, "shift_jis", false},
		{"meta pragma spaces", "", `<meta http-equiv=content-type content="text/html;charset = gbk;x">`, "gbk", false},
		{"meta content without pragma", "", `<meta content="text/html; charset=euc-kr">`, "windows-1252", false},
		{"meta pragma then charset", "", `<meta http-equiv=content-type content="charset=koi8-r" charset=big5>`, "big5", false},
		{"meta bad charset is final", "", `<meta charset=bogus http-equiv=content-type content="charset=koi8-r">`, "windows-1252", false},
		{"meta duplicate attribute", "", `<meta charset=koi8-r charset=big5>`, "koi8-r", false},
		{"meta utf-16 means utf-8", "", `<meta charset="utf-16">`, "utf-8", false},
		{"meta utf-16be means utf-8", "", `<meta charset="utf-16be">`, "utf-8", false},
		{"meta x-user-defined means windows-1252", "", `<meta charset="x-user-defined">`, "windows-1252", false},
		{"meta label", "", `<meta charset=sjis>`, "shift_jis", false},
		{"meta in a comment", "", `<!-- <meta charset=big5> --><meta charset=koi8-r>`, "koi8-r", false},
		{"meta after <!-->", "", `<!--><meta charset=koi8-r>`, "koi8-r", false},
		{"meta in an attribute", "", `<div title="<meta charset=big5>"><meta charset=koi8-r>`, "koi8-r", false},
		{"meta in a processing instruction", "", `<?php <meta charset=big5> ?><meta charset=koi8-r>`, "koi8-r", false},
		{"not meta", "", `<metacharset=koi8-r><metadata charset=big5>`, "windows-1252", false},
		{"meta first of two", "", `<meta charset=koi8-r><meta charset=big5>`, "koi8-r", false},
		{"meta unusable then usable", "", `<meta name=x><meta charset=koi8-r>`, "koi8-r", false},
		{"meta starting before 1024", "", strings.Repeat("x", 1019) + `<meta charset=koi8-r>`, "koi8-r", false},
		{"meta after 1024", "", pad + `<meta charset=koi8-r>`, "windows-1252", false},
		{"unclosed meta", "", `<meta charset=koi8-r`, "windows-1252", false},
		{"unclosed comment", "", `<!-- <meta charset=koi8-r>`, "windows-1252", false},

		// UTF-16 without a BOM, by an XML declaration's first bytes.
		{"utf-16le xml", "", "<\x00?\x00x\x00m\x00l\x00", "utf-16le", false},
		{"utf-16be xml", "", "\x00<\x00?\x00x\x00m\x00l", "utf-16be", false},

		// An XML declaration at the start, when no meta declares.
		{"xml declaration", "", `<?xml version="1.0" encoding="shift_jis"?><html>`, "shift_jis", false},
		{"xml declaration, single quotes", "", `<?xml version='1.0' encoding='euc-kr'?>`, "euc-kr", false},
		{"xml declaration, spaces", "", `<?xml version="1.0" encoding = "euc-kr" ?>`, "euc-kr", false},
		{"xml declaration under meta", "", `<?xml version="1.0" encoding="shift_jis"?><meta charset=koi8-r>`, "koi8-r", false},
		{"xml declaration not first", "", ` <?xml version="1.0" encoding="shift_jis"?>`, "windows-1252", false},
		{"xml declaration upper case", "", `<?XML version="1.0" encoding="shift_jis"?>`, "windows-1252", false},
		{"xml declaration unquoted", "", `<?xml version="1.0" encoding=shift_jis?>`, "windows-1252", false},
		{"xml declaration utf-16", "", `<?xml version="1.0" encoding="utf-16"?>`, "utf-8", false},
		{"xml declaration x-user-defined", "", `<?xml version="1.0" encoding="x-user-defined"?>`, "x-user-defined", false},

		// Else the default.
		{"nothing", "", "<html><body>caf\xe9", "windows-1252", false},
		{"nothing, UTF-8 content", "text/html", "<html><body>caf\xc3\xa9", "windows-1252", false},
		{"empty", "", "", "windows-1252", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, certain := HTMLCharset(c.contentType, []byte(c.body))
			require.Equal(t, c.want, got)
			require.Equal(t, c.certain, certain)
		})
	}
}

func TestScriptCharset(t *testing.T) {
	for _, c := range []struct {
		contentType, body, fallback, want string
	}{
		{"text/javascript; charset=shift_jis", "\xFF\xFEa\x00", "utf-8", "utf-16le"},
		{"text/javascript; charset=shift_jis", "\xEF\xBB\xBFa", "euc-kr", "utf-8"},
		{"text/javascript; charset=Shift_JIS", "var a", "utf-8", "shift_jis"},
		{"text/javascript; charset=bogus", "var a", "euc-kr", "euc-kr"},
		{"text/javascript", "var a", "latin1", "windows-1252"},
		{"", "var a", "utf-8", "utf-8"},
		{"", "var a", "bogus", "utf-8"},
		{"application/javascript;charset=\"utf-16be\"", "", "", "utf-16be"},
	} {
		require.Equal(t, c.want, ScriptCharset(c.contentType, []byte(c.body), c.fallback), "%+v", c)
	}
}

func TestContentTypeCharset(t *testing.T) {
	for _, c := range []struct {
		header, want string
		ok           bool
	}{
		{"text/html; charset=utf-8", "utf-8", true},
		{`text/html; charset="a\"b"`, `a"b`, true},
		{`text/html; charset="unterminated`, "unterminated", true},
		{`text/html; charset="x" junk; y=z`, "x", true},
		{"text/html; charset=utf-8 ", "utf-8", true},
		{"text/html;;charset=utf-8", "utf-8", true},
		{"text/html; CHARSET=utf-8; charset=big5", "utf-8", true},
		{"text/html; charset", "", false},
		{"text/html", "", false},
		{"text/html; char set=utf-8", "", false},
		{"/html; charset=utf-8", "", false},
		{"text/; charset=utf-8", "", false},
		{"text/html, text/plain; charset=gbk", "gbk", true},
		{"text/html; charset=gbk, text/html; charset=big5", "big5", true},
		{"text/html; charset=gbk, garbage", "gbk", true},
		{"", "", false},
	} {
		got, ok := contentTypeCharset(c.header)
		require.Equal(t, c.ok, ok, "%q", c.header)
		require.Equal(t, c.want, got, "%q", c.header)
	}
}

func TestBOM(t *testing.T) {
	require.Equal(t, []byte{0xEF, 0xBB, 0xBF}, BOM("utf8"))
	require.Equal(t, []byte{0xFF, 0xFE}, BOM("utf-16"))
	require.Equal(t, []byte{0xFE, 0xFF}, BOM("UTF-16BE"))
	require.Nil(t, BOM("shift_jis"))
	require.Nil(t, BOM("bogus"))
}

func TestCharsetRoundTrips(t *testing.T) {
	win1252 := make([]byte, 0, 256)
	for i := 0; i < 256; i++ {
		win1252 = append(win1252, byte(i))
	}
	cases := []struct {
		label string
		text  string // what the bytes decode to
		bytes string
	}{
		{"shift_jis", "日本語のテキスト、カタカナ ｶﾀｶﾅ ①", "\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67\x81\x41\x83\x4a\x83\x5e\x83\x4a\x83\x69\x20\xb6\xc0\xb6\xc5\x20\x87\x40"},
		{"windows-1252", "caf\u00e9 \u20ac \u0081 \u0178", "caf\xe9 \x80 \x81 \x9f"},
		{"euc-kr", "한국어 텍스트", "\xc7\xd1\xb1\xb9\xbe\xee \xc5\xd8\xbd\xba\xc6\xae"},
		{"gbk", "中文 €", "\xd6\xd0\xce\xc4 \x80"},
		{"gb18030", "中文 😀 \u00e9", "\xd6\xd0\xce\xc4 \x949\xfc6 \xa8\xa6"},
		{"big5", "繁體中文", "\xc1\x63\xc5\xe9\xa4\xa4\xa4\xe5"},
		{"euc-jp", "日本語", "\xc6\xfc\xcb\xdc\xb8\xec"},
		{"iso-2022-jp", "日本語 a", "\x1b$BF|K\\8l\x1b(B a"},
		{"koi8-r", "Привет", "\xf0\xd2\xc9\xd7\xc5\xd4"},
		{"iso-8859-8-i", "שלום", "\xf9\xec\xe5\xed"},
		{"utf-16le", "a😀é", "a\x00\x3d\xd8\x00\xde\xe9\x00"},
		{"utf-16be", "a😀é", "\x00a\xd8\x3d\xde\x00\x00\xe9"},
		{"x-user-defined", "a\uF780\uF7FF", "a\x80\xff"},
		{"utf-8", "café", "caf\xc3\xa9"},
	}
	for _, c := range cases {
		t.Run(c.label, func(t *testing.T) {
			text, err := ToUTF8(c.label, []byte(c.bytes))
			require.NoError(t, err)
			require.Equal(t, c.text, string(text))
			back, err := FromUTF8(c.label, text)
			require.NoError(t, err)
			require.Equal(t, []byte(c.bytes), back)
		})
	}

	// Every byte of the single-byte encodings that maps at all comes
	// back; windows-1252 maps all 256 (0x81, 0x8D, 0x8F, 0x90, 0x9D to
	// the C1 controls), as do x-user-defined and the ISO 8859s' C1 range.
	for _, label := range []string{"windows-1252", "x-user-defined", "iso-8859-2", "windows-1251", "koi8-u", "macintosh", "ibm866"} {
		text, err := ToUTF8(label, win1252)
		require.NoError(t, err, label)
		require.True(t, utf8.Valid(text))
		require.NotContains(t, string(text), "\uFFFD", label)
		back, err := FromUTF8(label, text)
		require.NoError(t, err, label)
		require.Equal(t, win1252, back, label)
	}
	text, err := ToUTF8("windows-1252", []byte{0x80, 0x81, 0x8D, 0x8F, 0x90, 0x9D, 0x9F})
	require.NoError(t, err)
	require.Equal(t, "€\u0081\u008D\u008F\u0090\u009DŸ", string(text))
	text, err = ToUTF8("windows-1253", []byte{0x81, 0xAA, 0xE1})
	require.NoError(t, err)
	require.Equal(t, "\u0081\uFFFDα", string(text), "0xAA is unmapped in windows-1253")

	// Shift_JIS, EUC-KR and windows-1252 over long text.
	long := strings.Repeat("日本語のテキスト。ｶﾀｶﾅ、漢字、ひらがな。ABC 123\n", 200)
	enc, err := FromUTF8("shift_jis", []byte(long))
	require.NoError(t, err)
	dec, err := ToUTF8("shift_jis", enc)
	require.NoError(t, err)
	require.Equal(t, long, string(dec))
	long = strings.Repeat("한국어 텍스트입니다. 안녕하세요!\n", 200)
	enc, err = FromUTF8("euc-kr", []byte(long))
	require.NoError(t, err)
	dec, err = ToUTF8("euc-kr", enc)
	require.NoError(t, err)
	require.Equal(t, long, string(dec))
}

func TestToUTF8(t *testing.T) {
	// UTF-8: the BOM dropped, valid input not copied.
	in := []byte("\xEF\xBB\xBFcafé")
	out, err := ToUTF8("utf-8", in)
	require.NoError(t, err)
	require.Equal(t, "café", string(out))
	require.Same(t, &in[3], &out[0])
	in = []byte("plain")
	out, err = ToUTF8("UTF8", in)
	require.NoError(t, err)
	require.Same(t, &in[0], &out[0])

	// Only that encoding's BOM is dropped.
	out, err = ToUTF8("utf-16le", []byte("\xFF\xFEa\x00"))
	require.NoError(t, err)
	require.Equal(t, "a", string(out))
	out, err = ToUTF8("utf-16be", []byte("\xFF\xFE"))
	require.NoError(t, err)
	require.Equal(t, "\uFFFE", string(out))
	out, err = ToUTF8("windows-1252", []byte("\xEF\xBB\xBFa"))
	require.NoError(t, err)
	require.Equal(t, "ï»¿a", string(out))

	// Invalid UTF-8: one U+FFFD per maximal subpart, as browsers.
	for in, want := range map[string]string{
		"a\xE6\x97b":           "a\uFFFDb",                 // a truncated sequence is one error
		"\xE0\x80":             "\uFFFD\uFFFD",             // E0 needs A0-BF: two errors
		"\xED\xA0\x80":         "\uFFFD\uFFFD\uFFFD",       // a surrogate
		"\xF0\x9F\x98":         "\uFFFD",                   // at the end
		"\xF0\x9F\x98a":        "\uFFFDa",                  // before ASCII
		"\xC0\xAF":             "\uFFFD\uFFFD",             // overlong
		"\xF4\x90\x80\x80":     "\uFFFD\uFFFD\uFFFD\uFFFD", // past U+10FFFF
		"\xFF\xFEok":           "\uFFFD\uFFFDok",
		"\xC3":                 "\uFFFD",
		"\xE6\x97\xA5\xE6\x97": "日\uFFFD",
	} {
		out, err := ToUTF8("utf-8", []byte(in))
		require.NoError(t, err)
		require.Equal(t, want, string(out), "%q", in)
	}

	// Invalid UTF-16.
	for in, want := range map[string]string{
		"\x3d\xd8a\x00":            "\uFFFDa", // a lone lead surrogate, the next unit read afresh
		"\x00\xdea\x00":            "\uFFFDa", // a lone trail surrogate
		"a\x00b":                   "a\uFFFD", // an odd byte at the end
		"\x3d\xd8":                 "\uFFFD",  // a lead surrogate at the end
		"\x3d\xd8\x3d\xd8\x00\xde": "\uFFFD😀", // a lead then a pair
	} {
		out, err := ToUTF8("utf-16le", []byte(in))
		require.NoError(t, err)
		require.Equal(t, want, string(out), "%q", in)
	}

	// The replacement encoding.
	out, err = ToUTF8("iso-2022-kr", []byte("anything"))
	require.NoError(t, err)
	require.Equal(t, "\uFFFD", string(out))
	out, err = ToUTF8("replacement", nil)
	require.NoError(t, err)
	require.Empty(t, out)

	// A legacy multi-byte encoding with an invalid sequence is refused,
	// unless the U+FFFD is really in the text (gb18030 encodes it).
	_, err = ToUTF8("shift_jis", []byte("a\x82@b"))
	var ue *UndecodableError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, "shift_jis", ue.Encoding)
	_, err = ToUTF8("euc-kr", []byte("\xc7"))
	require.ErrorAs(t, err, &ue)
	out, err = ToUTF8("gb18030", []byte("a\x84\x31\xa4\x37b"))
	require.NoError(t, err)
	require.Equal(t, "a\uFFFDb", string(out))

	_, err = ToUTF8("bogus", []byte("a"))
	var uc *UnknownCharsetError
	require.ErrorAs(t, err, &uc)
	require.Equal(t, "bogus", uc.Label)
}

func TestFromUTF8(t *testing.T) {
	for _, c := range []struct {
		label, text string
		offset      int
	}{
		{"windows-1252", "a日b", 1},
		{"windows-1252", "€\u0080", 3}, // U+0080 has no byte: 0x80 is €
		{"iso-8859-2", "ab\u00e9\u00e8", 4},
		{"shift_jis", "abc😀", 3},
		{"shift_jis", "日本\uFFFD", 6},
		{"euc-kr", "한국😀", 6},
		{"big5", "中😀", 3},
		{"gbk", "中😀", 3},
		{"euc-jp", "x😀", 1},
		{"iso-2022-jp", "日本😀", 6},
		{"x-user-defined", "é", 0},
		{"koi8-r", "Привет é", 13},
		{"replacement", "a", 0},
	} {
		_, err := FromUTF8(c.label, []byte(c.text))
		var ue *UnrepresentableError
		require.ErrorAs(t, err, &ue, "%+v", c)
		name, _ := Lookup(c.label)
		require.Equal(t, name, ue.Encoding)
		require.Equal(t, c.offset, ue.Offset, "%+v", c)
	}

	// UTF-8 is returned as it is; UTF-16 and gb18030 encode anything.
	in := []byte("a😀")
	out, err := FromUTF8("utf-8", in)
	require.NoError(t, err)
	require.Same(t, &in[0], &out[0])
	for _, label := range []string{"utf-16le", "utf-16be", "gb18030"} {
		s := "a😀\uFFFD\U0010FFFF\u0000"
		out, err := FromUTF8(label, []byte(s))
		require.NoError(t, err, label)
		back, err := ToUTF8(label, out)
		require.NoError(t, err, label)
		require.Equal(t, s, string(back), label)
	}
	out, err = FromUTF8("replacement", nil)
	require.NoError(t, err)
	require.Empty(t, out)

	// A browser's form encoder would write &#128512;: FromUTF8 does not.
	_, err = FromUTF8("windows-1252", []byte("😀"))
	require.Error(t, err)

	_, err = FromUTF8("shift_jis", []byte("a\xffb"))
	require.Error(t, err)
	var ue *UnrepresentableError
	require.False(t, errors.As(err, &ue), "invalid UTF-8 is not a character the encoding lacks")

	_, err = FromUTF8("bogus", []byte("a"))
	var uc *UnknownCharsetError
	require.ErrorAs(t, err, &uc)
}

// TestUTFDecodersAgainstNode compares the UTF-8 and UTF-16 decoders with
// Node's TextDecoder, which implements the Encoding Standard, over random
// bytes rich in errors.
func TestUTFDecodersAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	rng := rand.New(rand.NewSource(7))
	alphabet := []byte{'a', 0x00, 0x80, 0xBF, 0xC2, 0xC0, 0xDF, 0xE0, 0xA0, 0xED, 0x9F, 0xEF, 0xF0, 0x90, 0xF4, 0x8F, 0xFF, 0xD8, 0xDC, 0xDE, 0x3D}
	var inputs [][]byte
	for i := 0; i < 400; i++ {
		b := make([]byte, rng.Intn(12))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		inputs = append(inputs, b)
	}
	type result struct{ UTF8, LE, BE []uint16 }
	script := `
const inputs = JSON.parse(require("fs").readFileSync(0, "utf8"));
const units = s => Array.from({length: s.length}, (_, i) => s.charCodeAt(i));
const dec = l => new TextDecoder(l, {ignoreBOM: true});
console.log(JSON.stringify(inputs.map(a => {
  const b = Uint8Array.from(a);
  return {UTF8: units(dec("utf-8").decode(b)), LE: units(dec("utf-16le").decode(b)), BE: units(dec("utf-16be").decode(b))};
})));`
	js, err := json.Marshal(toInts(inputs))
	require.NoError(t, err)
	cmd := exec.Command(node, "-e", script)
	cmd.Stdin = bytes.NewReader(js)
	stdout, err := cmd.Output()
	require.NoError(t, err)
	var want []result
	require.NoError(t, json.Unmarshal(stdout, &want))
	for i, in := range inputs {
		got8 := decodeUTF8(in)
		if utf8.Valid(in) {
			got8 = in
		}
		require.Equal(t, want[i].UTF8, utf16Units(got8), "utf-8 %x", in)
		require.Equal(t, want[i].LE, utf16Units(decodeUTF16(in, false)), "utf-16le %x", in)
		require.Equal(t, want[i].BE, utf16Units(decodeUTF16(in, true)), "utf-16be %x", in)
	}
}

func toInts(bs [][]byte) [][]int {
	out := make([][]int, len(bs))
	for i, b := range bs {
		out[i] = []int{}
		for _, c := range b {
			out[i] = append(out[i], int(c))
		}
	}
	return out
}

func utf16Units(b []byte) []uint16 {
	out := []uint16{}
	for _, r := range string(b) {
		if r >= 0x10000 {
			r -= 0x10000
			out = append(out, uint16(0xD800+r>>10), uint16(0xDC00+r&0x3FF))
		} else {
			out = append(out, uint16(r))
		}
	}
	return out
}
