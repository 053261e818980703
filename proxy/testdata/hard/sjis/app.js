var greeting = { text: '富士山は高い' };
window.results.external = greeting.text;
window.results.codes = Array.prototype.map.call(greeting.text, function (c) { return c.charCodeAt(0); });
window.__memTestDone = true;
