// Per-iteration scopes in generators and async functions: loops that
// suspend (Iy/Iz, and Y naming the open iterations), loops that do not
// (Il/Ie/Ix), a yielded fresh closure (Yv), nested loops left by a
// rejected await, a suspension in a loop's test only.
"use strict";
const tick = (v) => Promise.resolve(v);

async function perIteration() {
  const fns = [];
  for (const k of [1, 2, 3]) {
    const o = { k };
    await tick();
    fns.push(() => o.k);
  }
  return fns.map((f) => f()).join(",");
}

async function nested() {
  const fns = [];
  try {
    outer: for (const a of [1, 2]) {
      let oa = { a };
      for (let b = 0; b < 3; b++) {
        fns.push(() => oa.a * 10 + b);
        if (b === 1) continue outer;
        await (a === 2 ? Promise.reject(new Error("stop " + b)) : tick());
      }
    }
  } catch (e) {
    return fns.map((f) => f()).join(",") + " " + e.message;
  }
}

async function testOnly() {
  const fns = [];
  for (let i = 0; await tick(i < 3); i++) {
    const o = { i };
    fns.push(() => o.i);
  }
  return fns.map((f) => f()).join(",");
}

async function noSuspension() {
  await tick();
  const fns = [];
  for (const k of ["x", "y"]) fns.push(() => k);
  return fns.map((f) => f()).join(",");
}

function* yielded() {
  for (const k of [4, 5]) {
    const o = { k };
    const got = yield () => o.k;
    if (got) return got;
  }
}

async function* asyncYielded() {
  let n = 0;
  while (n < 2) {
    const box = { n: n++ };
    yield await tick(() => box.n);
  }
}

async function main() {
  console.log(await perIteration());
  console.log(await nested());
  console.log(await testOnly());
  console.log(await noSuspension());
  console.log([...yielded()].map((f) => f()).join(","));
  const g = yielded();
  g.next();
  console.log(g.next("early").value, g.next().done);
  const fs = [];
  for await (const f of asyncYielded()) fs.push(f);
  console.log(fs.map((f) => f()).join(","));
}
main();
