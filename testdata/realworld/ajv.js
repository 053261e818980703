// ajv: validators compiled to JavaScript with new Function (run-time code).
const Ajv = require('ajv');
const ajv = new Ajv({ allErrors: true });
const schema = { type: 'object', properties: { a: { type: 'integer', minimum: 1 }, b: { type: 'array', items: { type: 'string' } } }, required: ['a'], additionalProperties: false };
const validate = ajv.compile(schema);
for (const d of [{ a: 1, b: ['x'] }, { a: 0 }, { b: [1] }, { a: 2, c: 3 }]) console.log(validate(d), JSON.stringify(validate.errors));
