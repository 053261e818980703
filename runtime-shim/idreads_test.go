package runtimeshim

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	js "github.com/memtrace/memtrace/instrument/js"
)

// idMissesProgram shows the same use, method-lookup and write sites, and
// so the same id readers (the hook copies go by the object's name), more
// than 16 objects without the id field (regexps and proxies, whose ids
// live in the fallback map; arrays a native made, looked at once)
// between objects that have it, more kinds of object than V8's caches
// keep apart.
const idMissesProgram = `function use(x) { return x.lastIndex !== undefined ? 1 : x.k; }
function call(x) { return x.hasOwnProperty('k') ? 2 : 0; }
function put(x, v) { x.extra = v; return x; }
const kinds = [() => ({ k: 1 }), () => ({ a: 1, k: 2 }), () => [1, 2], () => new Map(), () => ({ b: 1, c: 2, k: 3 }), () => function f() {}];
const kept = [];
let total = 0;
for (let i = 0; i < 200; i++) {
  const plain = kinds[i % kinds.length]();
  const re = new RegExp('a' + (i % 7), 'g');
  const px = new Proxy({ k: i }, {});
  const split = ('p,q,' + i).split(',');
  for (const x of [plain, re, px, split]) {
    total += use(x) | 0;
    total += call(x);
    put(x, i % 3 === 0 ? { i } : i);
  }
  if (i % 10 === 0) kept.push(re, px, split);
}
console.log(total, kept.length, kept[3].extra);
`

// TestOneProbeIdReads: the use and write readers read an id with one probe
// in a try statement, and with two after a reader's 16th miss; every read
// must give the id the two-probe read gives (MEMTRACE_TWO_PROBES=1 reads
// with two from the start), before, at and after the turn: the traces are
// the same bytes.
func TestOneProbeIdReads(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	want := plainRun(t, node, dir, idMissesProgram)
	prog := filepath.Join(dir, "misses.js")
	instrumentFile(t, prog, idMissesProgram, instrument.Options{Goal: js.CommonJS, File: "misses.js"})
	one := run(t, node, shim, prog, nil)
	two := run(t, node, shim, prog, []string{"MEMTRACE_TWO_PROBES=1"})
	for _, r := range []runResult{one, two} {
		if r.exit != 0 || r.stdout != want {
			t.Fatalf("exit %d, output %q (want %q)\n%s", r.exit, r.stdout, want, r.stderr)
		}
	}
	check(t, "misses.js", one.trace)
	sameTrace(t, one.trace, two.trace, "", "one probe", "two probes")
}

// TestIdReadersCounters: each one-probe reader of ids.js counts its misses
// in a slot of its own of tries, inside the array. (A slot past the end
// reads undefined, and that reader silently kept two probes: putGet did.)
func TestIdReadersCounters(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("src", "ids.js"))
	if err != nil {
		t.Fatal(err)
	}
	decl := regexp.MustCompile(`const tries = new \$Int32Array\((\d+)\);`).FindSubmatch(src)
	if decl == nil {
		t.Fatal("the declaration of tries is not in ids.js")
	}
	size, _ := strconv.Atoi(string(decl[1]))
	readers := 0
	seen := map[int]bool{}
	for _, m := range regexp.MustCompile(`if \(tries\[(\d+)\] > 0\) \{ try \{ return o\.#id; \} catch \{ tries\[(\d+)\]--; \} \}`).FindAllSubmatch(src, -1) {
		k, _ := strconv.Atoi(string(m[1]))
		if string(m[1]) != string(m[2]) {
			t.Errorf("a reader tests tries[%s] and counts its miss in tries[%s]", m[1], m[2])
		}
		if k >= size {
			t.Errorf("a reader counts its misses in tries[%d], past the %d slots", k, size)
		}
		if seen[k] {
			t.Errorf("two readers share tries[%d]", k)
		}
		seen[k] = true
		readers++
	}
	// u0..u31, p0..p31, get, useGet, putGet
	if readers != 67 {
		t.Errorf("%d one-probe readers found in ids.js, want 67", readers)
	}
	if got := len(regexp.MustCompile(`tries\[\d+\]`).FindAll(src, -1)); got != 2*readers {
		t.Errorf("%d uses of a slot of tries in ids.js, %d in readers of the form checked", got, 2*readers)
	}
}
