package runtimeshim

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fieldEdgesProgram writes primitives over properties of objects that
// hold edges: over a property that holds an object (the edge must go),
// over one that holds a primitive (elided), over one that once held an
// object, over a setter, over a function's prototype (an edge its
// CREATE_FUN implies), and through the hook copies (o.p) and the keyed
// path (o[k]); past the shim's 16,384 key numbers (the loop's names), a
// name without a number (zzLate) still has its edge removed.
const fieldEdgesProgram = `'use strict';
class Node { constructor(v) { this.v = v; this.next = null; this.count = 0; } }
const a = new Node(1), b = new Node(2);
a.next = b;
a.count = 5;
a.next = null;
a.next = 7;
a.count = 6;
a.extra = 1;
const k = "next";
a[k] = b;
a[k] = 0;
const o = { get g() { return 1; }, set g(x) {}, h: {}, n: 1 };
o.g = 3;
o.n = 2;
o.h = 0;
function F() {}
F.prototype = 5;
F.prototype = 6;
const many = [];
for (let i = 0; i < 17000; i++) { const m = { ["f" + i]: {}, p: i }; m["f" + i] = i; m.p = -i; many.push(m); }
const late = { zzLate: {} };
late.zzLate = 0;
console.log(a.next, a.count, o.n, F.prototype, many.length);
`

// TestFieldEdges: with the field-edge table (mayHoldEdge), a primitive
// written over an own property of an object that holds edges is elided
// without reading its descriptor when the trace holds no edge from that
// property, and logged (PUTFIELD 0) when it does: every PUTFIELD of the
// program, in order, as MemInsight's rule gives it.
func TestFieldEdges(t *testing.T) {
	var puts []string
	fObj, fZero, push := 0, 0, 0
	for _, p := range putfields(t, fieldEdgesProgram, "fe.js", "0 6 2 6 17000\n") {
		name, val, _ := strings.Cut(p, "=")
		switch {
		case strings.Trim(name, "0123456789") == "": // many.push(m)
			push++
		case len(name) > 1 && name[0] == 'f' && strings.Trim(name[1:], "0123456789") == "":
			if val == "0" {
				fZero++
			} else {
				fObj++
			}
		default:
			puts = append(puts, name+"="+val)
		}
	}
	want := []string{
		"v=0", "next=0", "count=0", "__proto__=obj", // a's construction: new properties
		"v=0", "next=0", "count=0", "__proto__=obj", // b's
		"next=obj",           // a.next = b
		"next=0",             // a.next = null: the edge goes (a.count = 5 elided)
		"extra=0",            // a new property (a.next = 7, a.count = 6 elided)
		"next=obj", "next=0", // a[k] = b; a[k] = 0
		"~get~g=obj", "~set~g=obj", "h=obj", // o's literal (n: a primitive)
		"h=0",                    // o.h = 0 (o.g = 3 reached the setter, o.n = 2 elided)
		"prototype=0",            // F.prototype = 5, over the edge F's CREATE_FUN implies (= 6 elided)
		"zzLate=obj", "zzLate=0", // late's literal; late.zzLate = 0, a name without a key number
	}
	if strings.Join(puts, " ") != strings.Join(want, " ") {
		t.Errorf("PUTFIELDs:\n got %s\nwant %s", strings.Join(puts, " "), strings.Join(want, " "))
	}
	// The loop: each literal's f<i> edge, then its removal; p never logged.
	if fObj != 17000 || fZero != 17000 || push != 17000 {
		t.Errorf("loop: %d f<i> edges, %d removed, %d pushes; want 17000 of each", fObj, fZero, push)
	}
}

// newPropsProgram (sloppy) writes new properties: a setter on the
// prototype, a getter without setter, a read-only inherited property, an
// object that takes no new property, and plain new properties.
const newPropsProgram = `var proto = { set s(v) { this._s = v; }, get g() { return 1; } };
Object.defineProperty(proto, "ro", { value: 1, writable: false });
var o = Object.create(proto);
o.s = {};
o.g = {};
o.ro = {};
o.n = {};
var fz = Object.preventExtensions({});
fz.x = {};
o.n2 = 5;
console.log(typeof o._s, o.g, o.ro, fz.x, typeof o.n, o.n2);
`

// TestNewPropertyWrites: a write of a property o does not own logs a
// PUTFIELD when it made one (the write tells, instead of the prototype
// chain's descriptors): nothing for a setter's write (whose own write
// logs), for a getter's or a read-only property's (the write fails), nor
// for an object that takes no new property.
func TestNewPropertyWrites(t *testing.T) {
	puts := putfields(t, newPropsProgram, "np.js", "object 1 1 undefined object 5\n")
	// proto's accessors and its read-only property (defineProperty); o's
	// prototype (Object.create: docs/natives.md); the setter's own write;
	// then o.n and o.n2. MemInsight's rule, which looks for an accessor on
	// the chain, also logged o.ro = {} and fz.x = {}: edges the failed
	// writes did not make.
	want := "~set~s=obj ~get~g=obj ro=0 __proto__=obj _s=obj n=obj n2=0"
	if strings.Join(puts, " ") != want {
		t.Errorf("PUTFIELDs:\n got %s\nwant %s", strings.Join(puts, " "), want)
	}
}

// typedWritesProgram writes to typed arrays under numbers (in range, past
// the end, negative, fractional, NaN, -0), primitives and an object, by
// a string key, after an edge of a named property, to a subclass' and to
// a BigInt array (a TypeError); and, for contrast, to a DataView and an
// array, whose numeric keys are ordinary properties.
const typedWritesProgram = `'use strict';
const ta = new Int32Array(4);
ta[0] = 1; ta[9] = 2; ta[-1] = 3; ta[1.5] = 4; ta[NaN] = 5; ta[-0] = 6;
ta[1] = { valueOf() { return 7; } };
ta.meta = {};
ta[2] = 8; ta["3"] = 9; ta[3] = 10;
class Bytes extends Uint8Array {}
const b = new Bytes(2);
b[1] = 300; b[5] = 1;
let err = '';
try { new BigInt64Array(1)[0] = 1; } catch (e) { err = e.constructor.name; }
const dv = new DataView(new ArrayBuffer(8));
dv[0] = 1;
const arr = [];
arr[2] = 1;
console.log(Array.from(ta).join(), Object.keys(ta).join(), b[1], b.length, err, dv[0], arr.length);
`

// TestTypedArrayWrites: a primitive written to a typed array under a
// number (putRead's shortcut, by the ids create marks) logs nothing, as
// every write to an element or past the end did through the descriptor;
// an object written there, a string key, a named property, a DataView's
// and an array's numeric keys take the full rule.
func TestTypedArrayWrites(t *testing.T) {
	puts := putfields(t, typedWritesProgram, "ta.js", "6,7,8,10 0,1,2,3,meta 44 2 TypeError 1 3\n")
	// the literal's method, ta[1] = {...}, ta.meta, the DataView's buffer
	// (docs/natives.md), dv[0], arr[2]
	want := "valueOf=obj 1=obj meta=obj ~buffer~=obj 0=0 2=0"
	if strings.Join(puts, " ") != want {
		t.Errorf("PUTFIELDs:\n got %s\nwant %s", strings.Join(puts, " "), want)
	}
}

// putfields runs program instrumented as CommonJS with the real shim,
// checks its output and its trace, and gives its PUTFIELDs in order as
// "name=obj" or "name=0".
func putfields(t *testing.T, program, file, stdout string) []string {
	t.Helper()
	return putfieldsEnv(t, program, file, stdout, nil)
}

// putfieldsEnv is putfields with more environment variables for node.
func putfieldsEnv(t *testing.T, program, file, stdout string, env []string) []string {
	t.Helper()
	got := runCJS(t, program, file, stdout, env)
	var puts []string
	for _, line := range strings.Split(strings.TrimSpace(dump(t, got.trace)), "\n") {
		var e []any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if e[0].(float64) == 3 {
			val := "obj"
			if e[4].(float64) == 0 {
				val = "0"
			}
			puts = append(puts, e[3].(string)+"="+val)
		}
	}
	return puts
}

// TestSiteStores: named writes find their stores in a direct-mapped cache
// by site (siteStore); 10,000 sites of 5,000 names, run twice, share its
// 4,096 slots, and every write must still reach its own name, sloppy and
// strict alike.
func TestSiteStores(t *testing.T) {
	var b strings.Builder
	b.WriteString("function sloppy(o) {\n")
	for k := 0; k < 2500; k++ {
		fmt.Fprintf(&b, "  o.p%d = {}; o.p%d = %d;\n", k, k, k)
	}
	b.WriteString("}\nfunction strict(o) {\n  'use strict';\n")
	for k := 2500; k < 5000; k++ {
		fmt.Fprintf(&b, "  o.p%d = {}; o.p%d = %d;\n", k, k, k)
	}
	b.WriteString(`}
const o = {};
for (let r = 0; r < 2; r++) { sloppy(o); strict(o); }
let sum = 0, n = 0;
for (const k in o) { n++; if (o[k] !== +k.slice(1)) throw new Error(k); sum += o[k]; }
const f = Object.freeze({ p1: 1 });
try { strict(f); console.log('no error'); } catch (e) { console.log(e instanceof TypeError); }
sloppy(f);
console.log(n, sum, f.p1);
`)
	puts := putfields(t, b.String(), "stores.js", "true\n5000 12497500 1\n")
	var want []string
	for r := 0; r < 2; r++ {
		for k := 0; k < 5000; k++ {
			want = append(want, fmt.Sprintf("p%d=obj", k), fmt.Sprintf("p%d=0", k))
		}
	}
	// sloppy(f): the frozen object's own p1 is written as MemInsight's
	// writer logs it (a write that failed); p0, not its own, is not.
	want = append(want, "p1=obj")
	var got []string
	for _, p := range puts {
		if name, _, _ := strings.Cut(p, "="); len(name) > 1 && name[0] == 'p' && strings.Trim(name[1:], "0123456789") == "" {
			got = append(got, p)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d PUTFIELDs of p…, want %d (last %v)", len(got), len(want), got[max(0, len(got)-3):])
	}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("PUTFIELD %d: %s, want %s", k, got[k], want[k])
		}
	}
}

// TestTypedArrayTag: the shim finds %TypedArray%.prototype[@@toStringTag]'s
// getter, which marks typed arrays for putRead's shortcut, also when the
// program removed the global Symbol before the shim loaded (lodash's suite
// does); without it the shortcut would be silently off.
func TestTypedArrayTag(t *testing.T) {
	node := nodeOrSkip(t)
	dir := srcModules(t, "natives")
	script := `
const want = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), Symbol.toStringTag).get;
if (process.argv[2] === 'nosymbol') delete globalThis.Symbol;
const { typedArrayTag: g } = await import('./natives.mjs');
const f = Function.prototype.call.bind(Function.prototype.call);
console.log(g === want, f(g, new Float64Array(1)), f(g, new DataView(new ArrayBuffer(1))), f(g, []), f(g, {}));
`
	if err := os.WriteFile(filepath.Join(dir, "tag.mjs"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"", "nosymbol"} {
		out, err := exec.Command(node, filepath.Join(dir, "tag.mjs"), mode).CombinedOutput()
		if err != nil || string(out) != "true Float64Array undefined undefined undefined\n" {
			t.Errorf("%q: %v: %s", mode, err, out)
		}
	}
}
