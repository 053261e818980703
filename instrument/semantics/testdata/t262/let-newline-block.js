/*---
description: >
  Where declarations may stand, "let", a line break, then a name is one
  lexical declaration: no semicolon is inserted.
flags: [noStrict]
---*/
{
  let
  x = 1;
  assert.sameValue(x, 1);
}
assert.sameValue(typeof x, 'undefined', 'x was block-scoped');
switch (0) {
  case 0:
    let
    [a, b] = [2, 3];
    assert.sameValue(a + b, 5);
}
