package noderun_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// stackColumnFiles print the positions of stack frames (caller and callee)
// for the operations whose position the engine reports differently from
// the start of the expression: calls by name, methods (also on a call's
// result and across lines), computed and optional calls, new, getters and
// setters, tagged templates, property reads that throw, an element write
// that throws (the program's own store, instrument.quickElement), method
// lookups that throw or run a getter (the program's own lookup,
// instrument.appendLookup); in a CommonJS
// module, an ES module, vm scripts and a function body compiled in a
// context, and run-time code (a function constructor's function, indirect
// and direct eval: their eval origins too); with non-ASCII text before the
// call (columns count UTF-16 units), a program's prepareStackTrace that
// calls the one it replaced, and the names V8 infers for anonymous
// functions stored by member assignments ("at o.m", "at new C.make").
var stackColumnFiles = map[string]string{
	"main.js": `'use strict';
const pos = () => { const l = new Error().stack.split('\n')[3]; return l.match(/:(\d+):(\d+)\)?$/).slice(1).join(':'); };
const out = [];
const o = { m() { return pos(); }, get g() { return pos(); }, set s(v) { out.push('set ' + pos()); }, k: { m() { return pos(); } } };
function f() { return pos(); }
function C() { this.c = pos(); }
const ret = () => o;
out.push('call ' + f());
out.push('mcall ' + o.m());
out.push('mcall-sp ' + o . m ());
out.push('mcall-deep ' + o.k.m());
out.push('mcall-ret ' + ret().m());
out.push('mcall-lines ' + ret()
  .m());
out.push('ccall ' + o['m']());
out.push('new ' + new C().c);
out.push('new-noargs ' + (new C).c);
out.push('getter ' + o.g);
out.push('getter-ret ' + ret().g);
o.s = 1;
out.push('paren ' + (f)());
out.push('tagged ' + f` + "`x`" + `);
out.push('opt ' + o?.m());
out.push('optc ' + f?.());
out.push('callapply ' + f.call(null));
out.push('spread ' + f(...[1]));
out.push('super ' + new (class extends C { constructor() { super(); } })().c);
out.push('ünïcødé ' + f() + ' ' + o.m());
try { null.x; } catch (e) { out.push('nullprop ' + e.stack.split('\n')[1].match(/:(\d+):(\d+)\)?$/).slice(1).join(':')); }
try { o.nope(); } catch (e) { out.push('notfn ' + e.stack.split('\n')[1].match(/:(\d+):(\d+)\)?$/).slice(1).join(':')); }
try { throw new TypeError('t'); } catch (e) { out.push('throw ' + e.stack.split('\n')[1].match(/:(\d+):(\d+)\)?$/).slice(1).join(':')); }
const und = () => undefined;
try { und().call(1); } catch (e) { out.push('load-on-call ' + e.stack.split('\n')[1].match(/:(\d+):(\d+)\)?$/).slice(1).join(':')); }
try { o.k.nope.call(1); } catch (e) { out.push('load ' + e.stack.split('\n')[1].match(/:(\d+):(\d+)\)?$/).slice(1).join(':')); }
const at = (e, k) => e.stack.split('\n')[k].match(/:(\d+):(\d+)\)?$/).slice(1).join(':');
let nil;
try { nil.m(); } catch (e) { out.push('mlookup ' + at(e, 1)); }
try { nil['m'](1); } catch (e) { out.push('mlookup-computed ' + at(e, 1)); }
try { und().m(); } catch (e) { out.push('mlookup-on-call ' + at(e, 1)); }
try { und()
  .m(); } catch (e) { out.push('mlookup-lines ' + at(e, 1)); }
try { nil.t` + "`x`" + `; } catch (e) { out.push('mlookup-tag ' + at(e, 1)); }
const gm = { get m() { throw new Error('g'); } };
try { gm.m(); } catch (e) { out.push('mlookup-getter ' + at(e, 1) + ' ' + at(e, 2)); }
try { gm['m'](); } catch (e) { out.push('mlookup-getter-computed ' + at(e, 2)); }
const fz = Object.freeze([1, 2]), ta = new Int8Array(2), ix = 1;
ta[ix] = 5; fz[0] !== 1 || ta[1] !== 5 || out.push('typed ' + ta[ix]);
try { fz[ix] = 3; } catch (e) { out.push('frozen-store ' + e.stack.split('\n')[1].match(/:(\d+):(\d+)\)?$/).slice(1).join(':')); }
const prev = Error.prepareStackTrace;
Error.prepareStackTrace = function (e, s) { return 'chained ' + s.slice(0, 2).map((c) => c.getLineNumber() + ':' + c.getColumnNumber()).join(' ') + ' ' + prev(e, s).split('\n')[1].trim(); };
out.push({ m() { return new Error('c').stack; } }.m());
Error.prepareStackTrace = prev;
const vm = require('vm');
out.push(vm.runInThisContext('const v1 = { m() { return new Error().stack.split("\\n")[2]; } };\nv1.m() + " " + [1].map(\n  () => new Error().stack.split("\\n")[1])[0]', { filename: __dirname + '/script.js' }).replace(/\(.*[\\/]/g, '('));
const ctx = vm.createContext({});
const body = vm.compileFunction('const w = { m() { return new Error().stack.split("\\n").slice(1, 3).join(" "); } };\nreturn w\n  .m();', [], { filename: __dirname + '/body.js', parsingContext: ctx });
out.push(body().replace(/\(.*?[\\/]body/g, '(body'));
const where = () => new Error().stack.split('\n')[2].trim().split(' (')[0];
const n = { k: {} };
n.b = () => where();
n.k.c = function () { return where(); };
module.exports.d = function () { return where(); };
function Foo() {} Foo.prototype.e = function () { return where(); }; Foo.f = function () { return where(); };
n.g = (function () { return where(); });
const bound = n.k.c.bind(n);
const Cls = {}; Cls.make = function () { this.v = where(); };
out.push([n.b(), n.k.c(), module.exports.d(), new Foo().e(), Foo.f(), n.g(), bound(), new Cls.make().v, [0].map(n.b)[0]].join(' | '));
function makeTemplate() { return new Function('obj', 'let s = "";\ns += obj.a.b;\nreturn s;'); }
try { makeTemplate()({}); } catch (e) { out.push(e.stack.split('\n').slice(1, 3).join(' ')); }
out.push((0, eval)('function ev1() { return new Error().stack.split("\\n").slice(1, 3).join(" "); }\nev1()'));
function de(x) { return eval('[x].map(() => new Error().stack.split("\\n").slice(1, 3).join(" "))[0]'); }
out.push(de(1));
console.log(out.join('\n'));
import('./esm.mjs').then((m) => console.log(m.default));
`,
	"esm.mjs": `const pos = () => new Error().stack.split('\n').slice(2, 4).map(l => l.replace(/.*[\\/]/, '')).join(' | ');
const o = { m() { return pos(); } };
function f() { return pos(); }
class K { constructor() { this.p = pos(); } }
export default [o.m(), f(), [1].map(() => pos())[0], new K().p].join('\n');
`,
}

// TestStackColumns: stack frames in instrumented code name the lines and
// columns plain node names (position maps, instrument/posmap.go: the shim
// asks for a script's map when it formats a frame in it), under memtrace
// node: in CommonJS and ES modules and in code given to vm.
func TestStackColumns(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, stackColumnFiles)
	want, code := plainRun(t, dir, "main.js")
	require.Equal(t, 0, code)
	require.Contains(t, want, "mcall-lines 14:4\n")
	require.Contains(t, want, "chained ")
	got, _, _ := memtraceNode(t, dir, "main.js", nil)
	require.Equal(t, want, got)
}

// TestStackColumnsTypeScript: frames in TypeScript run by memtrace node
// (esbuild's output, instrumented) name the TypeScript source's lines and
// columns, where type syntax esbuild removed shifts them (as node's own
// type stripping gives them): the position map composed with esbuild's
// source map. CommonJS (.ts) and an ES module (.mts).
func TestStackColumnsTypeScript(t *testing.T) {
	needNode(t)
	src := `interface Pt { x: number; y: number }
class Shape {
  constructor(public pts: Pt[], private label: string = 'shape') {}
  area(): number { return this.pts.reduce((a: number, p: Pt) => a + p.x * p.y, 0); }
  where(): string { return new Error('w').stack!.split('\n')[1].trim(); }
}
function fail(n: number): never { throw new RangeError(` + "`bad ${n as number}`" + `); }
const s: Shape = new Shape([{ x: 1, y: 2 }, { x: 3, y: 4 }]);
console.log(s.area(), s.where());
try { fail(3); } catch (e) { console.log((e as Error).stack!.split('\n').slice(0, 3).join(' | ')); }
`
	for _, name := range []string{"app.ts", "app.mts"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{name: src})
			out, _, _ := memtraceNode(t, dir, name, nil)
			require.Contains(t, out, name+":5:28)\n")                   // new Error, after "(): string"
			require.Contains(t, out, name+":7:41) | ")                  // new RangeError, after "(n: number): never"
			require.Regexp(t, regexp.QuoteMeta(name)+`:10:7\)?\n`, out) // fail(3)
			require.True(t, strings.HasPrefix(out, "14 at Shape.where ("), out)
		})
	}
}
