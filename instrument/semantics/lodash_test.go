package semantics

import (
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	js "github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testcorpus"
	"github.com/memtrace/memtrace/trace"
)

// copyTree copies the regular files of src into dst.
func copyTree(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// traceFIFO makes a named pipe for MEMTRACE_OUT and checks whatever is
// written to it with trace.Check, so that a trace of a gigabyte never
// touches the disk. wait returns the report (or nil and an error).
func traceFIFO(t testing.TB, dir string) (path string, wait func() (*trace.Report, error)) {
	t.Helper()
	path = filepath.Join(dir, "mem-trace.fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	var rep *trace.Report
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		var f *os.File
		f, err = os.Open(path) // blocks until the writer opens it
		if err != nil {
			return
		}
		defer f.Close()
		rep, err = trace.Check(f, 5)
		_, _ = io.Copy(io.Discard, f) // never block the writer
	}()
	return path, func() (*trace.Report, error) {
		select {
		case <-done:
		case <-time.After(time.Minute):
			// The writer never opened the pipe: open it ourselves to
			// release the reader.
			if w, e := os.OpenFile(path, os.O_WRONLY, 0); e == nil {
				w.Close()
			}
			<-done
		}
		return rep, err
	}
}

type qunitTotals struct {
	pass, fail, total int
	out               string
}

var qunitTotalsRE = regexp.MustCompile(`PASS: (\d+)\s+FAIL: (\d+)\s+TOTAL: (\d+)`)

func runLodashSuite(t *testing.T, node, dir, lib string, env []string) qunitTotals {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("test", "test.js"), lib)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	res := qunitTotals{pass: -1, out: out.String()}
	m := qunitTotalsRE.FindStringSubmatch(res.out)
	if m == nil {
		t.Errorf("%s: no QUnit totals (%v); output ends:\n%s", lib, err, tail(res.out, 3000))
		return res
	}
	res.pass, _ = strconv.Atoi(m[1])
	res.fail, _ = strconv.Atoi(m[2])
	res.total, _ = strconv.Atoi(m[3])
	return res
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// TestLodash runs lodash's QUnit suite against lodash.js and against
// lodash.js instrumented (CommonJS, shim in front); the totals must agree.
func TestLodash(t *testing.T) {
	node := requireNode(t)
	corpus := testcorpus.Dir(t, "node", "lodash")
	npm := npmDir(t, "qunitjs", "qunit-extras", "lodash")
	// test.js decides what it tests from the path of the build (words
	// such as "es", "node" or "npm" in it select modular builds), and
	// requires ../node_modules/lodash (the stable build): work in a copy
	// under a neutral name with node_modules linked to testdata/npm's.
	dir := filepath.Join(t.TempDir(), "lodash")
	copyTree(t, corpus, dir)
	if err := os.Symlink(filepath.Join(npm, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "lodash.js"))
	if err != nil {
		t.Fatal(err)
	}
	code, err := instrumentSource(src, js.CommonJS, "lodash.js")
	if err != nil {
		t.Fatalf("instrument lodash.js: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lodash.inst.js"), withShim(code), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo, wait := traceFIFO(t, t.TempDir())

	var plain, inst qunitTotals
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); plain = runLodashSuite(t, node, dir, "lodash.js", nil) }()
	go func() {
		defer wg.Done()
		inst = runLodashSuite(t, node, dir, "lodash.inst.js", []string{"MEMTRACE_OUT=" + fifo})
	}()
	wg.Wait()
	rep, err := wait()
	t.Logf("lodash: plain %d passed / %d failed of %d; instrumented %d / %d of %d", plain.pass, plain.fail, plain.total, inst.pass, inst.fail, inst.total)
	if plain.pass < 0 || inst.pass < 0 {
		return
	}
	if plain.fail != 0 {
		t.Errorf("lodash fails plain: %d failed\n%s", plain.fail, tail(plain.out, 3000))
	}
	if inst.pass != plain.pass || inst.fail != plain.fail || inst.total != plain.total {
		addReport("lodash", map[string]any{"plain": plain.out, "instrumented": inst.out})
		t.Errorf("lodash instrumented: %d passed / %d failed of %d, plain %d / %d of %d\n%s", inst.pass, inst.fail, inst.total, plain.pass, plain.fail, plain.total, tail(inst.out, 5000))
	}
	switch {
	case err != nil:
		t.Errorf("lodash trace: %v", err)
	case !rep.OK():
		t.Errorf("lodash trace: %d errors, first %+v", rep.Errors, rep.Findings)
	default:
		t.Logf("lodash trace: sound, %d bytes, logical time %d", rep.Bytes, rep.Time)
	}
}
