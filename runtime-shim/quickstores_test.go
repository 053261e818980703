package runtimeshim

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/memtrace/memtrace/instrument"
	"github.com/memtrace/memtrace/instrument/js"
	"github.com/memtrace/memtrace/internal/testswitch"
)

// elementWritesProgram writes elements every way the elision rule tells
// apart: appends and overwrites of arrays without edges, a hole filled,
// primitives over an object element and over a primitive one of an array
// with edges, typed arrays in range and past the end, string and symbol
// keys, an index inherited from a prototype object, a setter on the chain
// and an own one, frozen arrays (sloppy: nothing; strict: a TypeError),
// primitive bases and an object key; in a loop too. tail and tt are last
// used by an elided write (Pu's use).
const elementWritesProgram = `const out = [];
const a = [];
for (let i = 0; i < 4; i++) a[i] = i;
for (let i = 0; i < 4; i++) a[i] = i * 2;
const holes = [1, , 3];
holes[1] = 2;
const mixed = [{}, 1];
mixed[0] = 5; mixed[1] = 6; mixed[2] = 7;
const ta = new Float64Array(2);
ta[0] = 1.5; ta[5] = 2; ta["1"] = 3;
const o = {};
o["k"] = 1; o["k"] = 2; o[Symbol.iterator] = 3;
const base = [0, 1], child = Object.create(base);
child[0] = 9;
const proto = {}; let seen = 0;
Object.defineProperty(proto, 3, { set(v) { seen += v; } });
const viaSetter = Object.create(proto);
viaSetter[3] = 4;
const own = []; Object.defineProperty(own, 0, { set(v) { seen += v; }, configurable: true });
own[0] = 5;
const frozen = Object.freeze([1, 2]);
(function () {
  'use strict';
  try { frozen[0] = 3; } catch (e) { out.push(e.constructor.name); }
  try { const s = 'str'; s[0] = 'x'; } catch (e) { out.push(e.constructor.name); }
})();
try { frozen[1] = 4; out.push('sloppy'); } catch (e) { out.push('threw'); }
const str = 'str'; str[0] = 'x';
const key = { toString() { out.push('key'); return 'z'; } };
o[key] = 8;
const tail = [0, 0], tt = new Int8Array(1);
tail[1] = 2; tt[0] = 1;
out.push(a.join(), holes.join(), mixed[1], ta.join(), o.k, child[0], seen, frozen.join(), o.z);
console.log(out.join(' '));
`

// TestProgramElementStoresSameTrace: element writes that the program
// performs itself when the shim finds them elided (Pq, Pu, Pm) write the
// same trace as those that go through P (testswitch NoCopies, which keeps
// P for every write).
func TestProgramElementStoresSameTrace(t *testing.T) {
	node := nodeOrSkip(t)
	shim := shimFile(t)
	dir := t.TempDir()
	const want = "TypeError TypeError sloppy key 0,2,4,6 1,2,3 6 1.5,3 2 9 9 1,2 8\n"
	var traces [2][]byte
	for k, no := range []bool{false, true} {
		prog := filepath.Join(dir, strconv.Itoa(k)+"e.js")
		code := instrumentSwitched(t, prog, elementWritesProgram, instrument.Options{Goal: js.CommonJS, File: "e.js"}, testswitch.Switches{NoCopies: no})
		if n := strings.Count(string(code), ".Pq"); no && n != 0 || !no && n < 15 {
			t.Fatalf("NoCopies=%v: %d calls of Pq", no, n)
		}
		got := run(t, node, shim, prog, nil)
		if got.exit != 0 || got.stdout != want {
			t.Fatalf("NoCopies=%v: exit %d, output %q, want %q\n%s", no, got.exit, got.stdout, want, got.stderr)
		}
		check(t, "e.js", got.trace)
		traces[k] = got.trace
	}
	sameTrace(t, traces[0], traces[1], "", "the program's stores", "P's")
}
