document.getElementById('wb').click();
results.p = document.getElementById('w').textContent;
setTimeout(function () { window.__memTestDone = true; }, 300);
