// Detached DOM trees kept by a chain of closures.
var last = null;
function leak() {
  var d = document.createElement('div'); // leak
  var prev = last;
  last = function () { return [d, prev]; }; // leak
}
