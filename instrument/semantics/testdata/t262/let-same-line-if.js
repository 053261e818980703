/*---
description: >
  "let" and a name on one line in a Statement's place is a lexical
  declaration, which a Statement cannot be.
negative:
  phase: parse
  type: SyntaxError
flags: [noStrict]
---*/
$DONOTEVALUATE();

if (false) let x = 1;
