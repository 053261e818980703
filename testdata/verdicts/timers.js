'use strict';
// Verdict suite (README.md): timeouts cleared before they fire, their
// handles forgotten, and timeouts that fire are not leaks; intervals started
// and never cleared are, with what their callbacks capture (unref'd, so
// that the process still ends).

function schedule(n) {
  const job = { n, retries: 0 }; // verdict: not leaking
  const t = setTimeout(() => { job.retries++; }, 60000);
  clearTimeout(t);
  const soon = { n }; // verdict: not leaking
  setTimeout(() => soon.n, 0);
}

function poll(n) {
  const target = { n, hits: 0 }; // verdict: leaking
  setInterval(() => { target.hits++; }, 3600000).unref(); // verdict: leaking
}

let i = 0;
function step() {
  schedule(i);
  poll(i);
  if (++i < 300) setImmediate(step);
  else console.log(i);
}
step();
