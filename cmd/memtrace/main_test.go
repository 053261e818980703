package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/trace"
)

// runCmd runs memtrace in-process with the given standard input.
func runCmd(t *testing.T, stdin string, args ...string) (ExitCode, string, string) {
	t.Helper()
	ios, out, errOut := testIO(stdin)
	code := run(args, ios)
	return code, out.String(), errOut.String()
}

func corpusTrace(t *testing.T, name string) string {
	return filepath.Join(testcorpus.Dir(t, "meminsight", "traces"), name+".mem-trace")
}

func TestVersion(t *testing.T) {
	code, out, _ := runCmd(t, "", "version")
	assert.Equal(t, ExitOK, code)
	assert.True(t, strings.HasPrefix(out, "memtrace "), out)

	code, out, _ = runCmd(t, "", "version", "--json")
	assert.Equal(t, ExitOK, code)
	var bi BuildInfo
	require.NoError(t, json.Unmarshal([]byte(out), &bi))
	assert.NotEmpty(t, bi.Version)
	assert.True(t, strings.HasPrefix(bi.Go, "go"))
}

func TestVersionFromLdflags(t *testing.T) {
	old := version
	version = "v9.8.7"
	defer func() { version = old }()
	_, out, _ := runCmd(t, "", "version")
	assert.Contains(t, out, "memtrace v9.8.7")
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"nonsense"},
		{"trace", "nonsense"},
		{"trace", "dump"},
		{"trace", "dump", "a", "b"},
		{"trace", "check"},
		{"trace", "stats", "--bogus", "x"},
		{"trace", "dump", "--limit", "-1", "x"},
		{"version", "extra"},
	} {
		code, out, errOut := runCmd(t, "", args...)
		assert.Equal(t, ExitUsage, code, "%v", args)
		assert.Empty(t, out, "%v", args)
		assert.Contains(t, errOut, "error:", "%v", args)
		assert.Contains(t, errOut, "Usage:", "%v", args)
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := runCmd(t, "", "help")
	assert.Equal(t, ExitOK, code)
	assert.Contains(t, out, "trace")
	code, out, _ = runCmd(t, "", "trace", "check", "--help")
	assert.Equal(t, ExitOK, code)
	assert.Contains(t, out, "last-use-block")
}

func TestDumpCommand(t *testing.T) {
	path := corpusTrace(t, "testRefCount1")
	want, err := os.ReadFile(filepath.Join(testcorpus.Dir(t, "meminsight", "expected-trace"), "testRefCount1.js.expected"))
	require.NoError(t, err)

	code, out, errOut := runCmd(t, "", "trace", "dump", path)
	assert.Equal(t, ExitOK, code, errOut)
	assert.Equal(t, string(want), out)

	// A trace directory means its mem-trace; - means standard input.
	dir := t.TempDir()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mem-trace"), data, 0o644))
	_, out, _ = runCmd(t, "", "trace", "dump", dir)
	assert.Equal(t, string(want), out)
	_, out, _ = runCmd(t, string(data), "trace", "dump", "-")
	assert.Equal(t, string(want), out)

	_, out, _ = runCmd(t, "", "trace", "dump", "--limit", "2", "--offsets", path)
	assert.Equal(t, "0\t0\t-1\t[23,0]\n1\t5\t0\t[1,-1,1]\n", out)
}

func TestDumpMalformed(t *testing.T) {
	data, err := os.ReadFile(corpusTrace(t, "testRefCount1"))
	require.NoError(t, err)
	cut := append(append([]byte{}, data...), 1, 0, 0) // a CREATE_OBJ cut short
	code, out, errOut := runCmd(t, string(cut), "trace", "dump", "-")
	assert.Equal(t, ExitFailure, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	_, full, _ := runCmd(t, string(data), "trace", "dump", "-")
	assert.Equal(t, strings.Count(full, "\n"), len(lines), "every valid entry is printed before the fault")
	assert.Regexp(t, `^error: <stdin>: entry \d+ at byte offset \d+: truncated CREATE_OBJ entry: the stream ends 3 bytes into it\n$`, errOut)

	code, _, errOut = runCmd(t, "", "trace", "dump", filepath.Join(t.TempDir(), "missing"))
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, errOut, "no such file")
}

func TestStatsCommand(t *testing.T) {
	path := corpusTrace(t, "htmlTest3")
	code, out, errOut := runCmd(t, "", "trace", "stats", "--json", path)
	require.Equal(t, ExitOK, code, errOut)
	var st TraceStats
	require.NoError(t, json.Unmarshal([]byte(out), &st))
	data, _ := os.ReadFile(path)
	assert.Equal(t, int64(len(data)), st.Bytes)

	// Recount from the dump, independently of computeStats.
	_, dump, _ := runCmd(t, "", "trace", "dump", path)
	lines := strings.Split(strings.TrimSpace(dump), "\n")
	assert.Equal(t, int64(len(lines)), st.Entries)
	counts := map[string]int64{}
	counted := int64(0)
	for _, l := range lines {
		e, err := trace.ParseText(l)
		require.NoError(t, err)
		counts[e.Kind.String()]++
		if !e.Kind.IsMeta() {
			counted++
		}
	}
	assert.Equal(t, counted-1, st.Time)
	assert.Equal(t, counts["CREATE_DOM_NODE"], st.DOMNodes)
	assert.Equal(t, counts["SCRIPT_ENTER"], st.Scripts)
	total := int64(0)
	for _, k := range st.Kinds {
		assert.Equal(t, counts[k.Kind], k.Count, k.Kind)
		total += k.Bytes
	}
	assert.Equal(t, st.Bytes, total)
	assert.Equal(t, int64(32), st.Objects) // the global object, 29 DOM nodes, a function and its prototype

	code, out, _ = runCmd(t, "", "trace", "stats", path)
	assert.Equal(t, ExitOK, code)
	assert.Regexp(t, `(?m)^\s+logical time\s+78$`, out)
	assert.Regexp(t, `(?m)^\s+CREATE_DOM_NODE \(12\)\s+29\s+261\s+9.00$`, out)
}

func TestCheckCommand(t *testing.T) {
	dir := testcorpus.Dir(t, "meminsight", "traces")
	files, err := filepath.Glob(filepath.Join(dir, "*.mem-trace"))
	require.NoError(t, err)
	require.Len(t, files, 80)

	code, out, errOut := runCmd(t, "", append([]string{"trace", "check"}, files...)...)
	assert.Equal(t, ExitOK, code, errOut)
	assert.Equal(t, 80, strings.Count(out, ": ok:"))
	// The two getter-name traces carry a warning, which --strict turns into failure.
	assert.Equal(t, 2, strings.Count(errOut, "warning:"))
	code, _, _ = runCmd(t, "", "trace", "check", "--strict", corpusTrace(t, "testRefCount21"))
	assert.Equal(t, ExitFailure, code)

	code, out, _ = runCmd(t, "", "trace", "check", "--json", files[0], files[1])
	assert.Equal(t, ExitOK, code)
	var res []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.Len(t, res, 2)
	assert.Equal(t, true, res[0]["ok"])
}

func TestCheckCommandFindings(t *testing.T) {
	data, err := os.ReadFile(corpusTrace(t, "testRefCount1"))
	require.NoError(t, err)
	// Append an exit with no matching enter.
	bad := append(append([]byte{}, data...), 7, 0, 0, 0, 9)
	code, out, errOut := runCmd(t, string(bad), "trace", "check", "-")
	assert.Equal(t, ExitFailure, code)
	assert.Contains(t, out, "<stdin>: FAILED: ")
	assert.Contains(t, errOut, "<stdin>: entry ")
	assert.Contains(t, errOut, "FUNCTION_EXIT without a matching FUNCTION_ENTER or CALL [balance]")
	assert.NotContains(t, errOut, "\x1b[", "no colour when not a terminal")

	code, out, _ = runCmd(t, string(bad), "trace", "check", "--json", "-")
	assert.Equal(t, ExitFailure, code)
	var res []struct {
		OK       bool
		Findings []struct {
			Index, Offset  int64
			Rule, Severity string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &res))
	require.NotEmpty(t, res[0].Findings)
	assert.False(t, res[0].OK)
	assert.Equal(t, int64(len(data)), res[0].Findings[0].Offset)
	assert.Equal(t, "balance", res[0].Findings[0].Rule)
	assert.Equal(t, "error", res[0].Findings[0].Severity)
}

func TestColour(t *testing.T) {
	ios, _, errOut := testIO("")
	ios.errTTY = true
	run([]string{"trace", "check", filepath.Join(t.TempDir(), "missing")}, ios)
	assert.Contains(t, errOut.String(), ansiRed, "colour on a terminal")

	ios, _, errOut = testIO("")
	ios.errTTY, ios.noColor = true, true
	run([]string{"trace", "check", filepath.Join(t.TempDir(), "missing")}, ios)
	assert.NotContains(t, errOut.String(), "\x1b[", "NO_COLOR turns colour off")
}

func TestEncodeCommand(t *testing.T) {
	html := filepath.Join(testcorpus.Dir(t, "meminsight", "programs", "html", "htmlTest5"), "mem-trace.expected")
	out := filepath.Join(t.TempDir(), "mem-trace")
	code, _, errOut := runCmd(t, "", "trace", "encode", html, "-o", out)
	require.Equal(t, ExitOK, code, errOut)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	want, err := os.ReadFile(corpusTrace(t, "htmlTest5"))
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, got))

	code, stdout, _ := runCmd(t, "[23,0]\n\n[1,-1,1]\n", "trace", "encode", "-")
	assert.Equal(t, ExitOK, code)
	assert.Equal(t, "\x17\x00\x00\x00\x00\x01\xff\xff\xff\xff\x00\x00\x00\x01", stdout)
	// -o - is standard output too, and leaves no file named "-".
	t.Chdir(t.TempDir())
	code, stdout, _ = runCmd(t, "[23,0]\n\n[1,-1,1]\n", "trace", "encode", "-", "-o", "-")
	assert.Equal(t, ExitOK, code)
	assert.Equal(t, "\x17\x00\x00\x00\x00\x01\xff\xff\xff\xff\x00\x00\x00\x01", stdout)
	assert.NoFileExists(t, "-")

	code, stdout, errOut = runCmd(t, "[23,0]\n[1,-1\n", "trace", "encode", "-", "-o", filepath.Join(t.TempDir(), "x"))
	assert.Equal(t, ExitFailure, code)
	assert.Empty(t, stdout)
	assert.Contains(t, errOut, "<stdin>:2:6: expected ','")
}

// TestTraceCompact: memtrace trace compact writes a sound, smaller trace
// whose RC output (no times in it) equals the full trace's, reports what it
// left out, and refuses to run without -o or on a bad trace.
func TestTraceCompact(t *testing.T) {
	src := filepath.Join(testcorpus.Dir(t, "meminsight", "traces"), "testRefCount36.mem-trace")
	out := filepath.Join(t.TempDir(), "c")
	code, _, errOut := runCmd(t, "", "trace", "compact", src, "-o", out)
	require.Equal(t, ExitCode(0), code, errOut)
	require.Contains(t, errOut, "flushes left out")
	full, err := os.ReadFile(src)
	require.NoError(t, err)
	compact, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Less(t, len(compact), len(full))
	code, _, errOut = runCmd(t, "", "trace", "check", out)
	require.Equal(t, ExitCode(0), code, errOut)
	_, rcFull, _ := runCmd(t, "", "lifetime", "--format", "meminsight", src)
	_, rcCompact, _ := runCmd(t, "", "lifetime", "--format", "meminsight", out)
	// Unreachability rows print times; the RC lines at debug calls do not.
	rcLines := func(s string) (l []string) {
		for _, line := range strings.Split(s, "\n") {
			if strings.Contains(line, ": RC(") {
				l = append(l, line)
			}
		}
		return l
	}
	require.NotEmpty(t, rcLines(rcFull))
	require.Equal(t, rcLines(rcFull), rcLines(rcCompact))

	// -o -: the same bytes on standard output, no file named "-"; never to
	// a terminal.
	t.Chdir(t.TempDir())
	code, stdout, errOut := runCmd(t, "", "trace", "compact", src, "-o", "-")
	require.Equal(t, ExitCode(0), code, errOut)
	require.Contains(t, errOut, "flushes left out")
	require.Equal(t, string(compact), stdout)
	require.NoFileExists(t, "-")
	ios, tout, errBuf := testIO("")
	ios.outTTY = true
	require.Equal(t, ExitUsage, run([]string{"trace", "compact", src, "-o", "-"}, ios))
	require.Empty(t, tout.String())
	require.Contains(t, errBuf.String(), "refusing to write a binary trace to a terminal")

	code, _, _ = runCmd(t, "", "trace", "compact", src)
	require.NotEqual(t, ExitCode(0), code)
	bad := filepath.Join(t.TempDir(), "bad")
	require.NoError(t, os.WriteFile(bad, full[:len(full)-3], 0o644))
	x := filepath.Join(t.TempDir(), "x")
	code, _, errOut = runCmd(t, "", "trace", "compact", bad, "-o", x)
	require.NotEqual(t, ExitCode(0), code)
	require.Contains(t, errOut, bad)
	_, err = os.Stat(x)
	require.True(t, os.IsNotExist(err), "a failed compaction leaves no output")
}

// TestInstrumentServerFIFOErrors: the instrument-server's FIFO flags
// refuse what they cannot serve, each with its reason, and make nothing.
func TestInstrumentServerFIFOErrors(t *testing.T) {
	open := t.TempDir()
	require.NoError(t, os.Chmod(open, 0o755))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"instrument-server", "--idle-ms", "5"}, "--idle-ms is for a server on FIFOs"},
		{[]string{"instrument-server", "--fifo", t.TempDir(), "--idle-ms", "-1"}, "not a duration"},
		{[]string{"instrument-server", "--fifo", open}, "not a private directory"},
		{[]string{"instrument-server", "--fifo", "a", "--fifo-serve", "b"}, "none of the others can be"},
	} {
		code, out, errOut := runCmd(t, "", c.args...)
		assert.NotEqual(t, ExitOK, code, "%v", c.args)
		assert.Empty(t, out, "%v", c.args)
		assert.Contains(t, errOut, c.want, "%v", c.args)
	}
	ents, err := os.ReadDir(open)
	require.NoError(t, err)
	assert.Empty(t, ents)
}
