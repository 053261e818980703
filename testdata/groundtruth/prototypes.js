'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

// Functions with and without a prototype object: an arrow, an async arrow
// and an async function have none (one object each), a function, a
// generator function and a class have one (two objects each). Half of them
// are kept. (A class's methods are made at the class's site: a class with
// methods would make more objects there than track sees.)
function make(keep) {
  const fs = [];
  fs.push(track('arrow', () => keep));
  fs.push(track('async-arrow', async () => keep));
  fs.push(track('async-function', async function () { return keep; }));
  fs.push(track('function', function () { return keep; }));
  fs.push(track('generator', function* () { yield keep; }));
  fs.push(track('class', class { constructor() { this.k = keep; } }));
  return fs;
}

function main() {
  kept.fs = make(1);
  make(2);
}
main();

report();
