package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/lifetime"
)

func TestLifetimeMeminsightFormat(t *testing.T) {
	dir := testcorpus.Dir(t, "meminsight")
	for _, name := range []string{"testRefCount1", "testRefCount42", "htmlTest7"} {
		want, err := os.ReadFile(filepath.Join(dir, "expected-engine", name+".expected"))
		require.NoError(t, err)
		code, out, errOut := runCmd(t, "", "lifetime", "--format", "meminsight", "--meminsight-returns", filepath.Join(dir, "traces", name+".mem-trace"))
		require.Equal(t, ExitOK, code, errOut)
		assert.Equal(t, strings.TrimSpace(string(want)), strings.TrimSpace(out), name)
		assert.Empty(t, errOut, "no progress bar off a terminal")
	}
	// By default the closure testRefCount42 returns keeps its context
	// (13, its prototype, lives to the end); the deprecated
	// --protect-returns=false asks for MemInsight's model as
	// --meminsight-returns does.
	trace42 := filepath.Join(dir, "traces", "testRefCount42.mem-trace")
	code, out, errOut := runCmd(t, "", "lifetime", "--format", "meminsight", trace42)
	require.Equal(t, ExitOK, code, errOut)
	assert.NotContains(t, out, "re-added")
	assert.Contains(t, out, "Id: 13    Alloc: testRefCount42.js:36:16:37:10            Time: 50         Loc: end of program")
	want42, err := os.ReadFile(filepath.Join(dir, "expected-engine", "testRefCount42.expected"))
	require.NoError(t, err)
	code, out, errOut = runCmd(t, "", "lifetime", "--format", "meminsight", "--protect-returns=false", trace42)
	require.Equal(t, ExitOK, code, errOut)
	assert.Equal(t, strings.TrimSpace(string(want42)), strings.TrimSpace(out))
	assert.Contains(t, errOut, "deprecated")
}

func TestLifetimeErrors(t *testing.T) {
	data, err := os.ReadFile(corpusTrace(t, "testRefCount1"))
	require.NoError(t, err)
	code, _, errOut := runCmd(t, string(data[:200]), "lifetime", "-")
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, "<stdin>: lifetime: entry 9 at byte offset 197: truncated SOURCE_MAPPING entry")

	code, _, errOut = runCmd(t, "", "lifetime", "--format", "nope", "x")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, errOut, `unknown --format "nope"`)
}

func TestLifetimeStalenessFormat(t *testing.T) {
	dir := testcorpus.Dir(t, "meminsight")
	for _, name := range []string{"testStaleness1", "htmlTest17", "htmlTest9"} {
		want, err := os.ReadFile(filepath.Join(dir, "expected-engine", name+".streamstaleness.expected"))
		require.NoError(t, err)
		code, out, errOut := runCmd(t, "", "lifetime", "--meminsight-returns", "--format", "meminsight-staleness", filepath.Join(dir, "traces", name+".mem-trace"))
		require.Equal(t, ExitOK, code, errOut)
		assert.Equal(t, strings.TrimSpace(string(want)), strings.TrimSpace(out), name)
	}
}

type summaryDoc struct {
	Sites []struct {
		Site            string `json:"site"`
		Allocated       int64  `json:"allocated"`
		MaxLive         int64  `json:"maxLive"`
		MaxStale        int64  `json:"maxStale"`
		Leaking         bool   `json:"leaking"`
		Unused          int64  `json:"unused"`
		OneAliveAtATime bool   `json:"oneAliveAtATime"`
		NonEscaping     bool   `json:"nonEscaping"`
		Retainers       []struct {
			Path []struct {
				Holder  string `json:"holder"`
				Edge    string `json:"edge"`
				Context bool   `json:"context"`
			} `json:"path"`
			Objects int `json:"objects"`
		} `json:"retainers"`
	} `json:"sites"`
	Totals map[string]int64 `json:"totals"`
}

func TestLifetimeJSONFormat(t *testing.T) {
	path := corpusTrace(t, "testAllocSiteStats1")
	code, out, errOut := runCmd(t, "", "lifetime", "--format", "json", path)
	require.Equal(t, ExitOK, code, errOut)
	var doc summaryDoc
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&doc))
	require.NotEmpty(t, doc.Sites)
	// Sorted by maximum stale count, largest first, then by site.
	for i := 1; i < len(doc.Sites); i++ {
		a, b := doc.Sites[i-1], doc.Sites[i]
		require.True(t, a.MaxStale > b.MaxStale || a.MaxStale == b.MaxStale && a.Site < b.Site, "order at %d", i)
	}
	// The 1000 objects pushed into a global array, 100 per timer tick.
	top := doc.Sites[0]
	assert.Equal(t, "test/testdata/testAllocSiteStats1.js:21:19:21:21", top.Site)
	assert.Equal(t, int64(1000), top.Allocated)
	assert.Equal(t, int64(1000), top.MaxLive)
	assert.Equal(t, int64(1000), top.MaxStale)
	assert.True(t, top.Leaking)
	assert.False(t, top.NonEscaping)
	// Held by the global array, entry by entry: one path shape for the
	// 256 objects sampled.
	require.Len(t, top.Retainers, 1)
	assert.Equal(t, 256, top.Retainers[0].Objects)
	p := top.Retainers[0].Path
	require.Len(t, p, 2)
	assert.Equal(t, "GLOBAL", p[0].Holder)
	assert.Equal(t, "arr", p[0].Edge)
	assert.True(t, p[0].Context)
	assert.Equal(t, "test/testdata/testAllocSiteStats1.js:17:11:17:13", p[1].Holder) // the array literal
	var alloc int64
	for _, s := range doc.Sites {
		alloc += s.Allocated
		assert.LessOrEqual(t, s.MaxStale, s.MaxLive, s.Site)
		assert.LessOrEqual(t, s.MaxLive, s.Allocated, s.Site)
		assert.LessOrEqual(t, s.Unused, s.Allocated, s.Site)
		assert.Equal(t, s.MaxLive <= 1, s.OneAliveAtATime, s.Site)
	}
	assert.Equal(t, alloc, doc.Totals["allocated"])
	assert.Equal(t, int64(len(doc.Sites)), doc.Totals["sites"])
	assert.Equal(t, int64(1), doc.Totals["leakingSites"])

	// The same from standard input.
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	code, out2, errOut := runCmd(t, string(data), "lifetime", "--format", "json", "-")
	require.Equal(t, ExitOK, code, errOut)
	assert.Equal(t, out, out2)

	// A site whose objects die in the call that made them is non-escaping.
	code, out, errOut = runCmd(t, "", "lifetime", "--format", "json", corpusTrace(t, "testAllocSiteStats2"))
	require.Equal(t, ExitOK, code, errOut)
	doc = summaryDoc{}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	found := false
	for _, s := range doc.Sites {
		if s.Site == "test/testdata/testAllocSiteStats2.js:19:13:19:21" {
			found = true
			assert.True(t, s.NonEscaping)
		}
	}
	assert.True(t, found)
}

func TestLifetimeOutDir(t *testing.T) {
	path := corpusTrace(t, "testStaleness1")
	dir := filepath.Join(t.TempDir(), "a", "b")
	code, out, errOut := runCmd(t, "", "lifetime", "--format", "meminsight", "--out", dir, path)
	require.Equal(t, ExitOK, code, errOut)
	code, want, errOut := runCmd(t, "", "lifetime", "--format", "meminsight", path)
	require.Equal(t, ExitOK, code, errOut)
	assert.Contains(t, want, "Id: 18    Alloc: testStaleness1.js:17:21:17:36")
	assert.Equal(t, want, out, "stdout keeps the chosen format")
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{sideDirMark, "staleness-trace", "lastuse-trace", "unreachable-trace", "updiid-trace", "siteStats.json"}, names)

	// staleness-trace is the record part of the streaming golden.
	golden, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(path)), "expected-engine", "testStaleness1.streamstaleness.expected"))
	require.NoError(t, err)
	recs, _, ok := strings.Cut(string(golden), "last use\n")
	require.True(t, ok)
	st, err := os.ReadFile(filepath.Join(dir, "staleness-trace"))
	require.NoError(t, err)
	assert.Equal(t, recs, string(st))
	// The binary tables hold the golden's sections, 20 bytes a row.
	sections := strings.Split(string(golden), "\n")
	var nLast, nUnreach int
	mode := ""
	for _, l := range sections {
		switch {
		case l == "last use" || l == "unreachable":
			mode = l
		case strings.HasPrefix(l, "[") && mode == "last use":
			nLast++
		case strings.HasPrefix(l, "[") && mode == "unreachable":
			nUnreach++
		}
	}
	for name, n := range map[string]int{"lastuse-trace": nLast, "unreachable-trace": nUnreach} {
		fi, err := os.Stat(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, int64(20*n), fi.Size(), name)
	}
	var stats map[string]map[string]any
	js, err := os.ReadFile(filepath.Join(dir, "siteStats.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(js, &stats))
	assert.NotEmpty(t, stats)

	// From standard input, with the json format: the copy of the input is
	// kept in DIR while it runs and removed.
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	dir2 := filepath.Join(t.TempDir(), "c")
	code, _, errOut = runCmd(t, string(data), "lifetime", "--format", "json", "--out", dir2, "-")
	require.Equal(t, ExitOK, code, errOut)
	for _, name := range names {
		a, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(dir2, name))
		require.NoError(t, err)
		assert.Equal(t, a, b, name)
	}
	ents, err = os.ReadDir(dir2)
	require.NoError(t, err)
	assert.Len(t, ents, 6, "no temporary file left")

	// Issue 54, case 6: a directory of the user's is refused, naming the
	// file in the way, which keeps its content; a link planted in a
	// directory memtrace marked is replaced, its target untouched.
	users := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(users, "lastuse-trace"), []byte("mine"), 0o644))
	code, _, errOut = runCmd(t, "", "lifetime", "--out", users, path)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, "holds lastuse-trace, which memtrace did not write")
	b, err := os.ReadFile(filepath.Join(users, "lastuse-trace"))
	require.NoError(t, err)
	assert.Equal(t, "mine", string(b))

	victim := filepath.Join(t.TempDir(), "victim")
	require.NoError(t, os.WriteFile(victim, []byte("victim"), 0o644))
	for _, name := range names {
		if name != sideDirMark {
			require.NoError(t, os.Remove(filepath.Join(dir, name)))
			require.NoError(t, os.Symlink(victim, filepath.Join(dir, name)))
		}
	}
	code, _, errOut = runCmd(t, "", "lifetime", "--out", dir, path)
	require.Equal(t, ExitOK, code, errOut)
	b, err = os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "victim", string(b))
	for _, name := range names {
		fi, err := os.Lstat(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.True(t, fi.Mode().IsRegular(), name)
	}
}

func TestLifetimeStalenessErrors(t *testing.T) {
	data, err := os.ReadFile(corpusTrace(t, "testStaleness1"))
	require.NoError(t, err)
	for _, format := range []string{"meminsight-staleness", "json"} {
		code, _, errOut := runCmd(t, string(data[:300]), "lifetime", "--format", format, "-")
		assert.Equal(t, ExitFailure, code, format)
		assert.Contains(t, errOut, "<stdin>: lifetime: entry ", format)
		assert.Contains(t, errOut, "byte offset", format)
	}
	code, _, errOut := runCmd(t, "", "lifetime", "--out", "", "x")
	assert.Equal(t, ExitUsage, code)
	assert.Contains(t, errOut, "--out needs a directory")
	// --out onto a file is an error, not a crash.
	f := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(f, nil, 0o644))
	code, _, errOut = runCmd(t, "", "lifetime", "--out", f, corpusTrace(t, "testStaleness1"))
	assert.Equal(t, ExitFailure, code)
	assert.NotEmpty(t, errOut)
}

// TestRetainersGroundTruth: for a program whose retainers are known by
// construction (a global array, a closure's variable, a Map inside an
// object, an event emitter's listener), the summary's most common
// shortest path at the end of each marked site is that retainer, and
// DescribeRetainer says so.
func TestRetainersGroundTruth(t *testing.T) {
	demoSetup(t)
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "retain.js"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "retain.js"), src, 0o644))
	t.Chdir(dir)
	code, _, errOut := runCmd(t, "", "node", "--out", "out", "retain.js")
	require.Equal(t, ExitOK, code, errOut)
	code, out, errOut := runCmd(t, "", "lifetime", "--format", "json", "out")
	require.Equal(t, ExitOK, code, errOut)
	var doc lifetime.Summary
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	// The marked line's innermost site: the one that starts furthest
	// right on it.
	lines := strings.Split(string(src), "\n")
	siteOn := func(mark string) *lifetime.SiteSummary {
		for i, l := range lines {
			if strings.Contains(l, "// site:"+mark) {
				var best *lifetime.SiteSummary
				bestCol := 0
				for j := range doc.Sites {
					s := &doc.Sites[j]
					if file, r, ok := parseSiteRange(s.Site); ok && file == "retain.js" && r[0] == i+1 && r[1] > bestCol {
						best, bestCol = s, r[1]
					}
				}
				return best
			}
		}
		return nil
	}
	truth := map[string]string{
		"array":    "held by `kept` (an array made at retain.js:1:14), a global",
		"closure":  "held by `hold` in the closure of the function at retain.js:5:1, reached from `c`",
		"map":      "held by `registry.byName` (a Map made at retain.js:11:28), a global",
		"listener": "held by `bus` (the listeners of an event emitter made at retain.js:15:13), a global",
	}
	for mark, want := range truth {
		s := siteOn(mark)
		require.NotNil(t, s, mark)
		require.NotEmpty(t, s.Retainers, "%s: %s", mark, s.Site)
		require.Equal(t, want, lifetime.DescribeRetainer(s.Retainers[0].Path), "%s: %s", mark, s.Site)
	}

	// The report's page of each site, read in Chromium, names the same
	// retainer first.
	code, _, errOut = runCmd(t, "", "report", "-o", "retain.html", "out")
	require.Equal(t, ExitOK, code, errOut)
	ctx := reportPage(t, "retain.html", false)
	for mark, want := range truth {
		_, r, _ := parseSiteRange(siteOn(mark).Site)
		route(t, ctx, "#overview", "overview")
		id := evalJSON[int](t, ctx, fmt.Sprintf(`+([...document.querySelectorAll('tr[data-site-id]')].find(tr => {
			const td = tr.querySelector('[data-field=where]');
			return (td.dataset.value ?? td.textContent.trim()).endsWith('retain.js:%d:%d'); })?.dataset.siteId ?? -1)`, r[0], r[1]))
		require.GreaterOrEqual(t, id, 0, "%s: no row of retain.js:%d:%d", mark, r[0], r[1])
		route(t, ctx, fmt.Sprintf("#site/%d", id), fmt.Sprintf("site/%d", id))
		texts := evalJSON[[]string](t, ctx, `[...document.querySelectorAll('.retainer .retainer-text')].map(e => e.textContent.replaceAll('\x60', ''))`)
		require.NotEmpty(t, texts, "%s: no retainer on its page", mark)
		assert.Equal(t, strings.ReplaceAll(want, "`", ""), texts[0], mark)
	}
}
