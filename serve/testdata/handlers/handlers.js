var __memTestDone = false;
setTimeout(function () {
  document.getElementById('b').click();
  document.getElementById('b').click();
  document.getElementById('j').click();
  document.getElementById('k').click();
  document.getElementById('f').requestSubmit();
  setTimeout(function () {
    window.results = { clicked: window.clicked, viaURL: window.viaURL, viaURL2: window.viaURL2, submitted: window.submitted, handlerText: document.getElementById('b').getAttribute('onclick').length > 0 };
    __memTestDone = true;
  }, 300);
}, 100);
