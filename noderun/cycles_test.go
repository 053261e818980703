package noderun_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// cycleModules: ES modules in import cycles. Node evaluates a module's
// dependencies first, so b.mjs runs before a.mjs, which it imports: it
// calls a's function declarations (one with hooks in its parameter list,
// an async function, a generator, the default export) and keeps one in a
// table (its value before a's body has run, as svelte's compiler does),
// all before a's body has run. c.mjs and d.mjs form a second cycle entered
// from its other side.
var cycleModules = map[string]string{
	"package.json": `{"type": "module"}`,
	"main.mjs": `import { run, later } from './a.mjs';
import './c.mjs';
console.log(run(2), later());
`,
	"a.mjs": `import { early, table } from './b.mjs';
export function twice(x, opts = { by: 2 }, [first] = [x]) { return { v: x * opts.by + first - x }; }
export async function slow(x) { await null; return [x, 'slow']; }
export function* gen(n) { for (let i = 0; i < n; i++) yield { i }; }
export default function (tag) { return 'default ' + tag; }
function inner(o) { return o.v + 1; }
export function viaInner(x) { return inner(twice(x)); }
export function run(x) { return early + ':' + twice(x).v + ':' + table.fn(5).v; }
export function later() { return typeof table.fn + ' ' + [...gen(2)].length; }
console.log('a runs', early);
`,
	"b.mjs": `import dflt, { twice, slow, gen, viaInner } from './a.mjs';
export const table = { fn: twice, all: [twice, slow, gen, dflt] };
const g = gen(3);
export const early = [twice(3).v, twice(1, { by: 10 }).v, viaInner(4), dflt('b'), g.next().value.i, [...g].length].join(',');
slow(7).then((r) => console.log('slow', r.join(' ')));
console.log('b runs', early);
`,
	"c.mjs": `import { d } from './d.mjs';
export function c(n) { return n <= 0 ? 'c' : d(n - 1); }
console.log('c runs', c(3));
`,
	"d.mjs": `import { c } from './c.mjs';
export function d(n) { return n <= 0 ? 'd' : c(n - 1); }
console.log('d runs', d(4));
`,
}

// TestModuleCycles: functions of an ES module that another module of an
// import cycle calls (or keeps) before the module's body has run behave
// as in plain node, under memtrace node and instrumented ahead of time
// (the module's handle is set by the function, not only by its body:
// ModuleInit); the function is created (CREATE_FUN) before it is entered,
// so the trace keeps every rule.
func TestModuleCycles(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, cycleModules)
	plain := exec.Command("node", "main.mjs")
	plain.Dir = dir
	want, err := plain.CombinedOutput()
	require.NoError(t, err, "%s", want)
	require.Contains(t, string(want), "b runs 6,10,9,default b,0,2")

	// memtrace node: every module instrumented as it loads; then
	// instrumented ahead of time, run by plain node. Clean traces: no
	// activation left open (a generator's call entered).
	got, errOut, out := memtraceNode(t, dir, "main.mjs", nil)
	require.Equal(t, string(want), got+errOut)
	cleanTrace(t, filepath.Join(out, "mem-trace"))
	got, errOut, tr := runAhead(t, dir, "main.mjs")
	require.Equal(t, string(want), got+errOut)
	cleanTrace(t, tr)
}
