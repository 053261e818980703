var good = function () { return [{a: 1}, {b: 2}, {c: 3}]; };
