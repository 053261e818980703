// Sloppy code (no "use strict"): a function with simple parameters has a
// mapped arguments object, whose first elements are its parameters (a
// write to one is a write to the other). An arrow that uses arguments
// keeps the parameters' current values and the elements past them.
module.exports = function sloppy(track, keep) {
  function reassigned(a) {
    a = track('sloppy-arguments-new', {});
    return () => arguments[0];
  }
  function extra(a) {
    return () => arguments[1];
  }
  const fs = [];
  fs.push(reassigned(track('sloppy-arguments-old', {})));
  fs.push(extra(1, track('sloppy-arguments-extra', {})));
  if (keep) return fs;
  return null;
};
