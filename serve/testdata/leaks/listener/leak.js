// Detached DOM trees kept by listeners never removed.
function leak() {
  var d = document.createElement('div'); // leak
  d.textContent = 'detached'; // leak
  window.addEventListener('resize', function () { return d; }); // leak
}
