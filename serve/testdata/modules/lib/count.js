export const counter = { n: 0, add(k) { this.n += k; } };
