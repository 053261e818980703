'use strict';
let cache = track('b-cache', { b: 1 });
function helper() { return cache; }
exports.get = () => helper();
