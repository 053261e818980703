var __memTestDone = false;
var kept = [{ page: true }];
window.addEventListener('message', function (e) {
  document.getElementById('out').textContent = 'frame says ' + e.data;
  setTimeout(function () { __memTestDone = true; }, 300);
});
