// The worker: objects made and kept, a sum sent back.
var kept = [];
self.onmessage = function (e) {
  var sum = 0;
  for (var i = 0; i < e.data.n; i++) {
    var o = { i: i, sq: i * i };
    kept.push(o);
    sum += o.sq;
  }
  self.postMessage({ sum: sum, n: kept.length });
};
