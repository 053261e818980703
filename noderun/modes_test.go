package noderun_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/lifetime"
	"github.com/memtrace/memtrace/noderun"
	runtimeshim "github.com/memtrace/memtrace/runtime-shim"
	"github.com/memtrace/memtrace/trace"
)

// modeEntry is an entry with its source-location ids replaced by their
// SOURCE_MAPPING ranges (the modes add iids: all-uses' L sites), as text.
type modeEntry struct {
	kind trace.Kind
	text string
	obj  int32 // LAST_USE: the object
}

// modeEntries decodes a trace, drops SOURCE_MAPPING and
// UPDATE_CURRENT_SCRIPT (metadata whose placement follows the entries
// around it) and names every location by its range.
func modeEntries(t *testing.T, data []byte) []modeEntry {
	t.Helper()
	type key struct{ sid, iid int32 }
	var all []trace.Entry
	r := trace.NewReader(bytes.NewReader(data))
	for {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		c := *e
		c.Names = append([]string(nil), e.Names...)
		all = append(all, c)
	}
	ranges := map[key]string{}
	cur := int32(-1)
	for _, e := range all {
		switch e.Kind {
		case trace.UpdateCurrentScript:
			cur = e.SID
		case trace.SourceMapping:
			ranges[key{cur, e.IID}] = fmt.Sprintf("%d:%d-%d:%d", e.Range[0], e.Range[1], e.Range[2], e.Range[3])
		}
	}
	loc := func(sid, iid int32) string {
		if s, ok := ranges[key{sid, iid}]; ok {
			return s
		}
		return fmt.Sprintf("%d:%d", sid, iid)
	}
	var out []modeEntry
	cur = -1
	for _, e := range all {
		var locs []string
		switch e.Kind {
		case trace.UpdateCurrentScript:
			cur = e.SID
			continue
		case trace.SourceMapping:
			continue
		case trace.LastUse, trace.TopLevelFlush:
			sid, iid, ok := trace.ParseSite(e.Name)
			require.True(t, ok, e.Name)
			locs, e.Name = append(locs, loc(sid, iid)), ""
		case trace.Call:
			locs = append(locs, loc(cur, e.IID), loc(e.SID, e.FunIID))
			e.IID, e.FunIID = 0, 0
		case trace.CreateFun:
			locs = append(locs, loc(cur, e.IID), loc(cur, e.FunIID))
			e.IID, e.FunIID = 0, 0
		case trace.ScriptEnter:
			locs = append(locs, loc(e.SID, e.IID))
			e.IID = 0
		case trace.Return, trace.EndLastUse:
		default:
			locs = append(locs, loc(cur, e.IID))
			e.IID = 0
		}
		text := string(trace.AppendText(nil, &e)) + " " + strings.Join(locs, " ")
		out = append(out, modeEntry{kind: e.Kind, text: text, obj: e.Obj})
	}
	return out
}

func withoutLastUses(es []modeEntry) []string {
	var out []string
	for _, e := range es {
		if e.kind != trace.LastUse && e.kind != trace.EndLastUse {
			out = append(out, e.text)
		}
	}
	return out
}

// lastUses returns each object's last LAST_USE record.
func lastUses(es []modeEntry) map[int32]string {
	m := map[int32]string{}
	for _, e := range es {
		if e.kind == trace.LastUse {
			m[e.obj] = e.text
		}
	}
	return m
}

func rc(t *testing.T, data []byte) string {
	var out bytes.Buffer
	require.NoError(t, lifetime.WriteRC(&out, bytes.NewReader(data), lifetime.Options{MemInsightReturns: true, MemInsightPrototypes: true}, lifetime.RCOptions{Testing: true, Verbose: true}))
	return out.String()
}

// TestModes: MemInsight's all-uses and all-putfields modes (spec 3.3,
// 5.2) change exactly what they are meant to change, compared entry by
// entry with the normal trace of the same program (locations compared by
// their ranges). all-uses: the counted entries are the same; every use is
// a LAST_USE block of its own, written at once; each object's last record
// is the normal trace's. all-putfields: the normal entries in the same
// order, plus PUTFIELDs of primitives (value 0) only. Both traces pass
// trace check (runProgram) and record the mode in session.json.
func TestModes(t *testing.T) {
	needNode(t)
	bin := memtracebin.Path(t)
	extraPutfields := 0
	for _, name := range []string{"testRefCount1", "testRefCount21", "testRefCount37", "testMemTrace1", "testMemTrace2", "testStaleness1", "testAllocSiteStats1"} {
		t.Run(name, func(t *testing.T) {
			normalData := runProgram(t, bin, name)
			allUsesData := runProgram(t, bin, name, func(o *noderun.Options) {
				o.AllUses = true
				checkSession(t, o, func(sess noderun.Session) {
					assert.True(t, sess.AllUses)
					assert.False(t, sess.AllPutFields)
				})
			})
			allPutData := runProgram(t, bin, name, func(o *noderun.Options) { o.AllPutFields = true })
			normal, allUses, allPut := modeEntries(t, normalData), modeEntries(t, allUsesData), modeEntries(t, allPutData)

			// all-uses
			require.Equal(t, withoutLastUses(normal), withoutLastUses(allUses), "all-uses changes counted entries")
			nUses := 0
			for k, e := range allUses {
				if e.kind == trace.LastUse {
					nUses++
					require.Less(t, k+1, len(allUses))
					require.Equal(t, trace.EndLastUse, allUses[k+1].kind, "entry %d: an eager LAST_USE is a block of its own", k)
				}
			}
			require.Equal(t, lastUses(normal), lastUses(allUses), "each object's last use")
			require.GreaterOrEqual(t, nUses, len(lastUses(normal)))
			require.Equal(t, rc(t, normalData), rc(t, allUsesData))

			// all-putfields
			gi := 0
			extra := 0
			for _, e := range allPut {
				if gi < len(normal) && e.text == normal[gi].text {
					gi++
					continue
				}
				if e.kind == trace.LastUse || e.kind == trace.EndLastUse || e.kind == trace.TopLevelFlush {
					continue // times move with the extra entries
				}
				require.Equal(t, trace.PutField, e.kind, "all-putfields adds %s", e.text)
				require.True(t, strings.HasSuffix(strings.Fields(e.text)[0], ",0]"), "an extra PUTFIELD writes a primitive: %s", e.text)
				extra++
			}
			for ; gi < len(normal); gi++ {
				k := normal[gi].kind
				require.True(t, k == trace.LastUse || k == trace.EndLastUse || k == trace.TopLevelFlush, "all-putfields lost %s", normal[gi].text)
			}
			t.Logf("all-uses: %d LAST_USE blocks for %d objects; all-putfields: %d extra PUTFIELDs", nUses, len(lastUses(normal)), extra)
			extraPutfields += extra
		})
	}
	require.Positive(t, extraPutfields, "all-putfields logs the primitive writes the normal mode elides (testMemTrace2 has two)")
}

// runDir runs script in dir plainly and under memtrace with opts, checks
// that both print the same and that the trace passes trace check, and
// returns the trace.
func runDir(t *testing.T, dir, script string, mod func(*noderun.Options)) []byte {
	t.Helper()
	plain := exec.Command("node", script)
	plain.Dir = dir
	want, err := plain.CombinedOutput()
	require.NoError(t, err, string(want))
	var out bytes.Buffer
	opts := noderun.Options{Script: script, OutDir: filepath.Join(dir, "out"), Memtrace: memtracebin.Path(t),
		Shim: runtimeshim.Source(), Dir: dir, Stdout: &out, Stderr: &out}
	mod(&opts)
	code, err := noderun.Run(opts)
	require.NoError(t, err)
	require.Equal(t, 0, code, out.String())
	require.Equal(t, string(want), out.String(), "the program's output changes")
	data, err := os.ReadFile(filepath.Join(dir, "out", "mem-trace"))
	require.NoError(t, err)
	rep, err := trace.Check(bytes.NewReader(data), 10)
	require.NoError(t, err)
	require.True(t, rep.OK(), "trace check: %v", rep.Findings)
	return data
}

// TestAllUsesSemantics: a program that uses objects through spread,
// for-in/of, in and instanceof behaves the same under --all-uses
// --all-putfields, and those uses are LAST_USE records at their lines.
func TestAllUsesSemantics(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	src := `'use strict';
class P { constructor(x) { this.x = x; } }
const o = { a: 1, b: 2 };
const arr = [o, { c: 3 }];
function f(...xs) { return xs.length; }
let n = f(...arr);
const copy = [...arr];
const spread = { ...o };
for (const k in o) n += k.length;
for (const v of arr) n += 1;
const has = 'a' in o;
const p = new P(o);
const isP = p instanceof P;
o.a = 5; o.a = 6;
console.log(n, copy.length, spread.b, has, isP, o.a);
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "prog.js"), []byte(src), 0o644))
	data := runDir(t, dir, "prog.js", func(o *noderun.Options) { o.AllUses, o.AllPutFields = true, true })
	lines := map[int]bool{}
	for _, e := range modeEntries(t, data) {
		if e.kind == trace.LastUse {
			var l int
			if _, err := fmt.Sscanf(strings.Fields(e.text)[1], "%d:", &l); err == nil {
				lines[l] = true
			}
		}
	}
	// spread in a call and an array (6, 7), object spread (8), for-in (9),
	// for-of (10), in (11), instanceof (13).
	for _, l := range []int{6, 7, 8, 9, 10, 11, 13} {
		assert.True(t, lines[l], "no use recorded on line %d", l)
	}
	normal := runDir(t, dir, "prog.js", func(*noderun.Options) {})
	for _, e := range modeEntries(t, normal) {
		if e.kind == trace.LastUse {
			var l int
			fmt.Sscanf(strings.Fields(e.text)[1], "%d:", &l)
			assert.NotContains(t, []int{8, 9, 11}, l, "normal mode records an all-uses use: %s", e.text)
		}
	}
}

// TestExclude: memtrace node --exclude loads matching modules, CommonJS
// and ES modules, uninstrumented (no SCRIPT_ENTER for them), and a later
// !GLOB re-includes; session.json records the globs.
func TestExclude(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	files := map[string]string{
		"main.js":             "const a = require('./lib/a.js'); const b = require('./vendor/b.js'); const k = require('./vendor/keep.js');\nimport('./lib/m.mjs').then((m) => console.log(a(), b(), k(), m.default()));\n",
		"lib/a.js":            "module.exports = () => ({ a: 1 }).a;\n",
		"lib/m.mjs":           "export default () => [1, 2].length;\n",
		"vendor/b.js":         "module.exports = () => ({ b: 2 }).b;\n",
		"vendor/keep.js":      "module.exports = () => ({ k: 3 }).k;\n",
		"package.json":        "{}\n",
		"lib/package.json":    "{}\n",
		"vendor/package.json": "{}\n",
	}
	for name, src := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	scripts := func(data []byte) []string {
		var s []string
		for _, e := range modeEntries(t, data) {
			if e.kind == trace.ScriptEnter {
				s = append(s, strings.Split(e.text, "\"")[1])
			}
		}
		return s
	}
	all := runDir(t, dir, "main.js", func(*noderun.Options) {})
	require.ElementsMatch(t, []string{"main.js", "lib/a.js", "vendor/b.js", "vendor/keep.js", "lib/m.mjs"}, scripts(all))
	excl := []string{"vendor", "!vendor/keep.js", "*.mjs"}
	some := runDir(t, dir, "main.js", func(o *noderun.Options) { o.Exclude = excl })
	require.ElementsMatch(t, []string{"main.js", "lib/a.js", "vendor/keep.js"}, scripts(some))
	b, err := os.ReadFile(filepath.Join(dir, "out", "session.json"))
	require.NoError(t, err)
	var sess noderun.Session
	require.NoError(t, json.Unmarshal(b, &sess))
	require.Equal(t, excl, sess.Exclude)

	_, err = noderun.Run(noderun.Options{Script: "main.js", OutDir: filepath.Join(dir, "bad"), Exclude: []string{"[x"}})
	require.Error(t, err, "a bad glob is refused")
}

// checkSession runs check on the session.json of the run o describes,
// once the run is over (runProgram keeps its directory to itself).
func checkSession(t *testing.T, o *noderun.Options, check func(noderun.Session)) {
	t.Cleanup(func() {
		b, err := os.ReadFile(filepath.Join(o.OutDir, "session.json"))
		require.NoError(t, err)
		var sess noderun.Session
		require.NoError(t, json.Unmarshal(b, &sess))
		check(sess)
	})
}

// blocksProgram uses 6,000 objects, then a few over many entries (each
// iteration makes an object, so that blocks end there: blocks
// of few uses after a block that grew the shim's table of last uses), then
// others, then some of the first again (indexed loops: the all-uses mode
// also logs the uses of for-of, which the normal mode leaves out).
const blocksProgram = `'use strict';
const objs = []; for (let i = 0; i < 6000; i++) objs.push({ i });
let s = 0; for (let i = 0; i < objs.length; i++) s += objs[i].i;
const few = [{ v: 1 }, { v: 2 }];
for (let r = 0; r < 30000; r++) { const t = { r }; s += few[r & 1].v; }
const later = []; for (let i = 0; i < 3000; i++) later.push({ i });
for (let r = 0; r < 3; r++) for (let i = 0; i < later.length; i++) s += later[i].i;
for (let i = 0; i < objs.length; i++) if (objs[i].i % 7 === 0) s += objs[i].i;
console.log(s);
`

// TestLastUsesAcrossBlocks: each object's last LAST_USE is the one the
// all-uses mode writes at the use itself, when a block of few uses follows
// one of many (the shim's table shrinks between them: it kept the keys of
// the block just written with a count of 0, so that later blocks left
// last uses out, and a full table made a lookup probe forever).
func TestLastUsesAcrossBlocks(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte("{}\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "blocks.js"), []byte(blocksProgram), 0o644))
	normal := modeEntries(t, runDir(t, dir, "blocks.js", func(*noderun.Options) {}))
	allUses := modeEntries(t, runDir(t, dir, "blocks.js", func(o *noderun.Options) { o.AllUses = true }))
	want, got := lastUses(allUses), lastUses(normal)
	require.Greater(t, len(want), 9000)
	for id, w := range want {
		if got[id] != w {
			t.Errorf("object %d: last use %q, want %q", id, got[id], w)
		}
	}
	require.Len(t, got, len(want))
}
