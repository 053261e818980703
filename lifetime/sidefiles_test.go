package lifetime

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/trace"
	"github.com/memtrace/memtrace/trace/tracegen"
	"github.com/stretchr/testify/require"
)

type sideFiles struct {
	text    string // the streamstaleness-format output
	records []string
	lastUse []TableRecord
	unreach []TableRecord
	updiid  []UpdIIDRecord
	stats   map[string]map[string]any
}

func readTable(t *testing.T, path string) []TableRecord {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Zero(t, len(data)%20, "%s: 20-byte records", path)
	var out []TableRecord
	r := NewTableReader(bytes.NewReader(data))
	for {
		rec, ok, err := r.Next()
		require.NoError(t, err)
		if !ok {
			break
		}
		out = append(out, rec)
	}
	require.Len(t, out, len(data)/20)
	return out
}

func runSideFiles(t *testing.T, open func() (io.ReadCloser, error)) sideFiles {
	dir := t.TempDir()
	var out bytes.Buffer
	require.NoError(t, Report(open, ReportOptions{
		Out: &out, Engine: Options{MemInsightReturns: true}, RC: RCOptions{Testing: true}, Staleness: true, SiteStats: true, Dir: dir, TempDir: dir,
	}))
	var sf sideFiles
	sf.text = out.String()
	st, err := os.ReadFile(filepath.Join(dir, StalenessTraceFile))
	require.NoError(t, err)
	if s := strings.TrimSuffix(string(st), "\n"); s != "" {
		sf.records = strings.Split(s, "\n")
	}
	sf.lastUse = readTable(t, filepath.Join(dir, LastUseTraceFile))
	sf.unreach = readTable(t, filepath.Join(dir, UnreachableTraceFile))
	upd, err := os.ReadFile(filepath.Join(dir, UpdIIDTraceFile))
	require.NoError(t, err)
	require.Zero(t, len(upd)%12)
	ur := NewUpdIIDReader(bytes.NewReader(upd))
	for {
		rec, ok, err := ur.Next()
		require.NoError(t, err)
		if !ok {
			break
		}
		sf.updiid = append(sf.updiid, rec)
	}
	js, err := os.ReadFile(filepath.Join(dir, SiteStatsFile))
	require.NoError(t, err)
	require.True(t, bytes.HasSuffix(js, []byte("}\n")), "siteStats.json is one line ending in a newline")
	require.Equal(t, 1, bytes.Count(js, []byte("\n")))
	require.NoError(t, json.Unmarshal(js, &sf.stats))
	// No temporary file is left in the directory.
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	require.ElementsMatch(t, []string{StalenessTraceFile, LastUseTraceFile, UnreachableTraceFile, UpdIIDTraceFile, SiteStatsFile}, names)
	return sf
}

// checkSideFiles checks the side files against each other, the text
// output and the trace.
func checkSideFiles(t *testing.T, sf sideFiles, traceData []byte) {
	// staleness-trace: the records of the text output, in order.
	var textRecs []string
	lines := strings.Split(strings.TrimSpace(sf.text), "\n")
	i := 0
	for ; i < len(lines) && lines[i] != "last use"; i++ {
		if strings.HasPrefix(lines[i], "[") {
			textRecs = append(textRecs, lines[i])
		}
	}
	require.Equal(t, textRecs, sf.records)
	reported := map[int32]bool{}
	for _, r := range sf.records {
		var v []any
		require.NoError(t, json.Unmarshal([]byte(r), &v), r)
		require.Len(t, v, 9)
		reported[int32(v[0].(float64))] = true
	}
	// lastuse-trace: the "last use" section, sorted by time, no time 0,
	// one record per object.
	require.Equal(t, "last use", lines[i])
	i++
	seen := map[int32]bool{}
	for k, r := range sf.lastUse {
		require.NotZero(t, r.Time)
		require.False(t, seen[r.ID], "id %d twice in lastuse-trace", r.ID)
		seen[r.ID] = true
		if k > 0 {
			p := sf.lastUse[k-1]
			require.True(t, p.Time < r.Time || p.Time == r.Time && p.ID < r.ID, "lastuse-trace order at %d", k)
		}
		var v []any
		require.NoError(t, json.Unmarshal([]byte(lines[i]), &v))
		require.Equal(t, float64(r.ID), v[0])
		require.Equal(t, float64(r.Time), v[1])
		i++
	}
	require.Equal(t, "unreachable", lines[i])
	i++
	// unreachable-trace: one record per object the client knows (every
	// reported object, plus objects never reported, with time 0), sorted
	// by time then by last use.
	lu := map[int32]int64{}
	for _, r := range sf.lastUse {
		lu[r.ID] = r.Time
	}
	seen = map[int32]bool{}
	for k, r := range sf.unreach {
		require.False(t, seen[r.ID], "id %d twice in unreachable-trace", r.ID)
		seen[r.ID] = true
		if r.Time == 0 {
			require.False(t, reported[r.ID], "reported object %d has no unreachability time", r.ID)
		}
		if k > 0 {
			p := sf.unreach[k-1]
			require.LessOrEqual(t, p.Time, r.Time, "unreachable-trace order at %d", k)
			if p.Time == r.Time {
				kp, kr := lastUseKey(idInfo{luInfo: luInfo{luTime: lu[p.ID]}}), lastUseKey(idInfo{luInfo: luInfo{luTime: lu[r.ID]}})
				require.True(t, kp < kr || kp == kr && p.ID < r.ID, "unreachable-trace tie order at %d", k)
			}
		}
		var v []any
		require.NoError(t, json.Unmarshal([]byte(lines[i]), &v))
		require.Equal(t, float64(r.ID), v[0])
		require.Equal(t, float64(r.Time), v[1])
		i++
	}
	for id := range reported {
		require.True(t, seen[id], "reported object %d missing from unreachable-trace", id)
	}
	for id := range lu {
		require.True(t, seen[id], "object %d with a last use missing from unreachable-trace", id)
	}
	// updiid-trace: one record per UPDATE_IID entry.
	r := trace.NewReader(bytes.NewReader(traceData))
	var upd []int32
	created := map[int32]int64{}
	for {
		e, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		switch e.Kind {
		case trace.UpdateIID:
			upd = append(upd, e.Obj)
		case trace.CreateObj, trace.CreateDOMNode:
			created[e.Obj] = r.Time()
		}
	}
	require.Len(t, sf.updiid, len(upd))
	var got []int32
	for k, rec := range sf.updiid {
		got = append(got, rec.ID)
		if k > 0 {
			require.LessOrEqual(t, created[sf.updiid[k-1].ID], created[rec.ID], "updiid-trace sorted by creation time")
		}
	}
	require.ElementsMatch(t, upd, got)
	// siteStats.json agrees with the "leaking site" lines.
	var leaking []string
	for ; i < len(lines); i++ {
		site, ok := strings.CutPrefix(lines[i], "leaking site ")
		require.True(t, ok, lines[i])
		leaking = append(leaking, site)
	}
	var jsonLeaking []string
	for site, v := range sf.stats {
		require.Contains(t, v, "isLeakingDefinitely")
		require.Contains(t, v, "isNonEscaping")
		if v["isLeakingDefinitely"] == true {
			jsonLeaking = append(jsonLeaking, site)
		}
	}
	sort.Strings(leaking)
	sort.Strings(jsonLeaking)
	require.Equal(t, leaking, jsonLeaking)
}

func TestSideFilesCorpus(t *testing.T) {
	dir := corpusDir(t)
	names := stalenessNames(t, dir, "testStaleness*.mem-trace", "htmlTest*.mem-trace", "testAllocSiteStats*.mem-trace", "testMemTrace*.mem-trace")
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, "traces", name+".mem-trace")
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			sf := runSideFiles(t, opener(path))
			checkSideFiles(t, sf, data)
		})
	}
}

// TestSpilledSortsMatchGoldens forces every external sort to spill after
// a few records: the goldens must not change.
func TestSpilledSortsMatchGoldens(t *testing.T) {
	dir := corpusDir(t)
	old := defaultSortBuffer
	defaultSortBuffer = 3
	defer func() { defaultSortBuffer = old }()
	names := stalenessNames(t, dir, "testStaleness*.mem-trace", "htmlTest*.mem-trace")
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			want := goldenWant(t, filepath.Join(dir, "expected-engine", name+".streamstaleness.expected"))
			var out bytes.Buffer
			tmp := t.TempDir()
			err := Report(opener(filepath.Join(dir, "traces", name+".mem-trace")), ReportOptions{
				Out: &out, Engine: Options{MemInsightReturns: true}, RC: RCOptions{Testing: true}, Staleness: true, SiteStats: true, TempDir: tmp,
			})
			checkGolden(t, name+".streamstaleness", want, out.String(), err)
			ents, err := os.ReadDir(tmp)
			require.NoError(t, err)
			require.Empty(t, ents, "temporary files removed")
		})
	}
}

func bytesOpener(b []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
}

// TestSideFilesSynthetic checks the side files on a generated trace large
// enough to spill, and that the streaming client's state stays bounded.
func TestSideFilesSynthetic(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, tracegen.Generate(&buf, tracegen.Options{Bytes: 2 << 20, Seed: 7, Slots: 64}))
	old := defaultSortBuffer
	defaultSortBuffer = 1000
	defer func() { defaultSortBuffer = old }()
	sf := runSideFiles(t, bytesOpener(buf.Bytes()))
	checkSideFiles(t, sf, buf.Bytes())
	require.Greater(t, len(sf.records), 10000)

	// The client tracks only live and pending objects.
	sw := NewStalenessWriter(StalenessOptions{TempDir: t.TempDir()})
	defer sw.Close()
	probe := &stateProbe{sw: sw}
	e := NewEngine(Options{}, Multi(sw, probe))
	sw.Attach(e)
	require.NoError(t, e.Run(trace.NewReader(bytes.NewReader(buf.Bytes()))))
	require.NoError(t, sw.Err())
	require.Greater(t, probe.created, 10*probe.max, "tracked objects stay far below the objects created")
	require.Less(t, probe.max, 64*9*4, "tracked objects bounded by the generator's live heap")
}

type stateProbe struct {
	NopListener
	sw           *StalenessWriter
	created, max int
}

func (p *stateProbe) Create(CreateEvent) { p.created++ }
func (p *stateProbe) EndLastUse()        { p.max = max(p.max, len(p.sw.objs)) }

// TestStalenessRevived covers records of objects used or reported again
// after their record was written, with the store spilled to disk.
func TestStalenessRevived(t *testing.T) {
	b := newTB().add(
		`[1,1,10]`, `[4,2,"x",10]`, `[8,"1:2"]`, // x = {} (id 10), t=3..5
		`[1,3,11]`, `[8,"1:3"]`, // {} dropped (id 11)
		`[4,4,"x",0]`, `[8,"1:4"]`, // x = null: 10 dies
		`[23,1]`, `[5,10,6,"1:5"]`, `[24]`, // last use of 10 at 6; records of 10 and 11 written
		`[4,5,"y",10]`, `[8,"1:6"]`, // an edge re-adds 10
		`[4,6,"y",0]`, `[8,"1:7"]`, // and drops it again
		`[23,1]`, `[5,10,20,"1:8"]`, `[24]`, // a use after its unreachability
	)
	for _, spill := range []int{1 << 16, 1} {
		old := defaultSortBuffer
		defaultSortBuffer = spill
		sf := runSideFiles(t, bytesOpener(b.bytes(t)))
		defaultSortBuffer = old
		checkSideFiles(t, sf, b.bytes(t))
		var ten []string
		for _, r := range sf.records {
			if strings.HasPrefix(r, "[10,") {
				ten = append(ten, r)
			}
		}
		require.Len(t, ten, 2, "object 10 written twice: %v", sf.records)
		require.True(t, strings.HasPrefix(ten[0], `[10,"OBJECT","dir/t.js:1:1:1:10",`), ten[0])
		require.True(t, strings.HasPrefix(ten[1], `[10,"DOM","unknown",0,[],`), ten[1])
		// The use at 20 came after the second unreachability: the
		// unreachability moves to the use.
		var un []TableRecord
		for _, r := range sf.unreach {
			if r.ID == 10 {
				un = append(un, r)
			}
		}
		require.Equal(t, []TableRecord{{ID: 10, Time: 20, Site: Loc{1, 8}}}, un)
		for _, r := range sf.lastUse {
			if r.ID == 10 {
				require.Equal(t, TableRecord{ID: 10, Time: 20, Site: Loc{1, 8}}, r)
			}
		}
	}
}

func TestTableRecordEncoding(t *testing.T) {
	var b bytes.Buffer
	rec := make([]byte, 20)
	binary.BigEndian.PutUint32(rec, 7)
	binary.BigEndian.PutUint64(rec[4:], 1<<40)
	binary.BigEndian.PutUint32(rec[12:], 2)
	binary.BigEndian.PutUint32(rec[16:], uint32(0xffffffff))
	b.Write(rec)
	b.Write(rec[:11]) // a truncated record ends the table, as in MemInsight
	r := NewTableReader(&b)
	got, ok, err := r.Next()
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, TableRecord{ID: 7, Time: 1 << 40, Site: Loc{2, -1}}, got)
	_, ok, err = r.Next()
	require.NoError(t, err)
	require.False(t, ok)
}
