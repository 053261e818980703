// Code a page sets at run time: a handler attribute, a classic script
// element with its text (alone and inside a fragment), a module one.
var __memTestDone = false;
var results = {};
var b = document.createElement('button');
b.setAttribute('onclick', 'results.handler = { n: (results.handler ? results.handler.n : 0) + 1, id: this.id }; return false;');
b.id = 'dyn';
document.getElementById('box').appendChild(b);
b.click();
b.click();
var s = document.createElement('script');
s.text = 'results.classic = { made: [1, 2, 3].map(function (x) { return { x: x }; }).length };';
document.body.appendChild(s);
var frag = document.createDocumentFragment();
var div = document.createElement('div');
var s2 = document.createElement('script');
s2.textContent = 'results.nested = { ok: typeof results.classic };';
div.appendChild(s2);
frag.appendChild(div);
document.body.appendChild(frag);
var m = document.createElement('script');
m.type = 'module';
m.text = 'results.module = { meta: typeof import.meta };';
document.body.appendChild(m);
// Handlers in HTML written with innerHTML.
document.getElementById('box').insertAdjacentHTML('beforeend', '<span id="holder2"></span>');
document.getElementById('holder2').innerHTML = '<button id="ih" onclick="results.inner = { ok: this.id }">x</button> on time';
document.getElementById('ih').click();
setTimeout(function () { __memTestDone = true; }, 300);
