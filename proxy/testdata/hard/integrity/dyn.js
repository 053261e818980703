function dyn() { return [{d: 1}, {d: 2}].length; }
