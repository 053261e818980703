/*---
description: >
  The body of for-await-of is a Statement: "let", a line break, then a name
  is the statement "let" (ASI) followed by the name's statement.
flags: [noStrict, async]
features: [async-iteration]
---*/
var reads = 0, x = 0;
Object.defineProperty(this, 'let', {
  get: function () { reads += 1; return 'L'; },
  configurable: true
});

async function* g() {
  for await (var v of [1, 2]) let
  x += 1;
  yield x;
}

g().next().then(function (r) {
  assert.sameValue(reads, 2, 'the body ran twice');
  assert.sameValue(r.value, 1, 'x += 1 ran once, after the loop');
}).then($DONE, $DONE);
