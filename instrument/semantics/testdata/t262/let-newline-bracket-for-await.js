/*---
description: >
  An expression statement may not begin with "let [", even across a line
  break, and the body of for-await-of is never a declaration.
negative:
  phase: parse
  type: SyntaxError
flags: [noStrict]
features: [async-iteration]
---*/
$DONOTEVALUATE();

async function* g() {
  for await (var v of []) let
  [a] = [1];
}
