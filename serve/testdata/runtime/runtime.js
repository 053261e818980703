// Run-time code in a page: eval, indirect eval, new Function, a string
// timer; its results, and Function.prototype.toString of what it made.
var __memTestDone = false;
var results = {};
var kept = [];
(function () {
  var local = 5;
  results.direct = eval('var made = { v: local }; kept.push(made); made.v + 1');
  results.indirect = (0, eval)('kept.push({ g: 1 }); typeof local');
  var f = new Function('a', 'b', 'var o = { sum: a + b }; kept.push(o); return o.sum;');
  results.fn = f(2, 3);
  results.fnText = f.toString();
  var g = eval('(function named(x) { return { x: x }; })');
  kept.push(g(7));
  results.evalFnText = g.toString();
  try {
    eval('1 +');
  } catch (e) {
    results.syntax = e instanceof SyntaxError;
  }
})();
setTimeout("kept.push({ timer: true }); results.timer = kept.length;", 0);
setTimeout(function () { __memTestDone = true; }, 100);
