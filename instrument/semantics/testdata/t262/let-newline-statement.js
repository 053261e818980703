/*---
description: >
  Where only a Statement may stand (the body of if, else, while, do-while,
  for, for-in, for-of, a labelled statement, with), "let" can only be an
  identifier beginning an expression statement. Followed by a line break and
  a name or "{", it is the statement "let" ended by automatic semicolon
  insertion, and the name or block begins the next statement.
flags: [noStrict]
---*/
var reads = 0;
Object.defineProperty(this, 'let', {
  get: function () { reads += 1; return 'L'; },
  configurable: true
});
var x = 0, n;

if (true) let
x = 1;
assert.sameValue(reads, 1, 'if: the body is let');
assert.sameValue(x, 1, 'if: x = 1 follows the if');

if (false) let // a comment
x = 2;
assert.sameValue(reads, 1, 'if (false): let not read');
assert.sameValue(x, 2, 'if (false): x = 2 runs anyway');

if (false) ; else let
x = 3;
assert.sameValue(reads, 2, 'else');
assert.sameValue(x, 3, 'else: x = 3 follows');

n = 3;
while (n-- > 0) let
x = 4;
assert.sameValue(reads, 5, 'while: the body ran three times');
assert.sameValue(x, 4, 'while: x = 4 ran once');

n = 2;
do let
while (n-- > 0);
assert.sameValue(reads, 8, 'do-while: the body ran three times');

for (n = 0; n < 2; n++) let
x = 5;
assert.sameValue(reads, 10, 'for');
assert.sameValue(x, 5, 'for: x = 5 follows');

for (var k in { a: 1, b: 2 }) let
x = 6;
assert.sameValue(reads, 12, 'for-in');
assert.sameValue(x, 6, 'for-in: x = 6 follows');

for (var v of [1, 2, 3]) let
x = 7;
assert.sameValue(reads, 15, 'for-of');
assert.sameValue(x, 7, 'for-of: x = 7 follows');

outer: inner: let
x = 8;
assert.sameValue(reads, 16, 'labelled');
assert.sameValue(x, 8, 'labelled: x = 8 follows');

var own = 0;
with ({ get let() { own += 1; return 'W'; } }) let
x = 9;
assert.sameValue(own, 1, 'with: let is read from the object');
assert.sameValue(reads, 16, 'with: not from the global');
assert.sameValue(x, 9, 'with: x = 9 follows');

if (false) let
{ x = 11; }
assert.sameValue(x, 11, 'if (false): the block follows the if');

if (true) let /* a comment
  with a line break */ x = 12;
assert.sameValue(reads, 17, 'a comment holding a line break');
assert.sameValue(x, 12, 'x = 12 follows');

for (n = 0; n < 1; n++) let
let;
assert.sameValue(reads, 19, 'let; let;');

if (true) let
var y = 13;
assert.sameValue(y, 13, 'a declaration may follow');
assert.sameValue(reads, 20);
