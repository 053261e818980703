/*---
description: >
  An expression statement may not begin with "let [", even across a line
  break, and a Statement (here the body of do) is never a declaration.
negative:
  phase: parse
  type: SyntaxError
flags: [noStrict]
---*/
$DONOTEVALUATE();

do let
[a] = [1];
while (false);
