// zod: schema classes, method chains, getters, errors as values.
const { z } = require('zod');
const User = z.object({ name: z.string().min(2), age: z.number().int().positive(), tags: z.array(z.string()).default([]) });
console.log(JSON.stringify(User.safeParse({ name: 'ab', age: 3 })));
const r = User.safeParse({ name: 'a', age: -1 });
console.log(r.success, r.error.issues.map((i) => i.path.join('.') + ':' + i.code).join(','));
