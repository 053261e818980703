package lifetime

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/trace"
)

// reportAll runs Report over a hand-made trace that passes trace check,
// with every output and side file, under both engine models, and returns
// the siteStats.json and the summary of the default model.
func reportAll(t *testing.T, b *tb) (map[string]map[string]any, Summary) {
	t.Helper()
	data := b.bytes(t)
	rep, err := trace.Check(bytes.NewReader(data), 10)
	require.NoError(t, err)
	require.True(t, rep.OK(), "%v", rep.Findings)
	var stats map[string]map[string]any
	var sum Summary
	for _, mi := range []bool{true, false} {
		dir := t.TempDir()
		var out, js bytes.Buffer
		err := Report(bytesOpener(data), ReportOptions{Engine: Options{MemInsightReturns: mi}, Out: &out,
			RC: RCOptions{Testing: true}, Staleness: true, SiteStats: true, FullSiteStats: true,
			Dir: dir, TempDir: dir, Summary: &js})
		require.NoError(t, err, "MemInsightReturns %v", mi)
		for _, f := range []string{StalenessTraceFile, LastUseTraceFile, UnreachableTraceFile, UpdIIDTraceFile, SiteStatsFile} {
			_, err := os.Stat(filepath.Join(dir, f))
			require.NoError(t, err)
		}
		if !mi {
			raw, err := os.ReadFile(filepath.Join(dir, SiteStatsFile))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &stats), "%s", raw)
			require.NoError(t, json.Unmarshal(js.Bytes(), &sum), js.String())
		}
	}
	return stats, sum
}

// Objects the engine re-adds after their collection (spec §8.1): object 2
// is reclaimed at t6, then a PUTFIELD on it re-adds it with an edge to
// object 4; it stays in the heap to the end, reported once (t6). Object 5
// (parent c of 4, created in the same invocation) dies with 4 at the end.
// Object 3 is reclaimed at t11, then stored on the re-added 2.
// MemInsight's site statistics throw at those PUTFIELDs (the base, then
// the value, has no metadata); here 2 and 3 are dead from their
// unreachability on, and 4, whose parents are the re-added 2 (which can
// never die with it) and c, is not consistently pointed by c's site.
// Without the PUTFIELDs on 2 it is.
func TestSiteStatsReaddedObjects(t *testing.T) {
	build := func(zombie bool) *tb {
		b := newTB().add(
			`[1,1,2]`, `[4,2,"b",2]`, `[8,"1:2"]`, // b = {} (2)
			`[4,3,"b",0]`, `[8,"1:3"]`, // 2 reclaimed
			`[1,10,3]`, `[4,11,"d",3]`, `[8,"1:11"]`, // d = {} (3)
			`[4,12,"d",0]`, `[8,"1:12"]`, // 3 reclaimed
			`[1,4,4]`, `[1,5,5]`, `[4,6,"c",5]`, // {} (4), c = {} (5)
		)
		if zombie {
			b.add(`[3,7,2,"z",4]`, `[3,13,2,"y",3]`) // 2.z = 4 (2 re-added), 2.y = 3
		}
		return b.add(`[3,8,5,"h",4]`, `[8,"1:8"]`, `[20,9]`) // c.h = 4
	}
	rc := build(true).rc(t)
	require.Contains(t, rc, "Heap not empty: remaining objects\n2\n")
	require.Contains(t, rc, row("2", "t.js:1:1:1:10", "6", "t.js:3:1:3:10"))

	stats, sum := reportAll(t, build(true))
	require.NotContains(t, stats["dir/t.js:4:1:4:10"], "consistentlyPointedBy")
	require.Equal(t, 4, int(sum.Totals.Allocated))
	require.Zero(t, sum.Totals.LiveAtEnd)

	stats, _ = reportAll(t, build(false))
	require.Equal(t, "dir/t.js:5:1:5:10", stats["dir/t.js:4:1:4:10"]["consistentlyPointedBy"])
}

// A garbage cycle reported at its stamp after the trace gave a later use:
// the cycle {2, 3} loses its last path at t9 and is collected at the end,
// after the LAST_USE block that says 2 was used at t12, so the repair of
// spec §6.1 (which applies to uses after the report) does not move the
// unreachability. In the second pass, 2 dies at t9, before the last use
// of any object of its site: MemInsight's site statistics fail an
// assertion; here the site starts at that unreachability and the later
// last use changes nothing.
func TestSiteStatsLastUseAfterUnreachability(t *testing.T) {
	b := newTB().add(
		`[1,1,2]`, `[4,2,"a",2]`, `[8,"1:2"]`, // a = {} (2), t2-t4
		`[1,3,3]`, `[3,4,2,"p",3]`, `[3,5,3,"p",2]`, `[8,"1:5"]`, // 2 <-> 3, t5-t8
		`[4,6,"a",0]`, `[8,"1:6"]`, // t9: the last path dies
		`[1,7,4]`, `[4,8,"q",4]`, `[8,"1:8"]`, // t11-t13
		`[23,1]`, `[5,2,12,"1:8"]`, `[24]`, // 2 used at t12
		`[20,9]`,
	)
	require.Contains(t, b.rc(t), row("2", "t.js:1:1:1:10", "9", "t.js:6:1:6:10"))
	stats, sum := reportAll(t, b)
	require.Contains(t, stats, "dir/t.js:1:1:1:10")
	require.Equal(t, 3, int(sum.Totals.Allocated))
}

// An object never reported unreachable (declared as "arguments", which
// MemInsight's engine ignores) has the staleness client's default
// unreachability record, time 0, which the second pass delivers at the
// global object's creation: it is not an unreachability, and the object
// stays live to the end.
func TestSiteStatsNeverReported(t *testing.T) {
	b := newTB().add(`[1,1,2]`, `[0,2,"arguments",2]`, `[8,"1:2"]`, `[1,3,3]`, `[8,"1:3"]`, `[20,4]`)
	_, sum := reportAll(t, b)
	require.Equal(t, 2, int(sum.Totals.Allocated))
	require.Equal(t, 1, int(sum.Totals.LiveAtEnd))
}
