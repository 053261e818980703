package lifetime

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/trace"
)

// eventLog records every engine event as text, with times passed through
// a mapping.
type eventLog struct {
	NopListener
	mapTime func(int64) int64
	lines   []string
}

func (l *eventLog) add(format string, args ...any) {
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *eventLog) Unreachable(u Unreachability) {
	l.add("unreachable %d t=%d loc=%v out=%d alloc=%v", u.ID, l.mapTime(u.Time), u.Loc, u.OutDegree, u.AllocSite)
}
func (l *eventLog) Debug(d DebugEvent) {
	l.add("debug t=%d site=%v id=%d rc=%d alloc=%v", l.mapTime(d.Time), d.CallSite, d.ID, d.RefCount, d.AllocSite)
}
func (l *eventLog) Resurrected(t int64, ctx string, f int32) {
	l.add("resurrected t=%d %s %d", l.mapTime(t), ctx, f)
}
func (l *eventLog) Create(c CreateEvent) {
	l.add("create %d %v %v t=%d", c.ID, c.Kind, c.Site, l.mapTime(c.Time))
}
func (l *eventLog) FunctionEnter(c CallEvent) {
	l.add("enter t=%d f=%d %v %v", l.mapTime(c.Time), c.FunID, c.Loc, c.CallSite)
}
func (l *eventLog) FunctionExit(c CallEvent) { l.add("exit t=%d %v", l.mapTime(c.Time), c.Loc) }
func (l *eventLog) UpdateIID(id int32, site Loc, t int64) {
	l.add("updateiid %d %v t=%d", id, site, l.mapTime(t))
}
func (l *eventLog) LastUse(id int32, t int64, site Loc) {
	l.add("lastuse %d t=%d %v", id, l.mapTime(t), site)
}
func (l *eventLog) End(e EndEvent) { l.add("end t=%d %v", l.mapTime(e.Time), e.Remaining) }

func compactTimes(t *testing.T, data []byte) func(int64) int64 {
	m, err := trace.CompactTimeMap(bytes.NewReader(data))
	require.NoError(t, err)
	return m
}

// TestCompactSameLifetimes: a compact trace (flushes with nothing to do
// left out) gives the engine's every event of the full trace, at the same
// sites and locations, at the renumbered times: MemInsight's 80 test
// traces (their own writer's output), in both engine modes.
func TestCompactSameLifetimes(t *testing.T) {
	dir := testcorpus.Dir(t, "meminsight", "traces")
	files, err := filepath.Glob(filepath.Join(dir, "*.mem-trace"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var elided, deferred int64
	cases := map[string][]byte{"redeclare": encodeText(t, redeclareTrace), "shadow": encodeText(t, shadowTrace)}
	for _, path := range files {
		full, err := os.ReadFile(path)
		require.NoError(t, err)
		cases[strings.TrimSuffix(filepath.Base(path), ".mem-trace")] = full
	}
	for name, full := range cases {
		var compact bytes.Buffer
		st, err := trace.Compact(bytes.NewReader(full), &compact)
		require.NoError(t, err, name)
		elided += st.Elided
		deferred += st.Deferred
		// Both return rules, and a cycle queue limit of 1 so that the
		// flushes' regular collections run too.
		for _, opts := range []Options{{}, {MemInsightReturns: true}, {CycleQueueLimit: 1}} {
			want := &eventLog{mapTime: compactTimes(t, full)}
			require.NoError(t, Analyze(bytes.NewReader(full), opts, want), name)
			got := &eventLog{mapTime: func(v int64) int64 { return v }}
			require.NoError(t, Analyze(bytes.NewReader(compact.Bytes()), opts, got), name)
			require.Equal(t, want.lines, got.lines, "%s (%+v): engine events differ", name, opts)
		}
		rep, err := trace.Check(bytes.NewReader(compact.Bytes()), 5)
		require.NoError(t, err)
		require.True(t, rep.OK(), "%s: compact trace is not sound: %v", name, rep.Findings)
	}
	require.Positive(t, elided, "no flush was left out of 80 traces")
	require.Positive(t, deferred, "no declaration was held back")
	t.Logf("%d traces: %d flushes left out, %d declarations held back", len(files), elided, deferred)
}

// redeclareTrace re-declares a block-scoped binding in the middle of a
// function (as a loop body's let does on each iteration): the DECLARE
// that replaces the binding's object makes that object a candidate, so
// the flush after it is not left out.
const redeclareTrace = `[23,0]
[1,-1,1]
[23,1]
[19,1,1,"t.js"]
[22,1,1,1,9,1]
[22,9,2,1,2,10]
[22,17,3,1,8,2]
[22,25,4,1,4,10]
[22,33,5,1,5,10]
[2,9,17,2]
[0,9,"f",2]
[8,"1:9"]
[18,33,2,17,1]
[0,17,"x",0]
[1,9,4]
[0,25,"v",4]
[8,"1:25"]
[0,25,"v",0]
[8,"1:25"]
[7,17]
[20,1]
`

func encodeText(t *testing.T, text string) []byte {
	var out []byte
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		e, err := trace.ParseText(line)
		require.NoError(t, err, line)
		out, err = trace.AppendEntry(out, &e)
		require.NoError(t, err)
	}
	return out
}

// shadowTrace: f binds x to an object and makes g; g declares its own x
// (a primitive: held back) and makes a closure h that names x. Sealing g
// marks g's x, so f's x is dropped when f exits and the object dies there.
// Were g's x not written before h's CREATE_FUN, g's seal would mark f's x
// instead, and the object would live to the end.
const shadowTrace = `[23,0]
[1,-1,1]
[23,1]
[19,1,1,"t.js"]
[22,1,1,1,20,1]
[22,9,2,1,2,10]
[22,17,3,1,10,2]
[22,25,4,1,4,10]
[22,33,5,1,8,2]
[22,41,6,1,6,10]
[22,49,7,1,7,10]
[22,57,9,1,9,10]
[22,65,11,1,11,10]
[22,73,12,1,12,10]
[21,49,["x"]]
[21,17,[]]
[21,33,[]]
[2,9,17,2]
[0,9,"f",2]
[18,65,2,17,1]
[1,57,4]
[0,17,"x",4]
[2,25,33,5]
[0,25,"g",5]
[18,73,5,33,1]
[0,33,"x",0]
[2,41,49,7]
[7,33]
[7,17]
[20,1]
`

// TestRemoveReclaimedDOMChild: a page's detached node and its parent are
// reclaimed when nothing in the trace holds them; a later
// REMOVE_DOM_CHILD of that edge (the browser handed the node back) is no
// error, and the child reached again lives on.
func TestRemoveReclaimedDOMChild(t *testing.T) {
	data := encodeText(t, `[23,0]
[1,-1,1]
[23,1]
[19,9,1,"page.js"]
[22,1,1,1,1,9]
[22,2,1,1,1,5]
[22,3,1,6,1,9]
[12,2,2]
[12,3,3]
[13,2,3]
[8,"1:1"]
[14,2,3]
[4,1,"kept",3]
[8,"1:1"]
[20,9]`)
	var out bytes.Buffer
	require.NoError(t, WriteRC(&out, bytes.NewReader(data), Options{}, RCOptions{Verbose: true}))
	require.Contains(t, out.String(), "Id: 2 ")
}
