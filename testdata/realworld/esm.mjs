// ES modules: chalk (ESM only, getters on prototypes), uuid, immer (proxies).
import chalk from 'chalk';
import { v4, v5 } from 'uuid';
import { produce } from 'immer';
console.log(JSON.stringify(chalk.red.bold('x')), chalk.level >= 0);
console.log(v5('hello', v5.URL), typeof v4());
const base = { list: [{ a: 1 }], n: 1 };
const next = produce(base, (d) => { d.list.push({ a: 2 }); d.n++; });
console.log(JSON.stringify(next), base.list.length, Object.isFrozen(next));
