package noderun_test

import "testing"

// evalValueProgram prints the values of evals whose completion value
// comes from a directive or from code the instrumenter does not wrap in
// try (function declarations that a var of the same name contradicts),
// and runs asm.js modules, in a file and in eval code: instrumented code
// is never valid asm.js, and V8 warns ("Invalid asm.js", a process
// warning) where the program ran silently unless the directive is
// spelled so that V8 does not take it for asm.js.
const evalValueProgram = `let warnings = 0;
process.on('warning', (w) => { warnings++; console.log('warning:', w.message); });
const values = [
  eval('"use strict"'), eval("'a'; 'b'"), eval('1; "x"'), eval('"use strict"; 5'), (0, eval)('"d"'),
  eval('"a";;'), eval("'a'; var q1 = 1;"), eval("'s'; let q2 = {}; const q3 = [];"), eval('"x\\u2028y"'),
  eval('function f1() {} var f1 = 1; 3'), eval('"use strict"; function g1() {} function g1() {} 4'),
  eval('var h1; function h1() {} "x"'), eval("'dir'; var h2; function h2() {}"), eval('function h3() {} var h3'),
  (0, eval)("'ind'; var h4; function h4() {}"), eval(''), eval('var q4 = 1'), new Function('"use strict"')(),
  eval('if (true) 7'), eval('do ; while (false)\n8'), eval('try { 9 } finally { }'),
];
console.log(JSON.stringify(values), typeof q1, typeof q2, typeof f1, typeof h2);
function M(stdlib, foreign, heap) {
  "use asm";
  var H32 = new stdlib.Int32Array(heap);
  function f(x) { x = x | 0; H32[0] = x; return H32[0] | 0; }
  return { f: f };
}
const src = 'function E(stdlib, foreign, heap) {\n  \'use asm\';\n  var H8 = new stdlib.Uint8Array(heap);\n' +
  '  function g(i) { i = i | 0; return H8[i >> 0] | 0; }\n  return { g: g };\n}\nE';
const E = (0, eval)(src);
console.log(M(globalThis, {}, new ArrayBuffer(0x10000)).f(41), E(globalThis, {}, new ArrayBuffer(0x10000)).g(3),
  M.toString().split('\n')[1], E.toString().split('\n')[1]);
process.on('exit', () => console.log('warnings', warnings));
`

// TestEvalValueAndAsm: evals keep their completion values, and asm.js
// modules run without V8's warning, as in plain node.
func TestEvalValueAndAsm(t *testing.T) {
	runDifferential(t, "evalvalue.js", evalValueProgram)
}
