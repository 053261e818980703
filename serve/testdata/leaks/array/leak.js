// Detached DOM trees kept by a global array.
var retained = [];
function leak() {
  var d = document.createElement('div'); // leak
  d.appendChild(document.createElement('span')); // leak
  retained.push(d);
}
