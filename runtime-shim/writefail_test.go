//go:build linux

package runtimeshim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
)

// writeFailProgram writes a few MiB of trace; a write failure that reached
// it would be caught and printed.
const writeFailProgram = `
const keep = [];
let sum = 0;
try {
  for (let i = 0; i < 150000; i++) {
    const o = { i, next: null };
    if (i % 3 === 0) keep.push(o);
    sum += o.i;
  }
} catch (e) {
  console.log("caught", e && e.code, e && e.message);
}
console.log("sum", sum, keep.length);
process.exitCode = 3;
`

// TestTraceWriteFails: a trace file that refuses bytes (a full disk, the
// process's file size limit) ends the trace, not the program: the program
// sees no exception, prints what it prints without the shim and exits
// with its own code; the file keeps the entries written before, whole,
// byte for byte the start of the trace an unlimited run writes; the reason
// goes to MEMTRACE_STATUS (memtrace node: session.json) and standard
// error. Before, the write's exception (ENOSPC) came out of whatever hook
// was writing, into the program. Direct and page cache writes, and
// /dev/full (every write ENOSPC). A trace file that cannot be opened
// leaves the program untraced, where the shim used to throw as it loaded.
func TestTraceWriteFails(t *testing.T) {
	node := nodeOrSkip(t)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("sh: %v", err)
	}
	shim := shimFile(t)
	dir := t.TempDir()
	prog := filepath.Join(dir, "prog.js")
	instrumentFile(t, prog, writeFailProgram, instrument.Options{Goal: js.Script, File: "prog.js"})

	full := run(t, node, shim, prog, nil)
	if full.exit != 3 || !strings.HasPrefix(full.stdout, "sum ") {
		t.Fatalf("unlimited run: exit %d, output %q\n%s", full.exit, full.stdout, full.stderr)
	}
	if len(full.trace) < 4<<20 {
		t.Fatalf("unlimited trace of %d bytes: too small for the limits below", len(full.trace))
	}
	check(t, "unlimited", full.trace)

	type limited struct {
		name   string
		blocks int // RLIMIT_FSIZE in 512-byte blocks (sh's ulimit -f); 0: /dev/full
		env    []string
		reason string
	}
	cases := []limited{
		{"direct 1.5 MiB", 3072, nil, "EFBIG"},
		{"direct 3.3 MB", 6500, nil, "EFBIG"},
		{"page cache 1.5 MiB", 3072, []string{"MEMTRACE_DIRECT=0"}, "EFBIG"},
		{"page cache 3.3 MB", 6500, []string{"MEMTRACE_DIRECT=0"}, "EFBIG"},
		{"/dev/full", 0, nil, "ENOSPC"},
	}
	for _, c := range cases {
		out := filepath.Join(dir, "limited.trace")
		os.Remove(out)
		if c.blocks == 0 {
			out = "/dev/full"
		}
		status := filepath.Join(dir, "status.json")
		os.Remove(status)
		// The limit's signal (SIGXFSZ) ignored, as a shell does for its
		// jobs when told to: the write then fails with EFBIG.
		script := fmt.Sprintf(`trap "" XFSZ; ulimit -f %d; exec "$0" "$@"`, c.blocks)
		if c.blocks == 0 {
			script = `exec "$0" "$@"`
		}
		cmd := exec.Command(sh, "-c", script, node, "-r", shim, prog)
		cmd.Dir = dir
		cmd.Env = append(append(os.Environ(), "MEMTRACE_OUT="+out, "MEMTRACE_STATUS="+status), c.env...)
		var so, se bytes.Buffer
		cmd.Stdout, cmd.Stderr = &so, &se
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if code != 3 || so.String() != full.stdout {
			t.Fatalf("%s: exit %d, output %q; want exit 3, output %q\nstderr: %s", c.name, code, so.String(), full.stdout, se.String())
		}
		if !strings.Contains(se.String(), "memtrace: writing the trace failed ("+c.reason) {
			t.Errorf("%s: standard error does not say why the trace ended: %q", c.name, se.String())
		}
		var st struct {
			Stopped string `json:"stopped"`
		}
		b, err := os.ReadFile(status)
		if err != nil || json.Unmarshal(b, &st) != nil || !strings.Contains(st.Stopped, c.reason) {
			t.Errorf("%s: status file %q (%v): want the reason, %s", c.name, b, err, c.reason)
		}
		if c.blocks == 0 {
			continue
		}
		got := mustRead(t, out)
		limit := c.blocks * 512
		if len(got) == 0 || len(got) > limit || len(got) < limit-(1<<20)-8192 {
			t.Fatalf("%s: %d bytes kept under a limit of %d: want the whole hand-overs (1 MiB each) below the limit", c.name, len(got), limit)
		}
		if !bytes.HasPrefix(full.trace, got) {
			t.Fatalf("%s: the %d bytes kept are not the start of the unlimited trace", c.name, len(got))
		}
		if n := wholeEntries(t, got); n != len(got) {
			t.Fatalf("%s: %d bytes kept, of which %d are whole entries", c.name, len(got), n)
		}
		if !strings.Contains(st.Stopped, fmt.Sprintf("first %d bytes", len(got))) {
			t.Errorf("%s: the reason %q does not give the %d bytes kept", c.name, st.Stopped, len(got))
		}
		check(t, c.name, got)
	}

	// A trace file that cannot be opened: the program runs untraced.
	status := filepath.Join(dir, "status.json")
	os.Remove(status)
	cmd := exec.Command(node, "-r", shim, prog)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MEMTRACE_OUT="+filepath.Join(dir, "no such dir", "mem-trace"), "MEMTRACE_STATUS="+status)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 || so.String() != full.stdout {
		t.Fatalf("unopenable trace file: %v, output %q; want exit 3, output %q\nstderr: %s", err, so.String(), full.stdout, se.String())
	}
	if !strings.Contains(se.String(), "memtrace: the trace file could not be opened (ENOENT") {
		t.Errorf("unopenable trace file: standard error does not say why: %q", se.String())
	}
	if b, err := os.ReadFile(status); err != nil || !bytes.Contains(b, []byte("could not be opened")) {
		t.Errorf("unopenable trace file: status file %q (%v)", b, err)
	}
}
