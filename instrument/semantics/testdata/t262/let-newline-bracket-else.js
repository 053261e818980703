/*---
description: >
  An expression statement may not begin with "let [", even across a line
  break, and a Statement (here the body of else) is never a declaration.
negative:
  phase: parse
  type: SyntaxError
flags: [noStrict]
---*/
$DONOTEVALUATE();

if (true) ; else let
[a] = [1];
