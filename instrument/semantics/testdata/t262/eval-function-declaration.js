/*---
description: >
  A script's top-level function declaration named eval replaces the global
  object's eval before any of the script runs.
flags: [noStrict]
---*/
function eval(s) {
  return 'own ' + s;
}

assert.sameValue(eval('1 + 1'), 'own 1 + 1', 'direct call');
assert.sameValue((0, eval)('x'), 'own x', 'indirect call');
assert.sameValue(globalThis.eval, eval, 'the global object holds it');
