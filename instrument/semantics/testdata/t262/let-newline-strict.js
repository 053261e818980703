/*---
description: >
  Strict code reserves "let": it cannot be the expression statement that
  sloppy code reads across a line break.
negative:
  phase: parse
  type: SyntaxError
flags: [onlyStrict]
---*/
$DONOTEVALUATE();

if (false) let
x = 1;
