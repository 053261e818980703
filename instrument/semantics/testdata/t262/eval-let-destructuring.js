/*---
description: >
  A script's top-level "let eval", assigned by array and object patterns'
  defaults (an assignment expression and for-of in a generator).
flags: [noStrict]
features: [destructuring-binding, generators]
---*/
let eval = 0;

[eval = 1] = [];
assert.sameValue(eval, 1, 'array pattern');
({ eval = 2 } = {});
assert.sameValue(eval, 2, 'object pattern, shorthand');

function* g() {
  for ([eval = 3] of [[], [4]]) {
    yield eval;
  }
}
var seen = [];
for (var v of g()) seen.push(v);
assert.sameValue(seen.join(), '3,4', 'for-of in a generator');
assert.sameValue(typeof globalThis.eval, 'function', 'the global object keeps its eval');
