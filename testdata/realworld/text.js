// Parsers and formatters: marked, js-yaml, cheerio; yargs (default
// parameter values that call functions).
const { marked } = require('marked');
console.log(marked.parse('# Hi\n\n- a\n- **b**\n\n```js\nx = 1\n```'));
const yaml = require('js-yaml');
console.log(JSON.stringify(yaml.load('a: 1\nb: [x, y]\nc: {d: true}')), yaml.dump({ z: [1, 2] }));
const cheerio = require('cheerio');
const $ = cheerio.load('<ul><li class="a">1</li><li>2</li></ul>');
console.log($('li').map((i, el) => $(el).text()).get().join('+'), $('.a').length);
const yargs = require('yargs/yargs');
const argv = yargs(['--name', 'x', '-v', '--count', '3', 'pos']).option('count', { type: 'number' }).option('v', { type: 'boolean' }).parse();
console.log(JSON.stringify({ name: argv.name, v: argv.v, count: argv.count, _: argv._ }));
