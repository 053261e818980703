// The function's own context in generators and async functions: bindings
// that nested functions capture stay in the first context (a resume
// function, Fg's last argument); those declared after the first
// suspension are declared at entry and written by Nw where their
// declarations run (let, const, destructuring, class, block functions).
"use strict";
const tick = (v) => Promise.resolve(v);

async function rewrite(p) {
  let x = { v: 1 };
  const peek = () => x.v + p;
  const before = peek();
  await tick();
  x = { v: 2 };
  return before + ":" + peek();
}

async function late() {
  await tick();
  const a = { n: 1 };
  let b;
  const { c, ...rest } = { c: 3, d: 4 };
  class K { get n() { return a.n + c + rest.d; } }
  {
    function inner() { return b; }
    b = "b";
    await tick();
    return new K().n + inner();
  }
}

// An async arrow with a captured parameter, a for await loop whose
// binding a closure captures (copied per iteration, not in the first
// context) and a captured binding written inside a suspending loop.
const arrow = async (q) => {
  const fns = [];
  let last = null;
  const get = () => last;
  async function* src() { yield "x"; yield "y"; }
  for await (const s of src()) {
    fns.push(() => s + q);
    for (const k of [1, 2]) {
      const o = { k };
      await tick();
      last = o;
    }
  }
  return fns.map((f) => f()).join(",") + " " + get().k;
};

// A generator whose closure, made before a yield, sees a later write.
function* counter() {
  let n = 0;
  const read = () => n;
  while (n < 3) {
    yield read;
    n++;
  }
  let after = "done";
  yield () => after + n;
}

// Direct eval: every binding of the function stays in its first context.
async function evals() {
  let v = 1;
  await tick();
  const w = 2;
  return eval("v + w");
}

async function main() {
  console.log(await rewrite(10));
  console.log(await late());
  console.log(await arrow("!"));
  const fs = [...counter()];
  console.log(fs.map((f) => f()).join(","));
  console.log(await evals());
}
main().catch((e) => console.log("error", e.message));
