'use strict';
// Verdict suite (README.md): an object pool reuses a bounded set of buffers
// (not a leak, though idle buffers wait unused in the pool); a queue of
// pending jobs that is drained is not a leak; a list of results that only
// grows is.
const free = [];
function acquire() {
  return free.length > 0 ? free.pop() : { data: new Array(8).fill(0) }; // verdict: not leaking
}
function release(b) { free.push(b); }

const queue = [];
const results = [];

let i = 0;
function step() {
  const held = [];
  for (let k = 0; k < 1 + (i % 5); k++) held.push(acquire());
  for (const b of held) { b.data[0] = i; release(b); }
  queue.push({ job: i }); // verdict: not leaking
  if (queue.length > 3) queue.shift();
  results.push({ step: i, n: held.length }); // verdict: leaking
  if (++i < 300) setImmediate(step);
  else console.log(free.length, queue.length, results.length);
}
step();
