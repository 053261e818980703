// A stub of the runtime shim for semantic tests: every hook returns its
// value argument and performs the write, call or delete it stands for,
// checking the arguments' shapes as it goes. No trace is written.
(function () {
  "use strict";
  var apply = Reflect.apply, construct = Reflect.construct, set = Reflect.set,
      deleteProperty = Reflect.deleteProperty, defineProperty = Object.defineProperty,
      getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  function iid(i) {
    if (typeof i !== "number" || i <= 0 || (i | 0) !== i) throw new Error("stub: bad iid " + i);
  }
  // pairs checks the (name, value) pairs after a suspension hook's value,
  // each group of an open loop iteration after its iid.
  function pairs(a, hook) {
    for (var j = 3; j < a.length;) {
      if (typeof a[j] === "number") { iid(a[j]); j++; continue; }
      if (typeof a[j] !== "string" || j + 1 >= a.length) throw new Error("stub: bad " + hook + " name");
      j += 2;
    }
  }
  function named(f, name) {
    if (name !== undefined) {
      var d = getOwnPropertyDescriptor(f, "name");
      if (d && d.value === "" && d.configurable) defineProperty(f, "name", { value: String(name), configurable: true });
    }
    return f;
  }
  function coercible(o, k) {
    if (o === null || o === undefined) throw new TypeError("Cannot read properties of " + o + " (reading '" + String(k) + "')");
  }
  var H = {
    N: function (i, name, v) { iid(i); return v; },
    F: function (i, fe, f, name) { iid(i); iid(fe < 0 ? -fe : fe); return named(f, name); },
    Fo: function (i, fe, o) {
      iid(i); iid(fe < 0 ? -fe : fe);
      var ks = Reflect.ownKeys(o);
      if (ks.length !== 1 || typeof o[ks[0]] !== "function") throw new Error("stub: Fo wants one function property");
      return o;
    },
    K: function (k) { var o = {}; o[k] = 0; return Reflect.ownKeys(o)[0]; },
    Q: function (i, o, k, v, inst) { iid(i); return v; },
    Sp: function (i, d, v) { iid(i); return v; },
    T: function (i, v) { iid(i); return v; },
    Ts: function (i, v) { iid(i); return v; },
    W: function (i, name, v, old) { iid(i); return v; },
    G: function (i, o) { iid(i); return o; },
    Gt: function (i, d, o) { iid(i); return o; },
    P: function (i, o, k, v, strict) {
      iid(i);
      strict &= 1; // + 2: the program wrote o.name (the real shim makes a named store)
      coercible(o, k);
      if (typeof o !== "object" && typeof o !== "function") {
        if (strict) throw new TypeError("Cannot create property '" + String(k) + "' on " + typeof o);
        return v;
      }
      if (!set(o, k, v) && strict) throw new TypeError("Cannot assign to read only property '" + String(k) + "'");
      return v;
    },
    Pt: function (i, d, o, k, v, strict) { return H.P(i, o, k, v, strict); },
    Pm: function (i, o, k, v, strict) { return H.P(i, o, k, v, strict); },
    Pu: function (i, r) { iid(i); if (r !== 1) throw new Error("stub: Pu of " + r); },
    D: function (i, o, k, strict) {
      iid(i);
      coercible(o, k);
      var ok = deleteProperty(Object(o), k);
      if (!ok && strict) throw new TypeError("Cannot delete property '" + String(k) + "'");
      return ok;
    },
    c: function (i, f) {
      iid(i);
      var a = []; for (var j = 2; j < arguments.length; j++) a.push(arguments[j]);
      if (typeof f !== "function") throw new TypeError(typeof f + " is not a function");
      return apply(f, undefined, a);
    },
    M: function (i, o, f) {
      iid(i);
      return f;
    },
    Mk: function (i, o, k) {
      iid(i);
      coercible(o, k);
      return o[k];
    },
    Mt: function (i, d, o, f) { return H.M(i, o, f); },
    m: function (i, o, f) {
      iid(i);
      var a = []; for (var j = 3; j < arguments.length; j++) a.push(arguments[j]);
      if (typeof f !== "function") throw new TypeError(typeof f + " is not a function");
      return apply(f, o, a);
    },
    q: function () { return Array.prototype.slice.call(arguments); },
    ct: function (i, f, a) {
      iid(i);
      if (typeof f !== "function") throw new TypeError(typeof f + " is not a function");
      return apply(f, undefined, a);
    },
    mt: function (i, o, f, a) {
      iid(i);
      if (typeof f !== "function") throw new TypeError(typeof f + " is not a function");
      return apply(f, o, a);
    },
    n: function (i, F) {
      iid(i);
      var a = []; for (var j = 2; j < arguments.length; j++) a.push(arguments[j]);
      return construct(F, a);
    },
    Fe: function (i) { iid(i); return { fe: i }; },
    Fr: function (i, f, v) { iid(i); if (!f || f.fe === undefined) throw new Error("stub: bad Fr"); return v; },
    Fg: function (i, fn, t, nt, r) { iid(i); if (r !== undefined) iid(r); return { fe: i, susp: 1 }; },
    Fx: function (i, f, v) { iid(i); if (!f || !f.susp) throw new Error("stub: bad Fx"); return v; },
    Ys: function (i, f, v) { iid(i); if (!f || !f.susp) throw new Error("stub: bad Ys"); pairs(arguments, "Ys"); f.susp = 2; return v; },
    Yv: function (i, f, v) { return H.Ys.apply(H, arguments); },
    Y: function (i, f, v) {
      iid(i);
      if (!f || !f.susp) throw new Error("stub: bad Y");
      pairs(arguments, "Y");
      f.susp = 1;
      return v;
    },
    Il: function (i) { iid(i); return -i; },
    Ie: function (i, l) { iid(i); if (l !== -i) throw new Error("stub: bad Ie"); },
    Ix: function (i, l, f) { iid(i); if (l !== -i || !(f === -1 || f && f.fe)) throw new Error("stub: bad Ix"); },
    Iy: function (i, f) { iid(i); if (!f || !f.susp) throw new Error("stub: bad Iy"); },
    Iz: function (i, f) { iid(i); if (!f || !f.susp) throw new Error("stub: bad Iz"); },
    R: function (f, v) { return v; },
    Rx: function (f, i, v) { iid(i); return v; },
    X: function (i, v) { iid(i); return v; },
    Tw: function (v) { return v; },
    // p: the pending-flush slot (H.p[0] || H.X(i)), empty, so that every
    // X is called and its iid checked.
    p: [0],
    Nw: function (i, name, v) { iid(i); if (typeof name !== "string") throw new Error("stub: bad Nw"); return v; },
    Nu: function (i, names) {
      if (typeof names !== "string" || names === "") throw new Error("stub: bad Nu");
      var n = names.split(",").length;
      for (var k = 0; k < n; k++) iid(i + k);
    },
    E: function (i, s) { iid(i); return s; },
    L: function (i, v) { return v; },
    Sx: function () {},
  };
  // c0..c6, m0..m6, n0..n6: c, m and n with exactly that many arguments.
  ["c", "m", "n"].forEach(function (h) {
    var fixed = h === "m" ? 3 : 2;
    for (var k = 0; k <= 6; k++) (function (k) {
      H[h + k] = function () {
        if (arguments.length !== fixed + k) throw new Error("stub: " + h + k + " called with " + (arguments.length - fixed) + " arguments");
        return H[h].apply(H, arguments);
      };
    })(k);
  });
  // G0..G31, P0..P31, M0..M31: copies of G, P and M (instrument.HookCopies, the
  // copy picked by instrument.copyOf: the instrumenter's unit tests check
  // which); the hooks beyond them do not exist.
  for (var k = 0; k < 32; k++) (function (k) {
    H["G" + k] = function (i, o) { return H.G(i, o); };
    H["P" + k] = function (i, o, key, v, strict) { return H.P(i, o, key, v, strict); };
    // Pq: the program performs an element write to an object itself (a
    // non-zero result), Pm performs the others.
    H["Pq" + k] = function (i, o, key, v) {
      iid(i);
      var obj = function (x) { return (typeof x === "object" && x !== null) || typeof x === "function"; };
      return obj(o) && !obj(key) ? 1 : 0;
    };
    H["M" + k] = function (j, o, f) { return H.M(j, o, f); };
  })(k);
  globalThis.__mt = {
    S: function (file, sites, free, se, sr) {
      // The site table: base-64 VLQ numbers, four per local iid.
      if (typeof sites !== "string" || !/^[A-Za-z0-9+\/]*$/.test(sites)) throw new Error("stub: bad site table");
      var count = 0;
      for (var j = 0; j < sites.length; j++) if ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".indexOf(sites[j]) < 32) count++;
      if (count % 4 !== 0) throw new Error("stub: bad site table");
      var n = count / 4;
      if (se > n || sr > n) throw new Error("stub: bad script iids");
      for (var k in free) if (+k > n) throw new Error("stub: bad free-vars key " + k);
      return H;
    },
    // A classic script: its handle and temporaries are global names,
    // non-enumerable properties of the global object.
    Sg: function (name, nt, nk, file, sites, free, se, sr) {
      var h = this.S(file, sites, free, se, sr);
      var def = function (n, v, w) { defineProperty(globalThis, n, { value: v, writable: w, enumerable: false, configurable: true }); };
      def(name, h, false);
      for (var k = 1; k <= nt; k++) def(name + "_" + k, undefined, true);
      for (k = 1; k <= nk; k++) def(name + "_k" + k, undefined, true);
      return h;
    },
  };
})();
