/*---
description: >
  An expression statement may not begin with "let [", even across a line
  break, and a Statement (here the body of with) is never a declaration.
negative:
  phase: parse
  type: SyntaxError
flags: [noStrict]
---*/
$DONOTEVALUATE();

with ({}) let
[a] = [1];
