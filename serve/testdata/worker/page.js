// A page with a dedicated worker: the worker builds objects and answers
// with a sum; the page shows it.
var __memTestDone = false;
var w = new Worker('worker.js');
w.onmessage = function (e) {
  document.getElementById('out').textContent = 'sum ' + e.data.sum + ' of ' + e.data.n;
  window.result = e.data;
  setTimeout(function () { __memTestDone = true; }, 300);
};
w.postMessage({ n: 1000 });
