package noderun_test

import "testing"

// assertProgram calls node:assert's assert, ok, strict and strict.ok with
// no message: Node writes the message from the expression it reads in the
// caller's file at the caller's position.
const assertProgram = `const assert = require('assert');
const { ok } = require('node:assert/strict');
const x = { a: 1 };
for (const f of [() => assert(1 > 2), () => assert.ok(x.a === 2, undefined), () => ok(x.b), () => assert.strict(x.a > 5), () => assert(true), () =>
  assert.ok(typeof x === 'string')]) {
  try { f(); console.log('passed'); } catch (e) { console.log(JSON.stringify(e.message), e.generatedMessage); }
}
function deep() { assert.ok(null); }
try { deep(); } catch (e) { console.log(e.stack.split('\n').slice(0, 3).join('|')); }
`

// TestAssertMessages: under memtrace node, assert(value) without a message
// gives the program's expression, as plain node does; its caller was the
// call hook, and the message quoted the shim's code (e(n)). The functions
// are called through trampolines compiled at the program's call, as
// node:test's are (the shim's setCallerSites).
func TestAssertMessages(t *testing.T) {
	needNode(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"as.js": assertProgram})
	plainThenTraced(t, dir, "as.js", "\"The expression evaluated to a falsy value:\\n\\n  assert(1 > 2)\\n\" true\n\"The expression evaluated to a falsy value:\\n\\n  assert.ok(x.a === 2, undefined)\\n\" true\n\"The expression evaluated to a falsy value:\\n\\n  ok(x.b)\\n\" true\n\"The expression evaluated to a falsy value:\\n\\n  assert.strict(x.a > 5)\\n\" true\npassed\n\"The expression evaluated to a falsy value:\\n\\n  assert.ok(typeof x === 'string')\\n\" true\nAssertionError [ERR_ASSERTION]: The expression evaluated to a falsy value:||  assert.ok(null)\n")
}
