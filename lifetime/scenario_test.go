package lifetime

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/trace"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tb builds small hand-made traces from their text form. The prologue
// registers script 1 as "dir/t.js" with iid k mapped to line k (columns
// 1-10) for k in 1..99.
type tb struct{ lines []string }

func newTB() *tb {
	b := &tb{}
	b.add(`[23,0]`, `[1,-1,1]`, `[19,1000,1,"dir/t.js"]`, `[23,1]`)
	for k := 1; k < 100; k++ {
		b.add("[22," + itoa(k) + "," + itoa(k) + ",1," + itoa(k) + ",10]")
	}
	return b
}

func itoa(k int) string { return strconv.Itoa(k) }

func (b *tb) add(lines ...string) *tb { b.lines = append(b.lines, lines...); return b }

func (b *tb) bytes(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := trace.NewWriter(&buf)
	for _, l := range b.lines {
		e, err := trace.ParseText(l)
		require.NoError(t, err, l)
		require.NoError(t, w.Write(&e))
	}
	require.NoError(t, w.Flush())
	return buf.Bytes()
}

func (b *tb) rc(t *testing.T) string {
	t.Helper()
	return b.rcWith(t, Options{})
}

func (b *tb) rcWith(t *testing.T, opts Options) string {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, WriteRC(&out, bytes.NewReader(b.bytes(t)), opts, RCOptions{Testing: true, Verbose: true}))
	return strings.TrimSpace(out.String())
}

func row(id, alloc, time, loc string) string {
	b := appendPadded([]byte("Id: "), id, 5)
	b = appendPadded(append(b, " Alloc: "...), alloc, 40)
	b = appendPadded(append(b, " Time: "...), time, 10)
	return string(append(b, " Loc: "+loc...))
}

// A two-object cycle cut by two WRITEs and collected at a DEBUG: both
// objects carry the later WRITE's time and location, not the DEBUG's.
func TestScenarioCycleStampAtDebug(t *testing.T) {
	b := newTB().add(
		`[1,1,2]`, `[4,2,"o1",2]`, // t2, t3
		`[1,3,3]`, `[4,4,"o2",3]`, // t4, t5
		`[3,5,2,"p",3]`, `[3,6,3,"p",2]`, // t6, t7
		`[8,"1:7"]`,                 // t8
		`[4,8,"o1",0]`, `[8,"1:9"]`, // t9, t10
		`[4,10,"o2",0]`, `[8,"1:11"]`, // t11, t12
		`[10,12,2]`, // t13
		`[20,13]`,   // t14
	)
	want := strings.Join([]string{
		"t.js:12:1:12:10 : RC(t.js:1:1:1:10) = 0",
		row("2", "t.js:1:1:1:10", "11", "t.js:10:1:10:10"),
		row("3", "t.js:3:1:3:10", "11", "t.js:10:1:10:10"),
	}, "\n")
	require.Equal(t, want, b.rc(t))
}

// A trace that ends inside a call: the live context stays in the heap and
// the object it holds is reported at its last flush stamp.
func TestScenarioEndInsideCall(t *testing.T) {
	b := newTB().add(
		`[2,1,20,2]`, `[4,2,"f",2]`, `[8,"1:3"]`, // t2-t4
		`[18,4,2,20,1]`,           // t5
		`[1,5,4]`, `[0,20,"l",4]`, // t6, t7
		`[8,"1:6"]`, // t8
	)
	want := strings.Join([]string{
		"Heap not empty: remaining objects",
		"C(dir/t.js:20:1:20:10)",
		row("2", "t.js:1:1:1:10", "8", "end of program"),
		row("3", "t.js:1:1:1:10", "8", "end of program"),
		row("4", "t.js:5:1:5:10", "8", "t.js:6:1:6:10"),
	}, "\n")
	require.Equal(t, want, b.rc(t))
}

// `x = x` on an object held twice stamps it with the WRITE.
func TestScenarioSelfAssignmentStamps(t *testing.T) {
	b := newTB().add(
		`[1,1,2]`, `[4,2,"x",2]`, `[4,3,"y",2]`, `[8,"1:4"]`, // t2-t5
		`[4,5,"x",2]`, // t6
	)
	e := NewEngine(Options{}, nil)
	r := trace.NewReader(bytes.NewReader(b.bytes(t)))
	for {
		en, err := r.Next()
		if err != nil {
			break
		}
		e.now = r.Time()
		require.NoError(t, e.step(en))
	}
	p := e.objs.peek(2).qpos
	require.NotZero(t, p)
	q := e.queue[p-1]
	require.Equal(t, Loc{1, 5}, q.loc)
	require.Equal(t, int64(6), q.time)
	require.Equal(t, 2, e.RefCount(2))
}

// A closure called after its context was collected re-creates it (the
// testRefCount42 pattern: the returned closure is reclaimed by the return
// statement's flush, before its RETURN entry, under MemInsightReturns; by
// default the return keeps the closure and its context).
func TestScenarioResurrection(t *testing.T) {
	b := newTB().add(
		`[2,1,20,2]`, `[4,2,"f",2]`, `[8,"1:3"]`, // t2-t4: f
		`[18,4,2,20,1]`, // t5: call f
		`[21,30,[]]`,
		`[2,5,30,4]`,                   // t6: return function g () {}: g = 4
		`[8,"1:6"]`, `[11,4]`, `[7,6]`, // t7-t9: the flush comes before RETURN
		`[4,7,"h",4]`, `[8,"1:8"]`, // t10, t11: h = g
		`[18,9,4,30,1]`, `[7,10]`, // t12, t13: call h
		`[20,11]`,
	)
	require.NotContains(t, b.rc(t), "re-added")
	out := b.rcWith(t, Options{MemInsightReturns: true})
	require.Contains(t, out, "The following contexts were re-added during execution\nTime   toString\n")
	require.Contains(t, out, "12     (C(dir/t.js:20:1:20:10),4)")
}

func TestMalformedTracesFail(t *testing.T) {
	cases := map[string][]string{
		"exit without call":    {`[7,1]`},
		"call of unknown fun":  {`[18,1,77,20,1]`},
		"unmapped alloc site":  {`[1,500,2]`},
		"duplicate mapping":    {`[22,1,1,1,1,1]`},
		"unknown script":       {`[23,9]`, `[22,1,1,1,1,1]`},
		"bad flush location":   {`[8,"nope"]`},
		"remove missing child": {`[14,50,51]`},
		"null DOM child":       {`[13,0,5]`},
	}
	for name, lines := range cases {
		t.Run(name, func(t *testing.T) {
			data := newTB().add(lines...).bytes(t)
			err := Analyze(bytes.NewReader(data), Options{}, nil)
			require.Error(t, err)
			var fe *trace.FormatError
			require.True(t, errors.As(err, &fe), "%v", err)
			require.Equal(t, int64(len(newTB().lines)+len(lines)-1), fe.Index, "%v", err)
			require.Greater(t, fe.Offset, int64(0))
		})
	}
	// A truncated entry is a decoding error with its offset.
	data := newTB().add(`[1,1,2]`).bytes(t)
	err := Analyze(bytes.NewReader(data[:len(data)-3]), Options{}, nil)
	var fe *trace.FormatError
	require.True(t, errors.As(err, &fe), "%v", err)
}

// Corrupted and truncated corpus traces must give an error or a result,
// never a panic.
func TestCorruptTracesDoNotPanic(t *testing.T) {
	dir := corpusDir(t)
	paths, err := filepath.Glob(filepath.Join(dir, "traces", "*.mem-trace"))
	require.NoError(t, err)
	rng := rand.New(rand.NewSource(1))
	n := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		for k := 0; k < 12; k++ {
			d := append([]byte(nil), data...)
			switch k % 3 {
			case 0:
				d = d[:rng.Intn(len(d)+1)]
			case 1:
				for j := 0; j < 1+rng.Intn(4); j++ {
					d[rng.Intn(len(d))] = byte(rng.Intn(256))
				}
			case 2:
				i := rng.Intn(len(d))
				d[i] ^= 0x80
			}
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%s variant %d: panic: %v", filepath.Base(p), k, r)
					}
				}()
				WriteRC(&bytes.Buffer{}, bytes.NewReader(d), Options{}, RCOptions{Testing: true, Verbose: true})
				WriteJSONStaleness(&bytes.Buffer{}, bytes.NewReader(d), Options{}, true)
				if k%4 == 0 {
					// The two-pass pipeline with every output.
					tmp := t.TempDir()
					Report(bytesOpener(d), ReportOptions{Out: &bytes.Buffer{}, RC: RCOptions{Testing: true},
						Staleness: true, SiteStats: true, FullSiteStats: true, Dir: tmp, TempDir: tmp, Summary: &bytes.Buffer{}})
				}
			}()
			n++
		}
	}
	t.Logf("%d corrupted traces", n)
}

// Every corpus trace, including those without an RC golden, runs cleanly.
func TestAllCorpusTracesRun(t *testing.T) {
	dir := corpusDir(t)
	paths, err := filepath.Glob(filepath.Join(dir, "traces", "*.mem-trace"))
	require.NoError(t, err)
	require.Len(t, paths, 80)
	for _, p := range paths {
		_, err := runRC(t, p)
		require.NoError(t, err, filepath.Base(p))
	}
}

// A program driven by an event loop: five callbacks each keep one more
// object (stale from its creation on), and the trace ends right after the
// last callback returns. The engine empties the heap at the trace's last
// time, which is that FUNCTION_EXIT's: the summary must still see five
// stale objects at the last idle point, so the site is leaking.
func TestScenarioSummaryLeakUntilEventLoopEnds(t *testing.T) {
	b := newTB().add(
		`[2,1,20,2]`, `[4,2,"f",2]`, `[8,"1:2"]`, // function f (ids 2, 3)
		`[1,3,4]`, `[4,4,"h",4]`, `[8,"1:4"]`, // holder h (id 4)
		`[20,6]`, // the script ends: the first idle point
	)
	for i, key := range []string{"a", "b", "c", "d", "e"} {
		id := itoa(10 + i)
		b.add(`[6,7,2]`, `[1,8,`+id+`]`, `[3,9,4,"`+key+`",`+id+`]`, `[7,10]`)
	}
	var sum bytes.Buffer
	data := b.bytes(t)
	require.NoError(t, Report(bytesOpener(data), ReportOptions{Summary: &sum, TempDir: t.TempDir()}))
	var s Summary
	require.NoError(t, json.Unmarshal(sum.Bytes(), &s), sum.String())
	require.NotEmpty(t, s.Sites)
	top := s.Sites[0]
	require.Equal(t, "dir/t.js:8:1:8:10", top.Site, sum.String())
	require.EqualValues(t, 5, top.MaxStale)
	require.True(t, top.Leaking, sum.String())
	require.Equal(t, 1, s.Totals.LeakingSites)
	require.EqualValues(t, 0, s.Totals.LiveAtEnd)
}

// A synthetic iteration scope (trace.IterationMarker): function f runs a
// loop whose two iterations are entered and exited as a function of Fe iid 30;
// each iteration creates an object at line 8 that f's local keep then
// holds until f returns. The summary lists no object at the loop (line
// 30) and counts the iterations as part of f's invocation, so the
// objects, which die at f's exit, do not escape it.
func TestScenarioSummarySkipsIterationScopes(t *testing.T) {
	b := newTB().add(
		`[21,30,["`+trace.IterationMarker+`","keep"]]`,
		`[2,1,20,2]`, `[4,2,"f",2]`, `[8,"1:2"]`, // function f (ids 2, 3)
		`[6,20,2]`, `[0,21,"keep",0]`, // f runs
		`[2,30,30,4]`, // the loop's synthetic function (ids 4, 5)
	)
	for i := 0; i < 2; i++ {
		id := itoa(10 + i)
		b.add(`[6,30,4]`, `[1,8,`+id+`]`, `[0,9,"o",`+id+`]`, `[4,22,"keep",`+id+`]`, `[8,"1:22"]`, `[7,30]`)
	}
	b.add(`[7,23]`, `[20,6]`)
	data := b.bytes(t)
	var sum bytes.Buffer
	require.NoError(t, Report(bytesOpener(data), ReportOptions{Summary: &sum, TempDir: t.TempDir()}))
	var s Summary
	require.NoError(t, json.Unmarshal(sum.Bytes(), &s), sum.String())
	sites := summarySites(s)
	require.NotContains(t, sites, "dir/t.js:30:1:30:10", sum.String())
	o, ok := sites["dir/t.js:8:1:8:10"]
	require.True(t, ok, sum.String())
	require.EqualValues(t, 2, o.Allocated)
	require.True(t, o.NonEscaping, sum.String())
	require.Equal(t, 2, s.Totals.Sites, sum.String()) // f (and its prototype) and line 8

	// Without the marker the loop's function is an object of the summary
	// and its iterations are invocations: the objects escape them.
	for i, l := range b.lines {
		if strings.HasPrefix(l, `[21,30,`) {
			b.lines[i] = `[21,30,["keep"]]`
		}
	}
	sum.Reset()
	require.NoError(t, Report(bytesOpener(b.bytes(t)), ReportOptions{Summary: &sum, TempDir: t.TempDir()}))
	require.NoError(t, json.Unmarshal(sum.Bytes(), &s), sum.String())
	sites = summarySites(s)
	require.Contains(t, sites, "dir/t.js:30:1:30:10", sum.String())
	require.False(t, sites["dir/t.js:8:1:8:10"].NonEscaping, sum.String())
}

// A resume function (trace.ResumeMarker): async function f creates it in
// its first context at its first suspension (iid 40, ids 6 and 7), suspends
// (exit at the await, iid 24) and resumes by entering it. The summary
// lists no object at line 40; f's entries and exits stay invocations.
func TestScenarioSummarySkipsResumeFunctions(t *testing.T) {
	b := newTB().add(
		`[21,40,["`+trace.ResumeMarker+`","keep"]]`,
		`[2,1,20,2]`, `[4,2,"f",2]`, `[8,"1:2"]`, // function f (ids 2, 3)
		`[6,20,2]`, `[1,8,10]`, `[0,21,"keep",10]`, // f runs, keep = new object
		`[2,40,40,6]`, `[0,40,"~resume~",6]`, // its resume function
		`[2,24,24,8]`, `[4,24,"~frame~8",8]`, `[7,24]`, // the await
		`[6,40,6]`, `[4,24,"~frame~8",0]`, `[7,23]`, // resumption, end
		`[20,6]`,
	)
	var sum bytes.Buffer
	require.NoError(t, Report(bytesOpener(b.bytes(t)), ReportOptions{Summary: &sum, TempDir: t.TempDir()}))
	var s Summary
	require.NoError(t, json.Unmarshal(sum.Bytes(), &s), sum.String())
	sites := summarySites(s)
	require.NotContains(t, sites, "dir/t.js:40:1:40:10", sum.String())
	require.Contains(t, sites, "dir/t.js:24:1:24:10", sum.String()) // the frame object
	require.Contains(t, sites, "dir/t.js:8:1:8:10", sum.String())
}

// summarySites indexes a summary's sites by name.
func summarySites(s Summary) map[string]SiteSummary {
	sites := map[string]SiteSummary{}
	for _, st := range s.Sites {
		sites[st.Site] = st
	}
	return sites
}

// A function whose FREE_VARS begin with trace.NoPrototypeMarker (an arrow,
// a method, an accessor, an async function) has no prototype object: its
// CREATE_FUN's id+1 is made by neither pass, so its site counts one object
// (the summary) and no row names id+1. MemInsightPrototypes makes it, as
// MemInsight's engine does; a function without the marker has it.
func TestScenarioNoPrototype(t *testing.T) {
	b := newTB().add(
		`[21,40,["`+trace.NoPrototypeMarker+`","x"]]`, // an arrow that mentions x
		`[21,41,[]]`,                             // a function with a prototype
		`[2,1,40,2]`, `[4,2,"f",2]`, `[8,"1:2"]`, // f = () => x (ids 2, 3 reserved)
		`[2,3,41,4]`, `[4,4,"g",4]`, `[8,"1:4"]`, // g = function () {} (ids 4, 5)
	)
	data := b.bytes(t)
	rows := b.rc(t)
	require.Contains(t, rows, row("2", "t.js:1:1:1:10", "7", "end of program"))
	require.NotContains(t, rows, "Id: 3 ")
	require.Contains(t, rows, row("4", "t.js:3:1:3:10", "7", "end of program"))
	require.Contains(t, rows, row("5", "t.js:3:1:3:10", "7", "end of program"))
	require.Contains(t, b.rcWith(t, Options{MemInsightPrototypes: true}), row("3", "t.js:1:1:1:10", "7", "end of program"))

	allocated := func(opts Options) map[string]int64 {
		var sum bytes.Buffer
		require.NoError(t, Report(bytesOpener(data), ReportOptions{Engine: opts, Summary: &sum, TempDir: t.TempDir()}))
		var s Summary
		require.NoError(t, json.Unmarshal(sum.Bytes(), &s), sum.String())
		out := map[string]int64{}
		for site, o := range summarySites(s) {
			out[site] = int64(o.Allocated)
		}
		return out
	}
	require.Equal(t, map[string]int64{"dir/t.js:1:1:1:10": 1, "dir/t.js:3:1:3:10": 2}, allocated(Options{}))
	require.Equal(t, map[string]int64{"dir/t.js:1:1:1:10": 2, "dir/t.js:3:1:3:10": 2}, allocated(Options{MemInsightPrototypes: true}))
}

// The leaking verdict follows a site's stale count across idle points: a
// count that levels off (a ring buffer of 4: the fifth object replaces the
// first) is not a leak; one still growing at the end is; short runs and
// shrinking counts are not. idleSamples keeps 128 samples at most and
// finds the halfway one of a long run.
func TestIdleSamplesLeaking(t *testing.T) {
	run := func(vs ...int64) bool {
		var x idleSamples
		for _, v := range vs {
			x.add(v)
		}
		return x.leaking()
	}
	require.True(t, run(1, 2, 3, 4, 5))
	require.False(t, run(1, 2, 3))                  // too few idle points
	require.False(t, run(1, 2, 3, 4, 4, 4, 4, 4))   // levelled off
	require.False(t, run(1, 2, 3, 4, 5, 6, 7, 6))   // below its peak at the end
	require.True(t, run(0, 0, 0, 1, 0, 2, 3, 4, 5)) // noise, then growth
	require.False(t, run(5, 5, 5, 5, 6))            // grew by one only
	require.False(t, run(0, 0, 0, 0, 0, 0, 0, 5))   // stale only at the end

	ring := make([]int64, 10000)
	grow := make([]int64, 10000)
	for i := range ring {
		ring[i] = int64(min(i+1, 20))
		grow[i] = int64(i / 100)
	}
	require.False(t, run(ring...))
	require.True(t, run(grow...))
	var x idleSamples
	for _, v := range grow {
		x.add(v)
	}
	require.LessOrEqual(t, len(x.at), maxIdleSamples)
	require.EqualValues(t, 10000, x.n)
}

// A file name with a newline (issue 54, case 17) does not split the
// reference-count rows: each row is one line, the newline escaped.
func TestScenarioFileNameNewline(t *testing.T) {
	b := &tb{}
	b.add(`[23,0]`, `[1,-1,1]`, `[19,1000,1,"dir/a\nId: 99 b.js"]`, `[23,1]`, `[22,1,1,1,1,10]`, `[22,2,2,1,2,10]`)
	b.add(`[1,1,2]`, `[4,2,"x",2]`, `[8,"1:2"]`)
	out := b.rc(t)
	lines := strings.Split(out, "\n")
	require.Len(t, lines, 1, out)
	assert.Equal(t, row("2", `a\nId: 99 b.js:1:1:1:10`, "4", "end of program"), lines[0])
}
