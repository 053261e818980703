var __memTestDone = false;
var w = new SharedWorker('shared.js');
w.port.onmessage = function (e) {
  document.getElementById('out').textContent = 'shared says ' + e.data.n;
  setTimeout(function () { __memTestDone = true; }, 300);
};
w.port.postMessage({ n: 500 });
