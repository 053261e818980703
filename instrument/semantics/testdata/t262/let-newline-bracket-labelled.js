/*---
description: >
  An expression statement may not begin with "let [", even across a line
  break, and a Statement (here the body of labelled) is never a declaration.
negative:
  phase: parse
  type: SyntaxError
flags: [noStrict]
---*/
$DONOTEVALUATE();

lbl: let
[a] = [1];
