/*---
description: >
  An expression statement may not begin with "let [", even across a line
  break, and a Statement (here the body of for-of) is never a declaration.
negative:
  phase: parse
  type: SyntaxError
flags: [noStrict]
---*/
$DONOTEVALUATE();

for (var v of []) let
[a] = [1];
