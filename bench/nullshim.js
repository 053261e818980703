// The floor of instrumented code: a stand-in for the runtime shim whose
// hooks do only what the program itself does (the write, call or delete
// they stand for, a function's name); no ids, no trace, no run-time code
// instrumented. bench's overhead group runs Octane's instrumented code with
// it beside the real shim: what the hook calls cost before the shim does
// any work.
(function () {
  "use strict";
  const apply = Reflect.apply, construct = Reflect.construct, defineProperty = Object.defineProperty;
  const setStrict = function (o, k, v) { "use strict"; o[k] = v; };
  const setSloppy = Function("o", "k", "v", "o[k] = v;");
  const delStrict = function (o, k) { "use strict"; return delete o[k]; };
  // o.name = v as a named store (strict + 2), as the shim makes it.
  const named = [new Map(), new Map()];
  const store = function (o, k, v, strict) {
    if (strict < 2) return strict ? setStrict(o, k, v) : setSloppy(o, k, v);
    const m = named[strict & 1];
    let f = m.get(k);
    if (f === undefined) m.set(k, f = Function("o", "k", "v", (strict & 1 ? "'use strict'; o." : "o.") + k + " = v;"));
    f(o, k, v);
  };
  const delSloppy = Function("o", "k", "return delete o[k];");
  class H {
    N(i, name, v) { return v; }
    Nw(i, name, v) { return v; }
    Nu(i, names) {}
    F(i, fe, f, name) {
      if (name !== undefined && typeof f === "function" && f.name === "") defineProperty(f, "name", { value: String(name), configurable: true });
      return f;
    }
    Fo(i, fe, o) { return o; }
    K(k) { return Reflect.ownKeys({ [k]: 0 })[0]; }
    Q(i, o, k, v, inst) { return v; }
    Sp(i, d, v) { return v; }
    T(i, v) { return v; }
    Ts(i, v) { return v; }
    W(i, name, v, old) { return v; }
    G(i, o) { return o; }
    Gt(i, d, o) { return o; }
    L(i, o) { return o; }
    P(i, o, k, v, strict) { store(o, k, v, strict); return v; }
    Pt(i, d, o, k, v, strict) { store(o, k, v, strict); return v; }
    Pm(i, o, k, v, strict) { store(o, k, v, strict); return v; }
    Pu(i, r) {}
    D(i, o, k, strict) { return strict ? delStrict(o, k) : delSloppy(o, k); }
    M(i, o, f) { return f; }
    Mt(i, d, o, f) { return f; }
    Mk(i, o, k) { return o[k]; }
    c(i, f, ...a) { return apply(f, undefined, a); }
    m(i, o, f, ...a) { return apply(f, o, a); }
    q(...a) { return a; }
    ct(i, f, a) { return apply(f, undefined, a); }
    mt(i, o, f, a) { return apply(f, o, a); }
    n(i, F, ...a) { return construct(F, a); }
    c0(i, f) { return f(); }
    c1(i, f, a) { return f(a); }
    c2(i, f, a, b) { return f(a, b); }
    c3(i, f, a, b, c) { return f(a, b, c); }
    c4(i, f, a, b, c, d) { return f(a, b, c, d); }
    c5(i, f, a, b, c, d, e) { return f(a, b, c, d, e); }
    c6(i, f, a, b, c, d, e, g) { return f(a, b, c, d, e, g); }
    m0(i, o, f) { return apply(f, o, []); }
    m1(i, o, f, a) { return apply(f, o, [a]); }
    m2(i, o, f, a, b) { return apply(f, o, [a, b]); }
    m3(i, o, f, a, b, c) { return apply(f, o, [a, b, c]); }
    m4(i, o, f, a, b, c, d) { return apply(f, o, [a, b, c, d]); }
    m5(i, o, f, a, b, c, d, e) { return apply(f, o, [a, b, c, d, e]); }
    m6(i, o, f, a, b, c, d, e, g) { return apply(f, o, [a, b, c, d, e, g]); }
    n0(i, F) { return new F(); }
    n1(i, F, a) { return new F(a); }
    n2(i, F, a, b) { return new F(a, b); }
    n3(i, F, a, b, c) { return new F(a, b, c); }
    n4(i, F, a, b, c, d) { return new F(a, b, c, d); }
    n5(i, F, a, b, c, d, e) { return new F(a, b, c, d, e); }
    n6(i, F, a, b, c, d, e, g) { return new F(a, b, c, d, e, g); }
    Fe(i) { return 0; }
    Fg(i) { return 0; }
    Fr(i, d, v) { return v; }
    Fx(i, d, v) { return v; }
    Ys(i, d, v) { return v; }
    Yv(i, d, v) { return v; }
    Y(i, d, v) { return v; }
    R(d, v) { return v; }
    Rx(d, i, v) { return v; }
    X(i, v) { return v; }
    Il(i) { return 0; }
    Ie(i, l) {}
    Ix(i, l, d) {}
    Iy(i, d) {}
    Iz(i, d) {}
    E(i, s) { return s; }
    Sx() {}
  }
  // Each copy of P has keyed stores of its own, as the shim's do.
  for (let k = 0; k < 32; k++) {
    H.prototype["G" + k] = H.prototype.G;
    H.prototype["M" + k] = H.prototype.M;
    const sl = Function("o", "k", "v", "o[k] = v;"), st = Function("o", "k", "v", "'use strict'; o[k] = v;");
    H.prototype["Pq" + k] = function (i, o, k, v) { return ((typeof o === 'object' && o !== null) || typeof o === 'function') && !((typeof k === 'object' && k !== null) || typeof k === 'function') ? 1 : 0; };
    H.prototype["P" + k] = function (i, o, k, v, strict) {
      if (strict < 2) strict ? st(o, k, v) : sl(o, k, v);
      else store(o, k, v, strict);
      return v;
    };
  }
  // p: the pending-flush slot that instrumented code tests before calling
  // X (H.p[0] || H.X(k)): full, as the shim's almost always is, so X is
  // not called.
  defineProperty(H.prototype, "p", { value: new Int32Array([1]) });
  const h = new H();
  // Sg: a classic script's handle and top-level temporaries are global
  // names, as the shim makes them.
  const def = (n, v, w) => Object.defineProperty(globalThis, n, { value: v, writable: w, enumerable: false, configurable: true });
  globalThis.__mt = {
    S() { return h; },
    Sg(name, nt, nk) {
      def(name, h, false);
      for (let k = 1; k <= nt; k++) def(name + '_' + k, undefined, true);
      for (let k = 1; k <= nk; k++) def(name + '_k' + k, undefined, true);
      return h;
    },
  };
})();
