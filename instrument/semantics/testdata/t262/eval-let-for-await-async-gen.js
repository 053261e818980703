/*---
description: >
  A script's top-level "let eval" is a global lexical binding: every script
  of the realm that names eval reads it, and in the binding's temporal dead
  zone that is a ReferenceError. Destructuring in for-await-of in an async
  generator assigns it (and the generator's arguments) from defaults.
flags: [noStrict, async]
features: [async-iteration, destructuring-binding]
---*/
let eval;
var rounds = 0;

async function* g() {
  for await ([arguments = 'A', eval = 'E'] of [[]]) {
    assert.sameValue(arguments, 'A', 'arguments');
    assert.sameValue(eval, 'E', 'eval');
    rounds += 1;
  }
}

g().next().then(function () {
  assert.sameValue(rounds, 1, 'one round');
  assert.sameValue(eval, 'E', 'the global lexical eval was assigned');
}).then($DONE, $DONE);
