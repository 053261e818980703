export function f(x) { return { v: x * 21 }.v; }
