// A compute-heavy page for make bench: trees of objects built and walked,
// arrays sorted, strings joined, a few hundred milliseconds plain; the
// time it takes is window.__elapsed (ms), then window.__memTestDone.
var __memTestDone = false;
var __elapsed = 0;
function Node(left, right, value) {
  this.left = left;
  this.right = right;
  this.value = value;
}
function build(depth, v) {
  return depth === 0 ? new Node(null, null, v) : new Node(build(depth - 1, 2 * v), build(depth - 1, 2 * v + 1), v);
}
function sum(n) {
  return n === null ? 0 : n.value + sum(n.left) + sum(n.right);
}
function work() {
  var total = 0;
  for (var round = 0; round < 10; round++) {
    total += sum(build(12, round));
    var a = [];
    for (var i = 0; i < 2000; i++) a.push({ k: (i * 7919) % 2003, s: 'item' + i });
    a.sort(function (x, y) { return x.k - y.k; });
    total += a[0].k + a.map(function (x) { return x.s; }).join(',').length;
  }
  return total;
}
setTimeout(function () {
  var t0 = performance.now();
  var r = work();
  __elapsed = performance.now() - t0;
  document.getElementById('out').textContent = String(r);
  setTimeout(function () { __memTestDone = true; }, 200);
}, 0);
