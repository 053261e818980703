// A page that replaces what the shim might lean on, after the shim has
// started: JSON, WebSocket, WeakMap, Math.random, Array.prototype's
// methods, XMLHttpRequest, Function.prototype.apply and call, and the DOM's
// own methods. Its own code keeps working with its replacements; the
// shim must neither use them nor throw into the page.
var __memTestDone = false;
var log = [];
var realPush = Array.prototype.push;
var realStringify = JSON.stringify;
(function () {
  var origParse = JSON.parse;
  JSON.stringify = function () { log[log.length] = 'stringify'; return realStringify.apply(JSON, arguments); };
  JSON.parse = function (s) { log[log.length] = 'parse'; return origParse(s); };
  window.WebSocket = function () { throw new Error('no sockets here'); };
  window.WeakMap = function () { throw new Error('no WeakMap here'); };
  Math.random = function () { return 0.5; };
  Array.prototype.push = function () { log[log.length] = 'push'; return realPush.apply(this, arguments); };
  Array.prototype.shift = function () { throw new Error('no shift here'); };
  Array.prototype.pop = function () { throw new Error('no pop here'); };
  Array.prototype.slice = function () { throw new Error('no slice here'); };
  Array.prototype[Symbol.iterator] = function () { throw new Error('no iteration here'); };
  window.XMLHttpRequest = function () { throw new Error('no XHR here'); };
  Object.defineProperty = function () { throw new Error('no defineProperty here'); };
  var appendChild = Node.prototype.appendChild;
  Node.prototype.appendChild = function (c) { log[log.length] = 'append'; return appendChild.call(this, c); };
  EventTarget.prototype.addEventListener = function () { log[log.length] = 'listen'; };
  window.setTimeout = (function (st) { return function (f, ms) { log[log.length] = 'timeout'; return st(f, ms); }; })(window.setTimeout);
})();
var kept = [];
var n = 0;
function work() {
  for (var i = 0; i < 500; i++) kept.push({ i: i, r: Math.random() });
  var li = document.createElement('li');
  li.textContent = realStringify({ n: n, size: kept.length });
  document.getElementById('list').appendChild(li);
  if (++n < 5) setTimeout(work, 0);
  else setTimeout(function () { window.result = { items: document.getElementById('list').children.length, kept: kept.length, random: Math.random(), logged: log.length > 0 }; __memTestDone = true; }, 300);
}
setTimeout(work, 0);
