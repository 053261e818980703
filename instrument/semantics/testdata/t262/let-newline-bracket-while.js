/*---
description: >
  An expression statement may not begin with "let [", even across a line
  break, and a Statement (here the body of while) is never a declaration.
negative:
  phase: parse
  type: SyntaxError
flags: [noStrict]
---*/
$DONOTEVALUATE();

while (false) let
[a] = [1];
