// handlebars: templates compiled to JavaScript functions at run time, helpers.
const Handlebars = require('handlebars');
const t = Handlebars.compile('<ul>{{#each people}}<li>{{name}} ({{age}}){{#if admin}} *{{/if}}</li>{{/each}}</ul>');
console.log(t({ people: [{ name: 'a', age: 1, admin: true }, { name: 'b<c', age: 2 }] }));
Handlebars.registerHelper('up', (s) => String(s).toUpperCase());
console.log(Handlebars.compile('{{up x}}')({ x: 'hi' }));
