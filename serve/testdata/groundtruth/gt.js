// Ground truth for the DOM's model and the engine: each object made on a
// line marked "site:X" is tracked by a WeakRef under X; at the end the
// test collects garbage through the DevTools protocol and compares, site
// by site, how many Chromium keeps with how many the engine reports
// reachable at the end of the trace.
var __memTestDone = false;
var refs = [];
function track(label, o) {
  refs.push([label, new WeakRef(o)]);
  return o;
}
// trackTree tracks node n and every node under it.
function trackTree(label, n) {
  track(label, n);
  for (var c = n.firstChild; c !== null; c = c.nextSibling) trackTree(label, c);
}
var kept = [];
(function () {
  for (var i = 0; i < 4; i++) {
    kept.push(track('array', { i: i })); // site:array
    track('dropped', { i: i }); // site:dropped
  }
})();
// A detached DOM tree kept by a closure's variable.
var holdTree = (function () {
  var root = track('tree', document.createElement('section')); // site:tree
  root.appendChild(track('treechild', document.createElement('p'))); // site:treechild
  return function () { return root; };
})();
// A detached tree nothing keeps.
(function () {
  var lost = track('lost', document.createElement('article')); // site:lost
  lost.appendChild(track('lostchild', document.createElement('em'))); // site:lostchild
})();
// Nodes in the document.
(function () {
  var li = track('inlist', document.createElement('li')); // site:inlist
  document.getElementById('list').appendChild(li);
  var gone = track('removed', document.createElement('li')); // site:removed
  document.getElementById('list').appendChild(gone);
  gone.remove();
})();
// innerHTML: the parsed nodes are the write's; replaced ones leave.
(function () {
  var holder = document.getElementById('holder');
  holder.innerHTML = '<b>old</b><i>old</i>'; // site:replaced
  track('replaced', holder.firstChild);
  track('replaced', holder.lastChild);
  holder.innerHTML = '<b>new</b><i>new</i><u>new</u>'; // site:parsed
  for (var c = holder.firstChild; c !== null; c = c.nextSibling) trackTree('parsed', c);
})();
// A detached node kept by a listener's closure, and one by a forgotten
// interval's.
(function () {
  var heldByListener = track('listener', document.createElement('span')); // site:listener
  document.body.addEventListener('click', function () { return heldByListener; });
  var heldByTimer = track('interval', { n: 10 }); // site:interval
  setInterval(function () { return heldByTimer; }, 1e6);
  // (once shares this function's context with what the listener and the
  // interval keep: V8 keeps it, and so does the engine.)
  var once = track('shared', { n: 1 }); // site:shared
  setTimeout(function () { return once; }, 0);
})();
// A timeout that has run lets its closure go.
(function () {
  var once = track('timeout', { n: 1 }); // site:timeout
  setTimeout(function () { return once; }, 0);
})();
// A clone of a tree, kept by a global; a fragment's children moved into
// the document.
var clone = document.getElementById('list').cloneNode(true); // site:clone
trackTree('clone', clone);
(function () {
  var frag = document.createDocumentFragment();
  for (var i = 0; i < 3; i++) frag.appendChild(track('fragment', document.createElement('div'))); // site:fragment
  document.body.appendChild(frag);
})();
// A shadow root's children, through its host in the document.
(function () {
  var host = document.createElement('div');
  document.body.appendChild(host);
  var shadow = host.attachShadow({ mode: 'closed' });
  shadow.appendChild(track('shadow', document.createElement('slot'))); // site:shadow
})();
// An animation frame loop that goes on holds its closure; one that ran
// lets it go.
(function () {
  var inLoop = track('rafloop', { n: 0 }); // site:rafloop
  (function frame() { inLoop.n++; requestAnimationFrame(frame); })();
})();
(function () {
  var once = track('rafonce', { n: 0 }); // site:rafonce
  requestAnimationFrame(function () { once.n++; });
})();
// An observer observing a node of the document holds its callback's
// closure; one that stopped observing does not.
(function () {
  var seen = track('resize', { n: 0 }); // site:resize
  new ResizeObserver(function () { seen.n++; }).observe(document.body);
})();
(function () {
  var gone = track('unobserved', { n: 0 }); // site:unobserved
  var el = document.getElementById('holder');
  var io = new IntersectionObserver(function () { gone.n++; });
  io.observe(el);
  io.unobserve(el);
})();
// A message port with a handler: while its other end is kept, the browser
// keeps it (its handler can still be called); closed, it lets it go. (A
// channel dropped whole Chromium collects when its ports' IPC allows:
// not a deterministic ground truth, so not here.)
var otherEnd;
(function () {
  var viaKeptChannel = track('keptport', { n: 0 }); // site:keptport
  var ch = new MessageChannel();
  ch.port1.onmessage = function () { viaKeptChannel.n++; };
  otherEnd = ch.port2;
})();
(function () {
  var closedPort = track('closedport', { n: 0 }); // site:closedport
  var ch = new MessageChannel();
  ch.port1.onmessage = function () { closedPort.n++; };
  ch.port1.close();
})();
// Requests in flight (the test's /slow answers when the test ends): the
// browser holds them, and what their callbacks keep; the page keeps none.
(function () {
  var byXhr = track('xhr', { n: 0 }); // site:xhr
  var x = new XMLHttpRequest();
  x.open('GET', '/slow');
  x.onload = function () { byXhr.n++; };
  x.send();
})();
(function () {
  var byFetch = track('fetch', { n: 0 }); // site:fetch
  fetch('/slow').then(function () { byFetch.n++; });
})();
setTimeout(function () { __memTestDone = true; }, 200);
