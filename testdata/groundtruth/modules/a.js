'use strict';
let cache = track('a-cache', { a: 1 });
function helper() { return cache; }
exports.get = () => helper();
exports.replace = () => {
  cache = track('a-cache-new', { a: 2 });
};
