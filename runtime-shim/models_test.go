package runtimeshim

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// unseenReadsProgram logs every getter, proxy trap and key conversion
// the program's objects see around the natives the shim models and the
// literals it records: the log must be plain node's, read for read.
const unseenReadsProgram = `const log = [];
const seen = (what) => log.push(what);
const trap = (name) => new Proxy([{ a: 1 }, { b: 2 }, 3], {
  get(t, k, r) { seen(name + ' get ' + String(k)); return Reflect.get(t, k, r); },
  set(t, k, v, r) { seen(name + ' set ' + String(k)); return Reflect.set(t, k, v, r); },
  has(t, k) { seen(name + ' has ' + String(k)); return Reflect.has(t, k); },
  ownKeys(t) { seen(name + ' ownKeys'); return Reflect.ownKeys(t); },
  getOwnPropertyDescriptor(t, k) { seen(name + ' gopd ' + String(k)); return Reflect.getOwnPropertyDescriptor(t, k); },
  deleteProperty(t, k) { seen(name + ' delete ' + String(k)); return Reflect.deleteProperty(t, k); },
  defineProperty(t, k, d) { seen(name + ' define ' + String(k)); return Reflect.defineProperty(t, k, d); },
});
// Literals with accessors under keys the instrumenter writes as 0, "" and
// a computed key: their getters must not run when the literal is made.
const k = 'computed';
const lit = { get 0() { seen('get 0'); return 0; }, get ''() { seen('get empty'); return 1; }, get [k]() { seen('get computed'); return {}; }, set [k + 'S'](v) { seen('set computed'); } };
const arrayLike = { length: 1, get 0() { seen('arrayLike 0'); return 5; } };
seen('max ' + Math.max.apply(null, arrayLike) + ' ' + Reflect.apply(Math.max, null, arrayLike));
// Object.assign onto a setter whose getter throws, from a proxy.
class W { set v(x) { this._v = x; } get v() { throw new Error('write-only'); } }
const w = Object.assign(new W(), { v: { deep: 1 } });
seen('w ' + typeof w._v);
Object.assign({}, new Proxy({ a: { x: 1 }, b: 2 }, {
  ownKeys(t) { seen('src ownKeys'); return Reflect.ownKeys(t); },
  getOwnPropertyDescriptor(t, k) { seen('src gopd ' + k); return Reflect.getOwnPropertyDescriptor(t, k); },
  get(t, k) { seen('src get ' + String(k)); return t[k]; },
}));
Object.assign(trap('assignTarget'), { c: { y: 1 } });
// Array natives on arrays with accessor elements and a getter length, and
// on proxies of arrays.
const acc = [{ a: 1 }, { b: 2 }, { c: 3 }, 4];
Object.defineProperty(acc, 1, { get() { seen('acc get 1'); return { got: 1 }; }, set(v) { seen('acc set 1'); }, configurable: true });
acc.splice(3, 1);
acc.push({ d: 4 });
acc.shift();
acc.unshift({ e: 5 });
acc.concat([{ f: 6 }]);
seen('acc ' + acc.length);
const counter = { get length() { seen('counter length'); return 0; }, set length(v) { seen('counter length = ' + v); } };
Array.prototype.push.call(counter, 'x');
Array.prototype.pop.call(counter);
for (const op of ['push', 'pop', 'shift', 'unshift', 'splice', 'concat']) {
  const p = trap(op);
  if (op === 'splice') p.splice(1, 1, { g: 7 });
  else if (op === 'concat') [{ h: 8 }].concat(p);
  else if (op === 'push' || op === 'unshift') p[op]({ i: 9 });
  else p[op]();
}
// A holey array whose prototype is a proxy, and a setter-only element:
// the models read own elements only, so no trap of the prototype sees a
// hole and no setter runs. The element the native moves to index 8 is
// still an edge.
const holey = [{ k: 1 }, , { k: 3 }];
holey[7] = { k: 7 };
Object.defineProperty(holey, 2, { set(v) { seen('holey set 2'); }, configurable: true });
Object.setPrototypeOf(holey, new Proxy(Array.prototype, {
  getOwnPropertyDescriptor(t, k) { seen('holey gopd ' + String(k)); return Reflect.getOwnPropertyDescriptor(t, k); },
  has(t, k) { seen('holey has ' + String(k)); return Reflect.has(t, k); },
  getPrototypeOf(t) { seen('holey getPrototypeOf'); return Reflect.getPrototypeOf(t); },
}));
Array.prototype.splice.call(holey, 3, 0, 'x');
Array.prototype.shift.call(holey);
Array.prototype.unshift.call(holey, { k: 0 });
seen('holey ' + holey.length);
// Array.from of a subclass whose elements are accessors.
class Odd extends Array { constructor(n) { super(n); Object.defineProperty(this, 0, { get() { seen('odd get 0'); return {}; }, set(v) { seen('odd set 0'); }, configurable: true }); } }
Odd.from([{ j: 1 }]);
// A WeakMap's entries whose elements are getters.
const entry = { get 0() { seen('entry 0'); return w; }, get 1() { seen('entry 1'); return {}; } };
new WeakMap([entry]);
// Object.defineProperty: a descriptor of getters, a proxy descriptor, a
// key converted by its toString, the empty key.
const target = {};
Object.defineProperty(target, 'x', { get value() { seen('desc value'); return { v: 1 }; }, get writable() { seen('desc writable'); return true; } });
Object.defineProperty(target, 'y', new Proxy({ value: {}, enumerable: true }, {
  has(t, k) { seen('pdesc has ' + k); return k in t; },
  get(t, k) { seen('pdesc get ' + k); return t[k]; },
  getOwnPropertyDescriptor(t, k) { seen('pdesc gopd ' + k); return Reflect.getOwnPropertyDescriptor(t, k); },
}));
Object.defineProperty(target, { toString() { seen('key toString'); return 'z'; } }, { value: {} });
Object.defineProperty(target, '', { value: { empty: 1 } });
Object.defineProperty(target, 'g', { get() { return 1; }, configurable: true });
Object.defineProperty(trap('defineTarget'), 'q', { value: {} });
console.log(log.join('\n'));
console.log(Object.keys(target).join(','), Object.getOwnPropertyNames(target).length, lit.computed !== undefined);
`

// TestModelsReadUnseen: the shim's models of natives (Object.assign, the
// array mutators, Array.from, the WeakMap constructor,
// Object.defineProperty) and its literal hook read what a native left
// behind without running the program's getters, proxy traps or key
// conversions: the program's log of them is plain node's. The previous
// shim read the values again (an extra getter call, a trap per element,
// Object.assign's target getter that threw), and the literal hook ran the
// getters of a literal whose first accessor key was 0 or "" or computed.
// The models still log their PUTFIELDs for ordinary objects.
//
// The models tell an own data property from an accessor by
// Object.prototype.__lookupGetter__ where the host has it (Annex B), else
// by its descriptor: both ways, the second with the method deleted before
// the shim loads.
func TestModelsReadUnseen(t *testing.T) {
	plain := plainRun(t, nodeOrSkip(t), t.TempDir(), unseenReadsProgram)
	noAnnexB := filepath.Join(t.TempDir(), "no-annex-b.js")
	if err := os.WriteFile(noAnnexB, []byte("delete Object.prototype.__lookupGetter__;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		env  []string
	}{{"annex B", nil}, {"descriptors", []string{"NODE_OPTIONS=--require=" + noAnnexB}}} {
		puts := putfieldsEnv(t, unseenReadsProgram, "unseen.js", plain, c.env)
		// Object.defineProperty's model, from the property as it now is:
		// the value of a descriptor of getters and of a proxy descriptor,
		// the empty key (left out before), an accessor. Then the array
		// mutators' rewrite of an element the native moved.
		got := " " + strings.Join(puts, " ") + " "
		for _, want := range []string{" x=obj ", " y=obj ", " =obj ", " ~get~g=obj ", " 8=obj "} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: no PUTFIELD %q in%s", c.name, strings.TrimSpace(want), got)
			}
		}
	}
}

// plainRun runs program, written to dir/orig.js, under plain node and
// returns its output, which must come with exit code 0.
func plainRun(t *testing.T, node, dir, program string) string {
	t.Helper()
	orig := filepath.Join(dir, "orig.js")
	if err := os.WriteFile(orig, []byte(program), 0o644); err != nil {
		t.Fatal(err)
	}
	plain, err := exec.Command(node, orig).CombinedOutput()
	if err != nil {
		t.Fatalf("plain: %v\n%s", err, plain)
	}
	return string(plain)
}
