// An interval set on each tick and never cleared.
function leak() {
  var state = { n: ticks, parts: [] }; // leak
  setInterval(function () { return state; }, 1e6); // leak
}
