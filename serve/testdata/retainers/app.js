// A subtree made, attached, then detached and kept by a variable: its
// root is held by the variable, its children by their parent node.
var detached = document.createElement('div'); // site:root
for (var i = 0; i < 3; i++) {
  detached.appendChild(document.createElement('span')); // site:child
}
document.body.appendChild(detached);
detached.remove();
window.results = { children: detached.childNodes.length, connected: detached.isConnected };
window.__memTestDone = true;
