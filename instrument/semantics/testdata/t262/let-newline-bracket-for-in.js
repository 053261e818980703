/*---
description: >
  An expression statement may not begin with "let [", even across a line
  break, and a Statement (here the body of for-in) is never a declaration.
negative:
  phase: parse
  type: SyntaxError
flags: [noStrict]
---*/
$DONOTEVALUATE();

for (var k in null) let
[a] = [1];
