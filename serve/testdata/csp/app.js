document.getElementById('b').click();
setTimeout(function () { window.results = { inline: !!window.inlineRan, handler: !!window.clicked, app: true }; window.__memTestDone = true; }, 300);
