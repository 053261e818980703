'use strict';
// Ground-truth program (see README.md; track, kept and report: harness/gt.js).
// Each track call is on its own line and its argument is the only
// allocation on that line.
const { track, kept, report } = require('./harness/gt.js');

// Top-level bindings of a CommonJS module are locals of the module wrapper
// function: V8 keeps those that a closure captures (in the module's
// context) and drops the others when the wrapper returns.
const captured = track('module-local-captured', { c: 1 });
const uncaptured = track('module-local-uncaptured', { u: 1 });
function use() { return captured.c; }
kept.use = use;
report();
