package diag

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLineTable(t *testing.T) {
	src := "ab\ncd\r\nef\rg\u2028h\u2029i\n😀x\n"
	lt := NewLineTable([]byte(src))
	for _, c := range []struct {
		off       int
		line, col int
	}{
		{0, 1, 0}, {1, 1, 1}, {2, 1, 2}, // before "\n"
		{3, 2, 0}, {5, 2, 2}, {6, 2, 3}, // "\r\n" is one terminator; an offset inside it stays on its line
		{7, 3, 0}, {10, 4, 0}, {11, 4, 1},
		{14, 5, 0}, {18, 6, 0}, {20, 7, 0},
		{24, 7, 2}, // after the astral character: two UTF-16 units
		{25, 7, 3},
		{26, 8, 0},
		{1000, 8, 0},
	} {
		line, col := lt.Position(int32(c.off))
		assert.Equal(t, [2]int{c.line, c.col}, [2]int{line, col}, "offset %d", c.off)
	}
	assert.Equal(t, 8, lt.Lines())
	assert.Equal(t, "cd", string(lt.LineText(2)))
	assert.Equal(t, "g", string(lt.LineText(4)))
	assert.Equal(t, "😀x", string(lt.LineText(7)))
	assert.Equal(t, "", string(lt.LineText(8)))

	// Lone surrogates kept as WTF-8 count as one unit each.
	lt = NewLineTable([]byte("\xed\xa0\x80a"))
	_, col := lt.Position(4)
	assert.Equal(t, 2, col)
}

func TestLog(t *testing.T) {
	src := []byte("let a = 1;\nlet = ;\n\tx(\u00e9, 😀 b)\n")
	l := NewLog("app.js", src)
	require.NoError(t, l.Err(), "an empty log is no error")
	l.Errorf(Range{31, 32}, "expected %q", ",")
	l.Errorf(Range{15, 16}, "unexpected %q", ";")
	l.Errorf(Range{17, 18}, "a cascade on the same line")
	l.Add(Warning, Range{4, 5}, "unused")
	err := l.Err()
	require.Error(t, err)
	assert.Equal(t, `app.js:1:5: warning: unused
app.js:2:5: error: unexpected ";"
app.js:3:10: error: expected ","`, err.Error())
	assert.Equal(t, "unused", err.(*List).First().Text)

	var buf bytes.Buffer
	require.NoError(t, l.Render(&buf, RenderOptions{}))
	assert.Equal(t, `app.js:1:5: warning: unused
    let a = 1;
        ^
app.js:2:5: error: unexpected ";"
    let = ;
        ^
app.js:3:10: error: expected ","
     x(é, 😀 b)
            ^
`, buf.String())

	buf.Reset()
	require.NoError(t, l.Render(&buf, RenderOptions{Color: true}))
	assert.Contains(t, buf.String(), "\x1b[31merror:")
}

func TestRenderLongLine(t *testing.T) {
	src := []byte(strings.Repeat("a", 500) + "!" + strings.Repeat("b", 500))
	l := NewLog("min.js", src)
	l.Errorf(Range{500, 501}, "unexpected %q", "!")
	var buf bytes.Buffer
	require.NoError(t, l.Render(&buf, RenderOptions{}))
	lines := strings.Split(buf.String(), "\n")
	require.Len(t, lines, 4)
	assert.LessOrEqual(t, len(lines[1]), 130, "long lines are cut around the caret")
	assert.Equal(t, strings.Index(lines[1], "!"), strings.Index(lines[2], "^"))
}

func BenchmarkPosition(b *testing.B) {
	src := bytes.Repeat([]byte("var x = 1; // a line of code\n"), 10000)
	lt := NewLineTable(src)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lt.Position(int32(i*7919) % int32(len(src)))
	}
}

// TestLineTableLongLines: columns on long lines with non-ASCII text (counted
// from checkpoints) equal counting from the line's start, at every offset,
// including offsets inside multi-byte characters and lone surrogates.
func TestLineTableLongLines(t *testing.T) {
	pieces := []string{"a", "bc", "é", "€", "😀", "\xed\xa0\x80", " ", "xyz", "\u2028", "\n", "\r\n", "ü"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 20; round++ {
		var sb strings.Builder
		n := 200 + rng.IntN(3000)
		for sb.Len() < n {
			p := pieces[rng.IntN(len(pieces))]
			if (p == "\n" || p == "\r\n" || p == "\u2028") && rng.IntN(20) != 0 {
				continue // mostly long lines
			}
			sb.WriteString(p)
		}
		src := []byte(sb.String())
		lt := NewLineTable(src)
		for off := 0; off <= len(src); off++ {
			line, col := lt.Position(int32(off))
			start := lt.LineStart(line)
			require.Equal(t, utf16Len(src[start:off]), col, "round %d offset %d", round, off)
		}
	}
}

// TestLineTableWordScan checks the eight-bytes-at-a-time scan against a
// byte-by-byte reading: terminators and non-ASCII bytes at every position
// of a word, runs of ASCII of every length, CR LF split across words.
func TestLineTableWordScan(t *testing.T) {
	pieces := []string{"a", "bcdefgh", "\x7f", "\t", "é", "\u2028", "\u2029", "\n", "\r", "\r\n", "\xe2\x80", "\x0b", "\x8a", "\x8d"}
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 2000; round++ {
		var sb strings.Builder
		n := rng.IntN(80)
		for sb.Len() < n {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		src := []byte(sb.String())
		// The reference: line starts and ASCII flags, byte by byte.
		starts, ascii := []int32{0}, []bool{}
		cur := true
		for i := 0; i < len(src); i++ {
			switch c := src[i]; {
			case c == '\n' || c == '\r':
				if c == '\r' && i+1 < len(src) && src[i+1] == '\n' {
					i++
				}
				ascii, starts, cur = append(ascii, cur), append(starts, int32(i+1)), true
			case c >= 0x80:
				cur = false
				if bytes.HasPrefix(src[i:], []byte("\u2028")) || bytes.HasPrefix(src[i:], []byte("\u2029")) {
					i += 2
					ascii, starts, cur = append(ascii, false), append(starts, int32(i+1)), true
				}
			}
		}
		ascii = append(ascii, cur)
		lt := NewLineTable(src)
		require.Equal(t, len(starts), lt.Lines(), "%q", src)
		for l := 1; l <= lt.Lines(); l++ {
			require.Equal(t, starts[l-1], lt.LineStart(l), "%q line %d", src, l)
			require.Equal(t, ascii[l-1], lt.ascii[l-1], "%q line %d", src, l)
		}
		for off := 0; off <= len(src); off++ {
			want := 0
			for want < len(starts) && starts[want] <= int32(off) {
				want++
			}
			require.Equal(t, want, lt.Line(int32(off)), "%q offset %d", src, off)
		}
	}
}

// Issue 54, case 17: a code frame never sends the source's control bytes
// to the terminal (an escape sequence that would clear the screen or set
// the title, a backspace, a C1 control): each is shown as its
// picture, one cell, so the caret still lines up; the file name and the
// message are cleaned the same way.
func TestRenderControlCharacters(t *testing.T) {
	src := []byte("var a = '\x1b]0;owned\x07\x1b[2J'; \b\v x \u0085 @\n")
	l := NewLog("evil\x1b[31m.js", src)
	at := int32(bytes.IndexByte(src, '@'))
	l.Errorf(Range{at, at + 1}, "unexpected %s", "\x1b[2J@")
	var buf bytes.Buffer
	require.NoError(t, l.Render(&buf, RenderOptions{}))
	out := buf.String()
	for _, c := range []string{"\x1b", "\x07", "\b", "\v", "\u0085"} {
		assert.NotContains(t, out, c)
	}
	assert.Contains(t, out, "evil\u241b[31m.js:1:")
	assert.Contains(t, out, "unexpected \u241b[2J@")
	lines := strings.Split(out, "\n")
	require.Len(t, lines, 4)
	assert.Equal(t, utf8.RuneCountInString(lines[1][:strings.Index(lines[1], "@")]), strings.Index(lines[2], "^"), "the caret under @")
}
