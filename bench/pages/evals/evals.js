// Run-time code for make bench: 200 distinct strings evaluated (each a
// request to the instrument service when traced: none is cached), then
// the same 200 again (cached). window.__elapsed: the first pass, ms;
// window.__again: the second.
var __memTestDone = false;
var __elapsed = 0;
var __again = 0;
var sink = 0;
function pass() {
  var t0 = performance.now();
  for (var i = 0; i < 200; i++) sink += eval('(function (n) { var o = { n: n, s: "v' + i + '" }; return o.n + ' + i + '; })')(i);
  return performance.now() - t0;
}
setTimeout(function () {
  __elapsed = pass();
  __again = pass();
  setTimeout(function () { __memTestDone = true; }, 200);
}, 0);
