var policy = trustedTypes.createPolicy('app', { createHTML: function (s) { return s; } });
var box = document.getElementById('box');
box.innerHTML = policy.createHTML('<b>trusted</b><i>html</i>');
var raw;
try { box.innerHTML = '<u>raw</u>'; raw = 'allowed'; } catch (e) { raw = e.name; }
window.results = { html: box.innerHTML, children: box.children.length, raw: raw };
window.__memTestDone = true;
