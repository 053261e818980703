// goal: commonjs
"use strict";
const path = require("path");
function helper(x) { return path.basename(x) }
module.exports = { helper };
console.log(helper("/a/b/c.txt"), typeof module.exports.helper);
if (require.main === module) console.log("main");
