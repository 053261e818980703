// bluebird: a promise library of its own (scheduling, promisify, timeouts) under async functions.
const Promise = require('bluebird');
async function main() {
  const r = await Promise.map([1, 2, 3], async (x) => { await Promise.delay(1); return x * 2; }, { concurrency: 2 });
  console.log(r);
  const s = await Promise.props({ a: Promise.resolve(1), b: 2 });
  console.log(s);
  try { await Promise.reject(new Error('boom')).timeout(10); } catch (e) { console.log(e.message); }
  const f = Promise.promisify((a, cb) => setTimeout(() => cb(null, a + 1), 1));
  console.log(await f(41));
}
main();
