package trace

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encodeLines builds a binary trace from text-form lines.
func encodeLines(t testing.TB, lines ...string) []byte {
	t.Helper()
	var out []byte
	for _, l := range lines {
		e, err := ParseText(l)
		require.NoError(t, err, l)
		out, err = AppendEntry(out, &e)
		require.NoError(t, err)
	}
	return out
}

// offsetOf returns the byte offset of entry i of lines.
func offsetOf(t testing.TB, lines []string, i int) int64 {
	return int64(len(encodeLines(t, lines[:i]...)))
}

// soundTrace is a small trace that obeys every rule.
var soundTrace = []string{
	`[23,0]`,
	`[1,-1,1]`,
	`[23,1]`,
	`[19,9,1,"a.js"]`,
	`[22,9,1,1,9,1]`,
	`[22,17,1,1,1,20]`,
	`[22,25,2,1,4,2]`,
	`[22,33,5,1,5,9]`,
	`[22,41,2,1,4,2]`,
	`[21,25,["y"]]`,
	`[2,17,25,2]`,
	`[0,9,"f",2]`,
	`[1,33,4]`,
	`[4,33,"x",4]`,
	`[8,"1:33"]`,
	`[18,33,2,25,1]`,
	`[0,25,"this",4]`,
	`[3,33,4,"self",4]`,
	`[11,4]`,
	`[7,41]`,
	`[5,2,5,"1:33"]`,
	`[5,4,9,"1:33"]`,
	`[24]`,
	`[20,9]`,
}

func checkBytes(t *testing.T, data []byte) *Report {
	t.Helper()
	rep, err := Check(bytes.NewReader(data), 0)
	require.NoError(t, err)
	return rep
}

func TestSoundTrace(t *testing.T) {
	rep := checkBytes(t, encodeLines(t, soundTrace...))
	assert.True(t, rep.OK(), "%v", rep.Findings)
	assert.Empty(t, rep.Findings)
	assert.Equal(t, int64(len(soundTrace)), rep.Entries)
	// Counted entries: everything but 23, 22, 21, 5 and 24.
	assert.Equal(t, int64(12), rep.Time)
}

// replace returns lines with line i replaced by repl (none if repl is empty).
func replace(lines []string, i int, repl ...string) []string {
	out := append([]string{}, lines[:i]...)
	out = append(out, repl...)
	return append(out, lines[i+1:]...)
}

func indexOf(t *testing.T, lines []string, line string) int {
	for i, l := range lines {
		if l == line {
			return i
		}
	}
	t.Fatalf("no line %s", line)
	return -1
}

// TestCorruptTraces: each deliberately broken trace fails with a finding at
// the exact entry and byte offset, naming the rule.
func TestCorruptTraces(t *testing.T) {
	type want struct {
		index int
		rule  Rule
		msg   string
	}
	cases := []struct {
		name  string
		lines []string
		bytes func([]byte) []byte // optional byte-level corruption
		want  want
	}{
		{
			name:  "truncated entry",
			lines: soundTrace,
			bytes: func(b []byte) []byte { return b[:len(b)-2] },
			want:  want{len(soundTrace) - 1, RuleFormat, "truncated SCRIPT_EXIT entry: the stream ends 3 bytes into it"},
		},
		{
			name:  "unknown type",
			lines: soundTrace,
			bytes: func(b []byte) []byte { return append(b, 26, 0, 0, 0, 1) },
			want:  want{len(soundTrace), RuleFormat, "unknown entry type 26 (valid types are 0-25)"},
		},
		{
			name:  "odd string length",
			lines: soundTrace[:4],
			bytes: func(b []byte) []byte {
				binary.BigEndian.PutUint32(b[len(b)-12:], 7)
				return b
			},
			want: want{3, RuleFormat, "bad string length 7 in SCRIPT_ENTER entry (odd; UTF-16 code units take 2 bytes)"},
		},
		{
			name:  "negative string length",
			lines: soundTrace[:4],
			bytes: func(b []byte) []byte {
				binary.BigEndian.PutUint32(b[len(b)-12:], 0xFFFFFFF8)
				return b
			},
			want: want{3, RuleFormat, "bad string length -8 in SCRIPT_ENTER entry (negative)"},
		},
		{
			name:  "string longer than the stream",
			lines: soundTrace[:4],
			bytes: func(b []byte) []byte {
				binary.BigEndian.PutUint32(b[len(b)-12:], 1000)
				return b
			},
			want: want{3, RuleFormat, "truncated SCRIPT_ENTER entry"},
		},
		{
			name:  "reference to an uncreated id",
			lines: replace(soundTrace, 13, `[4,33,"x",99]`),
			want:  want{13, RuleIDUncreated, "WRITE value 99 refers to an object that was not created (the latest id is 4)"},
		},
		{
			name:  "putfield base 0",
			lines: replace(soundTrace, 17, `[3,33,0,"self",4]`),
			want:  want{17, RuleIDUncreated, "PUTFIELD base is 0; it must name an object"},
		},
		{
			name:  "mapping before SCRIPT_ENTER",
			lines: append(append([]string{}, soundTrace[:3]...), append([]string{`[22,49,1,1,1,2]`}, soundTrace[3:]...)...),
			want:  want{3, RuleMappingOrder, "SOURCE_MAPPING of iid 49 in script 1, which has no SCRIPT_ENTER yet"},
		},
		{
			name:  "mapping twice",
			lines: replace(soundTrace, 5, `[22,9,1,1,1,20]`),
			want:  want{5, RuleMappingOrder, "SOURCE_MAPPING of 1:9, which is already mapped"},
		},
		{
			name:  "unbalanced exit",
			lines: replace(soundTrace, 22, `[24]`, `[7,41]`),
			want:  want{23, RuleBalance, "FUNCTION_EXIT without a matching FUNCTION_ENTER or CALL"},
		},
		{
			name:  "unterminated last-use block at a counted entry",
			lines: replace(soundTrace, 22),
			want:  want{22, RuleLastUseBlock, "last-use block not closed by END_LAST_USE before this SCRIPT_EXIT"},
		},
		{
			name:  "unterminated last-use block at the end",
			lines: soundTrace[:22],
			want:  want{22, RuleLastUseBlock, "the trace ends inside a last-use block (no END_LAST_USE)"},
		},
		{
			name:  "last uses out of order",
			lines: replace(soundTrace, 20, `[5,4,5,"1:33"]`, `[5,2,9,"1:33"]`),
			want:  want{21, RuleLastUseBlock, "LAST_USE of id 2 after id 4: ids in a block ascend"},
		},
		{
			name:  "last use in the future",
			lines: replace(soundTrace, 21, `[5,4,12,"1:33"]`),
			want:  want{21, RuleLastUseBlock, "LAST_USE time 12 is not a past time (the current time is 11)"},
		},
		{
			name:  "global object not first",
			lines: replace(soundTrace, 1, `[1,-1,2]`),
			want:  want{1, RuleGlobalFirst, "the first counted entry must be CREATE_OBJ(-1, 1) in script 0 (the global object), not [1,-1,2]"},
		},
		{
			name:  "id created twice",
			lines: replace(soundTrace, 12, `[1,33,1]`),
			want:  want{12, RuleIDOrder, "CREATE_OBJ creates object id 1, which was already created (the latest id is 3)"},
		},
		{
			name:  "id gap",
			lines: replace(soundTrace, 12, `[1,33,7]`, `[1,33,4]`),
			want:  want{12, RuleIDOrder, "CREATE_OBJ creates object id 7 out of order: the next id is 4"},
		},
		{
			name:  "call of a non-function",
			lines: replace(soundTrace, 15, `[18,33,4,25,1]`),
			want:  want{15, RuleNotFunction, "CALL of id 4, which was not created by CREATE_FUN"},
		},
		{
			name:  "unmapped allocation site",
			lines: replace(soundTrace, 12, `[1,57,4]`),
			want:  want{12, RuleUnmappedSite, "CREATE_OBJ allocation site 1:57 has no SOURCE_MAPPING"},
		},
		{
			name:  "bad flush string",
			lines: replace(soundTrace, 14, `[8,"1-33"]`),
			want:  want{14, RuleSiteString, `TOP_LEVEL_FLUSH location "1-33" is not "sid:iid" with two 32-bit decimal integers`},
		},
		{
			name:  "RETURN without exit",
			lines: replace(soundTrace, 18, `[11,4]`, `[8,"1:33"]`),
			want:  want{19, RuleBalance, "RETURN is not followed by FUNCTION_EXIT but by TOP_LEVEL_FLUSH"},
		},
		{
			name:  "script id reused",
			lines: replace(soundTrace, 23, `[20,9]`, `[19,9,1,"b.js"]`),
			want:  want{24, RuleScriptReuse, "SCRIPT_ENTER of script id 1, which was entered before"},
		},
		{
			name:  "removing a DOM edge that does not exist",
			lines: append(append([]string{}, soundTrace...), `[12,33,5]`, `[12,33,6]`, `[13,5,6]`, `[14,5,6]`, `[14,5,6]`),
			want:  want{len(soundTrace) + 4, RuleDOMEdge, "REMOVE_DOM_CHILD of 6 from 5, which is not its child"},
		},
		{
			name:  "engine-only entry",
			lines: append(append([]string{}, soundTrace...), `[25]`),
			want:  want{len(soundTrace), RuleEngineOnly, "UNREACHABLE (25) is internal"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := encodeLines(t, c.lines...)
			if c.bytes != nil {
				data = c.bytes(data)
			}
			rep := checkBytes(t, data)
			require.False(t, rep.OK())
			require.NotEmpty(t, rep.Findings)
			f := rep.Findings[0]
			var wantOffset int64
			if c.want.index < len(c.lines) {
				wantOffset = offsetOf(t, c.lines, c.want.index)
			} else {
				wantOffset = int64(len(encodeLines(t, c.lines...)))
			}
			assert.Equal(t, Error, f.Severity)
			assert.Equal(t, c.want.rule, f.Rule, "%s", f)
			assert.Equal(t, int64(c.want.index), f.Index, "%s", f)
			assert.Equal(t, wantOffset, f.Offset, "%s", f)
			assert.Contains(t, f.Msg, c.want.msg)
			assert.Equal(t, fmt.Sprintf("entry %d at byte offset %d: error: %s [%s]", f.Index, f.Offset, f.Msg, f.Rule), f.String())
		})
	}
}

func TestOpenFramesWarn(t *testing.T) {
	lines := append([]string{}, soundTrace[:16]...) // ends inside the CALL
	rep := checkBytes(t, encodeLines(t, lines...))
	assert.True(t, rep.OK())
	require.Len(t, rep.Findings, 1)
	assert.Equal(t, Warning, rep.Findings[0].Severity)
	assert.Equal(t, int64(1), rep.OpenFrames)
}

func TestMaxFindings(t *testing.T) {
	lines := append([]string{}, soundTrace...)
	for i := 0; i < 50; i++ {
		lines = append(lines, `[4,33,"x",1000]`)
	}
	rep, err := Check(bytes.NewReader(encodeLines(t, lines...)), 10)
	require.NoError(t, err)
	assert.Len(t, rep.Findings, 10)
	assert.Equal(t, int64(50), rep.Errors)
}

// TestLogicalTime follows spec 1.4: metadata entries do not tick and see
// the time of the counted entry before them.
func TestLogicalTime(t *testing.T) {
	data := encodeLines(t, soundTrace...)
	r := NewReader(bytes.NewReader(data))
	var got []int64
	for {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		got = append(got, r.Time())
	}
	//                 23  1  23 19 22 22 22 22 21 2  0  1  4  8  18 0  3  11 7  5  5  24 20
	want := []int64{-1, 0, 0, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 11, 11, 12}
	want = append(want[:7], append([]int64{1}, want[7:]...)...)
	assert.Equal(t, want, got)
	assert.Equal(t, int64(13), r.Counted())
}

func TestStringEncoding(t *testing.T) {
	cases := []struct {
		s     string
		units []uint16
		json  string
	}{
		{"", nil, `""`},
		{"abc", []uint16{'a', 'b', 'c'}, `"abc"`},
		{"é€", []uint16{0xE9, 0x20AC}, `"é€"`},
		{"😀", []uint16{0xD83D, 0xDE00}, `"😀"`},
		{"a\"\\\n\t\x01\u2028/<", []uint16{'a', '"', '\\', '\n', '\t', 1, 0x2028, '/', '<'}, `"a\"\\\n\t\u0001` + "\u2028" + `/<"`},
		{string([]byte{0xED, 0xA0, 0xBD}), []uint16{0xD83D}, `"\ud83d"`}, // lone high surrogate
		{string([]byte{0xED, 0xB8, 0x80}) + "x", []uint16{0xDE00, 'x'}, `"\ude00x"`},
	}
	for _, c := range cases {
		t.Run(c.json, func(t *testing.T) {
			e := Entry{Kind: TopLevelFlush, Name: c.s}
			b, err := AppendEntry(nil, &e)
			require.NoError(t, err)
			want := []byte{byte(TopLevelFlush)}
			want = binary.BigEndian.AppendUint32(want, uint32(2*len(c.units)))
			for _, u := range c.units {
				want = binary.LittleEndian.AppendUint16(want, u)
			}
			assert.Equal(t, want, b, "encoding")
			assert.Equal(t, len(want), e.Size())
			got := dumpText(t, b)
			require.Len(t, got, 1)
			assert.Equal(t, `[8,`+c.json+`]`, got[0])
			back, err := ParseText(got[0])
			require.NoError(t, err)
			assert.Equal(t, c.s, back.Name)
		})
	}
}

func TestFreeVarsText(t *testing.T) {
	for _, line := range []string{`[21,9,["J$","x"]]`, `[21,9,[]]`, `[21,9,"ANY"]`} {
		e, err := ParseText(line)
		require.NoError(t, err)
		b, err := AppendEntry(nil, &e)
		require.NoError(t, err)
		assert.Equal(t, []string{line}, dumpText(t, b))
	}
	e, _ := ParseText(`[21,9,"ANY"]`)
	b, _ := AppendEntry(nil, &e)
	assert.Equal(t, []byte{21, 0, 0, 0, 9, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 6, 'A', 0, 'N', 0, 'Y', 0}, b)
}

func TestParseTextErrors(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{`[`, "column 2: expected a 32-bit integer"},
		{`[99]`, "unknown entry type 99"},
		{`[1,2]`, `expected ','`},
		{`[1,2,3,4]`, `expected ']'`},
		{`[0,1,"x,2]`, "unterminated string"},
		{`[0,1,"\q",2]`, `bad escape \q`},
		{`[1,2,3] x`, "unexpected text after the entry"},
		{`[1,2,99999999999]`, "expected a 32-bit integer"},
	} {
		_, err := ParseText(c.in)
		require.Error(t, err, c.in)
		assert.Contains(t, err.Error(), c.msg, c.in)
	}
}

func TestReaderIOError(t *testing.T) {
	data := encodeLines(t, soundTrace...)
	boom := errors.New("disk on fire")
	r := NewReader(io.MultiReader(bytes.NewReader(data[:30]), iotest.ErrReader(boom)))
	var err error
	for err == nil {
		_, err = r.Next()
	}
	assert.ErrorIs(t, err, boom)
	var fe *FormatError
	assert.False(t, errors.As(err, &fe), "an I/O failure is not a format error")
	_, again := r.Next()
	assert.Equal(t, err, again, "errors are sticky")
}

func TestMaxStringLimit(t *testing.T) {
	data := encodeLines(t, `[19,9,1,"`+strings.Repeat("x", 100)+`"]`)
	r := NewReader(bytes.NewReader(data))
	r.MaxString = 100
	_, err := r.Next()
	var fe *FormatError
	require.True(t, errors.As(err, &fe))
	assert.Contains(t, fe.Msg, "over the limit of 100 bytes")
}

func TestLargeString(t *testing.T) {
	// Longer than the reader's initial buffer: the buffer grows.
	big := strings.Repeat("ab€", 50000)
	data := encodeLines(t, `[19,9,1,"`+big+`"]`, `[20,9]`)
	r := NewReader(bytes.NewReader(data))
	e, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, big, e.Name)
	e, err = r.Next()
	require.NoError(t, err)
	assert.Equal(t, ScriptExit, e.Kind)
	assert.Equal(t, int64(len(data)-5), r.Offset())
}

func TestKindNames(t *testing.T) {
	assert.Equal(t, "CREATE_OBJ", CreateObj.String())
	assert.Equal(t, "END_LAST_USE", EndLastUse.String())
	assert.Equal(t, "Kind(30)", Kind(30).String())
	for k := Kind(0); k < NumKinds; k++ {
		want := k == LastUse || k == FreeVars || k == SourceMapping || k == UpdateCurrentScript || k == EndLastUse || k == Unreachable
		assert.Equal(t, want, k.IsMeta(), "%s", k)
	}
}

func TestParseSite(t *testing.T) {
	for _, c := range []struct {
		in       string
		sid, iid int32
		java     bool // MemInsight's engine accepts it
		strict   bool // Check accepts it
	}{
		{"1:33", 1, 33, true, true},
		{"0:-1", 0, -1, true, true},
		{"+1:2", 1, 2, true, true},
		{"1:2:3", 1, 2, true, false},
		{"1:2:", 1, 2, true, false},
		{"1", 0, 0, false, false},
		{":1", 0, 0, false, false},
		{"1:x", 0, 0, false, false},
		{"1:99999999999", 0, 0, false, false},
	} {
		sid, iid, ok := ParseSite(c.in)
		assert.Equal(t, c.java, ok, c.in)
		if ok {
			assert.Equal(t, [2]int32{c.sid, c.iid}, [2]int32{sid, iid}, c.in)
		}
		_, _, ok = parseSite(c.in)
		assert.Equal(t, c.strict, ok, c.in)
	}
}
