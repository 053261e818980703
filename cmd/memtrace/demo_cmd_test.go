package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/memtracebin"
	"github.com/memtrace/memtrace/internal/testcorpus"
)

// demoSetup skips (fails under CI=true) without node and points the Node
// preload at a built memtrace (this test binary is not one).
func demoSetup(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		testcorpus.Missing(t, "node not found")
	}
	t.Setenv("MEMTRACE_TEST_BIN", memtracebin.Path(t))
}

// positionOf returns the 1-based line and column of the first occurrence
// of text in src.
func positionOf(t *testing.T, src []byte, text string) (int, int) {
	t.Helper()
	i := bytes.Index(src, []byte(text))
	require.GreaterOrEqual(t, i, 0, "%q not in the program", text)
	line := bytes.Count(src[:i], []byte("\n")) + 1
	col := i - (bytes.LastIndexByte(src[:i], '\n') + 1) + 1
	return line, col
}

func demoJSON(t *testing.T, out string) demoReport {
	t.Helper()
	var rep demoReport
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	return rep
}

// siteAt finds the report's site that starts at line:col.
func siteAt(rep demoReport, line, col int) *demoSite {
	for i := range rep.Top {
		if rep.Top[i].Line == line && rep.Top[i].Col == col {
			return &rep.Top[i]
		}
	}
	return nil
}

// The rendered page (renderPage's object literal) is what the memoize
// cache keeps for good.
const demoLeakText = "{ status: 200, body:"

// TestDemoFindsTheLeak: memtrace demo runs the embedded service and puts
// the render cache's page first, leaking, at its file:line:col, while the
// sites that allocate more but release their objects are not leaking.
func TestDemoFindsTheLeak(t *testing.T) {
	demoSetup(t)
	dir := filepath.Join(t.TempDir(), "demo")
	code, out, errOut := runCmd(t, "", "demo", "--out", dir, "--json", "--top", "8")
	require.Equal(t, ExitOK, code, errOut)
	rep := demoJSON(t, out)

	line, col := positionOf(t, demoServer, demoLeakText)
	require.NotEmpty(t, rep.Top)
	top := rep.Top[0]
	assert.Equal(t, filepath.Join(dir, "program", "server.js"), top.File)
	assert.Equal(t, [2]int{line, col}, [2]int{top.Line, top.Col}, "%+v", rep.Top)
	assert.True(t, top.Leaking)
	assert.Contains(t, top.Source, demoLeakText)
	assert.Equal(t, 1, rep.Totals.LeakingSites)
	// 20 batches of 25 requests: one page per request, none released.
	assert.Equal(t, "served 500 requests (15900 bytes) to 7 users", rep.Output)
	assert.EqualValues(t, 500, top.Allocated)
	assert.EqualValues(t, 500, top.MaxStale)

	// The report discriminates: the rows of every page (4 per request) and
	// the access log's entries are allocated as much or more, and released.
	rl, rc := positionOf(t, demoServer, "{ cell:")
	rows := siteAt(rep, rl, rc)
	require.NotNil(t, rows, "%+v", rep.Top)
	assert.EqualValues(t, 2000, rows.Allocated)
	assert.False(t, rows.Leaking)
	assert.Less(t, rows.MaxStale, int64(10))
	ll, lc := positionOf(t, demoServer, "{ id: req.id, path")
	log := siteAt(rep, ll, lc)
	require.NotNil(t, log, "%+v", rep.Top)
	assert.False(t, log.Leaking)
	assert.LessOrEqual(t, log.MaxLive, int64(11))

	// The trace directory: program, trace, session, summary.
	for _, name := range []string{"mem-trace", "session.json", "summary.json", "program/server.js", "program/package.json"} {
		assert.FileExists(t, filepath.Join(dir, name))
	}
	assert.Equal(t, "complete", rep.Session.Status)
	// The saved summary is what memtrace lifetime prints for the trace.
	saved, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	require.NoError(t, err)
	code, again, errOut := runCmd(t, "", "lifetime", "--format", "json", dir)
	require.Equal(t, ExitOK, code, errOut)
	assert.Equal(t, string(saved), again)
	code, _, errOut = runCmd(t, "", "trace", "check", dir)
	assert.Equal(t, ExitOK, code, errOut)

	// The text report: the leaking site's row first, then its frame.
	code, text, errOut := runCmd(t, "", "demo", "--out", dir)
	require.Equal(t, ExitOK, code, errOut)
	where := fmt.Sprintf("%s:%d:%d", filepath.Join(dir, "program", "server.js"), line, col)
	rowRE := regexp.MustCompile(`(?m)^\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)(.*)$`)
	rowsText := rowRE.FindAllStringSubmatch(text, -1)
	require.NotEmpty(t, rowsText, text)
	assert.Equal(t, where, rowsText[0][4], text)
	assert.Equal(t, "  LEAKING", rowsText[0][5], text)
	assert.Contains(t, text, "1. "+where+"  leaking")
	assert.Contains(t, text, fmt.Sprintf("   %d | %s\n", line, strings.Split(string(demoServer), "\n")[line-1]))
	assert.Contains(t, text, "memtrace trace stats "+dir)
	assert.Equal(t, 1, strings.Count(text, "LEAKING"), text)
	// What holds the leaked values: the render cache's Map, in memoize's
	// closure.
	mline, mcol := positionOf(t, demoServer, "new Map();\n  return function")
	fline, fcol := positionOf(t, demoServer, "function memoize(")
	file := filepath.Join(dir, "program", "server.js")
	assert.Contains(t, text, fmt.Sprintf("   held by `cache` (a Map made at %s:%d:%d) in the closure of the function at %s:%d:%d, reached from `cachedRender`", file, mline, mcol, file, fline, fcol), text)
}

// TestDemoFixed: with the cache keyed by page, the same site makes one
// object per page, nothing leaks, and the page site is no longer first.
func TestDemoFixed(t *testing.T) {
	demoSetup(t)
	dir := filepath.Join(t.TempDir(), "demo")
	code, out, errOut := runCmd(t, "", "demo", "--out", dir, "--json", "--fixed", "--top", "50")
	require.Equal(t, ExitOK, code, errOut)
	rep := demoJSON(t, out)
	assert.True(t, rep.Fixed)
	assert.Equal(t, 0, rep.Totals.LeakingSites)
	line, col := positionOf(t, demoServer, demoLeakText)
	require.NotEmpty(t, rep.Top)
	assert.NotEqual(t, [2]int{line, col}, [2]int{rep.Top[0].Line, rep.Top[0].Col})
	page := siteAt(rep, line, col)
	require.NotNil(t, page, "%+v", rep.Top)
	assert.False(t, page.Leaking)
	assert.EqualValues(t, 5, page.Allocated) // one per path
	src, err := os.ReadFile(filepath.Join(dir, "program", "server.js"))
	require.NoError(t, err)
	assert.Contains(t, string(src), demoFix)
	assert.NotContains(t, string(src), demoBug)

	code, text, errOut := runCmd(t, "", "demo", "--out", dir, "--fixed")
	require.Equal(t, ExitOK, code, errOut)
	assert.NotContains(t, text, "LEAKING")
	assert.Contains(t, text, "0 leaking sites")
}

// TestDemoFollowsTheProgram: the report is computed from what ran. With
// the render cache fixed and the access log's bound removed, the log's
// entry becomes the leaking site, first.
func TestDemoFollowsTheProgram(t *testing.T) {
	demoSetup(t)
	const bound = "  if (accessLog.length > 10) accessLog.shift();\n"
	require.Equal(t, 1, bytes.Count(demoServer, []byte(bound)))
	prog := bytes.Replace(demoServer, []byte(bound), nil, 1)
	prog = bytes.Replace(prog, []byte(demoBug), []byte(demoFix), 1)

	dir := filepath.Join(t.TempDir(), "demo")
	ios, out, errOut := testIO("")
	var opts *demoOptions
	cmd := newCmdDemo(ios, func(o *demoOptions) error { opts = o; return nil })
	cmd.SetArgs([]string{"--out", dir, "--json"})
	require.NoError(t, cmd.Execute())
	opts.program = prog
	require.NoError(t, demoRun(opts), errOut.String())
	rep := demoJSON(t, out.String())

	line, col := positionOf(t, prog, "{ id: req.id, path")
	require.NotEmpty(t, rep.Top)
	assert.Equal(t, [2]int{line, col}, [2]int{rep.Top[0].Line, rep.Top[0].Col}, "%+v", rep.Top)
	assert.True(t, rep.Top[0].Leaking)
	assert.EqualValues(t, 500, rep.Top[0].MaxStale)
	assert.Equal(t, 1, rep.Totals.LeakingSites)
}

func TestDemoErrors(t *testing.T) {
	code, _, errOut := runCmd(t, "", "demo", "--node", filepath.Join(t.TempDir(), "no-node"), "--out", filepath.Join(t.TempDir(), "d"))
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, "install Node.js")

	// A directory with other files is never written into.
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644))
	code, _, errOut = runCmd(t, "", "demo", "--out", dir)
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, "notes.txt")
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, ents, 1)

	code, _, errOut = runCmd(t, "", "demo", "extra")
	assert.Equal(t, ExitUsage, code, errOut)
	code, _, errOut = runCmd(t, "", "demo", "--top", "0")
	assert.Equal(t, ExitUsage, code, errOut)
}

// quickStart returns the commands of the README's Quick start block.
func quickStart(t *testing.T) []string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(testcorpus.Root(), "README.md"))
	require.NoError(t, err)
	_, after, ok := strings.Cut(string(readme), "## Quick start")
	require.True(t, ok)
	_, block, ok := strings.Cut(after, "```sh\n")
	require.True(t, ok)
	block, _, ok = strings.Cut(block, "```")
	require.True(t, ok)
	return strings.Split(strings.TrimSpace(block), "\n")
}

// TestReadmeQuickStart: the README's first command, run as written in a
// copy of the repository's files (what a fresh clone holds), prints the
// demo's report with the leaking site first; the second is what CI runs.
func TestReadmeQuickStart(t *testing.T) {
	cmds := quickStart(t)
	require.Len(t, cmds, 2)
	ci, err := os.ReadFile(filepath.Join(testcorpus.Root(), ".ci", "run"))
	require.NoError(t, err)
	for _, part := range strings.Split(cmds[1], " && ") {
		assert.Contains(t, string(ci), "\n"+part+"\n", "the README's test command differs from .ci/run")
	}
	if testing.Short() {
		t.Skip("builds memtrace from a copy of the repository")
	}
	if _, err := exec.LookPath("node"); err != nil {
		testcorpus.Missing(t, "node not found")
	}
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			testcorpus.Missing(t, tool+" not found")
		}
	}

	// The tracked files, as they are in the work tree.
	root := testcorpus.Root()
	ls, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	require.NoError(t, err)
	clone := filepath.Join(t.TempDir(), "memtrace")
	for _, name := range strings.Split(strings.TrimRight(string(ls), "\x00"), "\x00") {
		src := filepath.Join(root, name)
		fi, err := os.Lstat(src)
		if os.IsNotExist(err) {
			continue // deleted, not yet committed
		}
		require.NoError(t, err)
		if !fi.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(src)
		require.NoError(t, err)
		dst := filepath.Join(clone, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		require.NoError(t, os.WriteFile(dst, data, fi.Mode().Perm()))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	sh := exec.CommandContext(ctx, "sh", "-c", cmds[0])
	sh.Dir = clone
	var stdout, stderr bytes.Buffer
	sh.Stdout, sh.Stderr = &stdout, &stderr
	require.NoError(t, sh.Run(), "%s\n%s", cmds[0], stderr.String())
	text := stdout.String()

	line, col := positionOf(t, demoServer, demoLeakText)
	where := fmt.Sprintf("memtrace-demo/program/server.js:%d:%d", line, col)
	_, table, ok := strings.Cut(text, "  stale  live  alloc  site\n")
	require.True(t, ok, text)
	first, _, _ := strings.Cut(table, "\n")
	assert.True(t, strings.HasSuffix(first, where+"  LEAKING"), "first row %q\n%s", first, text)
	assert.FileExists(t, filepath.Join(clone, "memtrace-demo", "mem-trace"))
}

// TestFailOnLeaking: memtrace lifetime --fail-on leaking is a verdict a
// build can fail on: exit 1 on the demo's trace, naming the render
// cache's site, and 0 on the fixed demo's; its output is the format's
// as without it.
func TestFailOnLeaking(t *testing.T) {
	leaky, fixed := demoPair(t)
	line, col := positionOf(t, demoServer, demoLeakText)

	code, out, errOut := runCmd(t, "", "lifetime", "--format", "json", "--fail-on", "leaking", leaky)
	require.Equal(t, ExitFailure, code, errOut)
	require.Contains(t, errOut, "1 leaking site (--fail-on leaking)")
	require.Contains(t, errOut, fmt.Sprintf("server.js:%d:%d:", line, col))
	_, plain, _ := runCmd(t, "", "lifetime", "--format", "json", leaky)
	require.Equal(t, plain, out, "--fail-on changed the output")

	code, _, errOut = runCmd(t, "", "lifetime", "--fail-on", "leaking", fixed)
	require.Equal(t, ExitOK, code, errOut)
	code, _, errOut = runCmd(t, "", "lifetime", "--fail-on", "growing", fixed)
	require.Equal(t, ExitUsage, code, errOut)
}

// TestLifetimeTextNamesTheRetainer: memtrace lifetime without flags
// prints for a person: the demo's leaking site first, in words, its
// code frame from where the program ran, and what holds its objects:
// the render cache's Map.
func TestLifetimeTextNamesTheRetainer(t *testing.T) {
	demoSetup(t)
	dir := filepath.Join(t.TempDir(), "demo")
	code, _, errOut := runCmd(t, "", "demo", "--out", dir)
	require.Equal(t, ExitOK, code, errOut)
	code, text, errOut := runCmd(t, "", "lifetime", dir)
	require.Equal(t, ExitOK, code, errOut)
	line, col := positionOf(t, demoServer, demoLeakText)
	mline, mcol := positionOf(t, demoServer, "new Map();\n  return function")
	wd, err := os.Getwd()
	require.NoError(t, err)
	file, err := filepath.Rel(wd, filepath.Join(dir, "program", "server.js"))
	require.NoError(t, err)
	assert.Contains(t, text, fmt.Sprintf("1. %s:%d:%d  leaking", file, line, col), text)
	assert.Contains(t, text, fmt.Sprintf("   held by `cache` (a Map made at %s:%d:%d) in the closure", file, mline, mcol), text)
	assert.Contains(t, text, fmt.Sprintf("   %d | %s\n", line, strings.Split(string(demoServer), "\n")[line-1]), text)
	assert.Contains(t, text, "1 leaking site")
	assert.Equal(t, 1, strings.Count(text, "LEAKING"), text)
}

// TestLifetimeBaseline: the demo against demo --fixed: the site that grew
// most is the leaking one, leaking now and not then.
func TestLifetimeBaseline(t *testing.T) {
	leaky, fixed := demoPair(t)
	code, text, errOut := runCmd(t, "", "lifetime", "--baseline", fixed, leaky)
	require.Equal(t, ExitOK, code, errOut)
	line, col := positionOf(t, demoServer, demoLeakText)
	i := strings.Index(text, "Against "+fixed+": ")
	require.GreaterOrEqual(t, i, 0, text)
	rows := regexp.MustCompile(`(?m)^\s+(\d+) → (\d+)\s+(\d+) → (\d+)\s+(\S+)(.*)$`).FindAllStringSubmatch(text[i:], -1)
	require.NotEmpty(t, rows, text[i:])
	assert.True(t, strings.HasSuffix(rows[0][5], fmt.Sprintf("server.js:%d:%d", line, col)), rows[0][0])
	assert.Equal(t, "  LEAKING now", rows[0][6], rows[0][0])
	assert.Equal(t, "500", rows[0][2], rows[0][0])

	// Against itself nothing grew; and only the text format compares.
	code, text, errOut = runCmd(t, "", "lifetime", "--baseline", leaky, leaky)
	require.Equal(t, ExitOK, code, errOut)
	assert.Contains(t, text, "0 sites that grew")
	code, _, _ = runCmd(t, "", "lifetime", "--format", "json", "--baseline", fixed, leaky)
	assert.Equal(t, ExitUsage, code)
}

// demoPair runs the demo and the fixed demo into trace directories of
// the test's and returns them.
func demoPair(t *testing.T) (leaky, fixed string) {
	t.Helper()
	demoSetup(t)
	leaky, fixed = filepath.Join(t.TempDir(), "demo"), filepath.Join(t.TempDir(), "fixed")
	code, _, errOut := runCmd(t, "", "demo", "--out", leaky)
	require.Equal(t, ExitOK, code, errOut)
	code, _, errOut = runCmd(t, "", "demo", "--out", fixed, "--fixed")
	require.Equal(t, ExitOK, code, errOut)
	return leaky, fixed
}
