window.results.app = [1, 2, 3].map(function (x) { return {x: x}; }).length;
var s = document.createElement('script');
s.src = 'dyn.js';
document.body.appendChild(s);
