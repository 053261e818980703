'use strict';
const cache = track('d-uncaptured', { d: 1 });
exports.n = 1;
