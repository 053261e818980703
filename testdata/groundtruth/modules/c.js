'use strict';
const own = track('c-own', { c: 1 });
module.exports = () => own;
