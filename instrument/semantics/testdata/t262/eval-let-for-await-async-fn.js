/*---
description: >
  A script's top-level "let eval", assigned by an object pattern's default
  in for-await-of in an async function.
flags: [noStrict, async]
features: [async-iteration, destructuring-binding]
---*/
let eval = 'initial';

async function f() {
  for await ({ e: eval = 'default' } of [{}]) {
    assert.sameValue(eval, 'default');
  }
  return eval;
}

f().then(function (v) {
  assert.sameValue(v, 'default');
}).then($DONE, $DONE);
