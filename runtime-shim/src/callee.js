// The message of a call of something that is not a function. V8 names the
// callee as its source reads ("o.m is not a function"); a call hook calls
// its callee through Reflect.apply, whose message names nothing the program
// wrote ("Function.prototype.apply was called on 1, which is a number and
// not a function"). calleeName renders the callee of a call expression's
// original text the way V8's CallPrinter does:
// - names and this; property chains: ".x", "?.x", a string key as ".key"
//   (whatever it holds), "[k]" for other keys; calls inside as "(...)";
// - operators in parentheses, "(a + b)", "(typeof a)", "(a++)", one pair
//   for a chain of one operator ("(a - b - c)", "((a + b) - c)"), != as
//   "(!(a == b))"; numbers as JavaScript prints them, after V8's parser
//   folded arithmetic on number literals ("o[1 - -1]" is "o[2]");
// - strings quoted, a template by its substitutions; array literals
//   "[a,b]"; an object literal "{(intermediate value)}" per property;
//   an assignment by its target; a comma expression as "(a , b)";
// - "(intermediate value)" for what V8 does not print: what new makes,
//   functions, classes, conditionals (one per operand), optional chains
//   inside the callee, BigInts.
// - a private name as a key: "o[#m]", "o?.[#m]".
// Anything else (super, import, new.target, spread in calls, code it
// cannot read) gives undefined, and the call throws the
// message of the hook's own call.

import { $Number, $String, apply, strCharCodeAt, strSlice, strFromCodePoint } from './natives.js';

const ID = 1, NUM = 2, STR = 3, PUNC = 4, REGEX = 5, BIGINT = 6;
// Template pieces: TPL a template without substitutions (its cooked
// text), TPLH its head before the first substitution, TPLM between two,
// TPLT after the last.
const TPL = 7, TPLH = 8, TPLM = 9, TPLT = 10;

const IV = '(intermediate value)';

function isIdStart(c) {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 36 || c === 95;
}
function isIdPart(c) {
  return isIdStart(c) || (c >= 48 && c <= 57);
}
function isDigit(c) {
  return c >= 48 && c <= 57;
}
function code(s, i) {
  return i < s.length ? apply(strCharCodeAt, s, [i]) : -1;
}

// Punctuators, longest first.
const puncs = ['>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??=',
  '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '++', '--', '+=', '-=', '*=', '/=', '%=',
  '&=', '|=', '^=', '**', '<<', '>>'];

// Words after which "/" begins a regular expression, not a division.
const exprWords = ['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void', 'throw', 'case', 'do', 'else', 'yield', 'await'];

// tokens splits s into [kind, text] pairs (a string's text is its value, a
// number's its digits); undefined for what the renderer does not read
// (escapes in names, non-ASCII names, unterminated literals).
function tokens(s) {
  const out = [];
  const n = s.length;
  const braces = []; // per open "{" or "${": true for a template substitution
  let i = 0;
  while (i < n) {
    const c = code(s, i);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    if (c === 47 && code(s, i + 1) === 47) {
      while (i < n && code(s, i) !== 10) i++;
      continue;
    }
    if (c === 47 && code(s, i + 1) === 42) {
      i += 2;
      while (i < n && !(code(s, i) === 42 && code(s, i + 1) === 47)) i++;
      if (i >= n) return undefined;
      i += 2;
      continue;
    }
    if (isIdStart(c)) {
      let j = i + 1;
      while (j < n && isIdPart(code(s, j))) j++;
      if (j < n && (code(s, j) === 92 || code(s, j) > 127)) return undefined;
      out[out.length] = [ID, apply(strSlice, s, [i, j])];
      i = j;
      continue;
    }
    if (isDigit(c) || (c === 46 && isDigit(code(s, i + 1)))) {
      const j = numberEnd(s, i);
      if (j < 0) return undefined;
      if (code(s, j - 1) === 110) out[out.length] = [BIGINT, apply(strSlice, s, [i, j])];
      else out[out.length] = [NUM, apply(strSlice, s, [i, j])];
      i = j;
      continue;
    }
    if (c === 34 || c === 39) {
      const r = stringValue(s, i + 1, c);
      if (r === undefined) return undefined;
      out[out.length] = [STR, r[0]];
      i = r[1];
      continue;
    }
    if (c === 96 || (c === 125 && braces.length > 0 && braces[braces.length - 1])) {
      // A template's start, or the end of a substitution: its text up to
      // the next substitution or its end.
      const head = c === 96;
      if (!head) braces.length--;
      const r = stringValue(s, i + 1, 96);
      if (r === undefined) return undefined;
      const sub = r[2];
      out[out.length] = [head ? (sub ? TPLH : TPL) : (sub ? TPLM : TPLT), r[0]];
      if (sub) braces[braces.length] = true;
      i = r[1];
      continue;
    }
    if (c === 47) {
      const prev = out.length > 0 ? out[out.length - 1] : undefined;
      const division = prev !== undefined && (prev[0] === NUM || prev[0] === STR || prev[0] === REGEX || prev[0] === BIGINT ||
        prev[0] === TPL || prev[0] === TPLT || (prev[0] === ID && !includes(exprWords, prev[1])) ||
        (prev[0] === PUNC && (prev[1] === ')' || prev[1] === ']' || prev[1] === '}')));
      if (!division) {
        const j = regexEnd(s, i);
        if (j < 0) return undefined;
        out[out.length] = [REGEX, apply(strSlice, s, [i, j])];
        i = j;
        continue;
      }
    }
    if (c === 63 && code(s, i + 1) === 46 && !isDigit(code(s, i + 2))) {
      out[out.length] = [PUNC, '?.'];
      i += 2;
      continue;
    }
    let p = s[i];
    for (let k = 0; k < puncs.length; k++) {
      const q = puncs[k];
      if (apply(strSlice, s, [i, i + q.length]) === q) {
        p = q;
        break;
      }
    }
    if (p === '{') braces[braces.length] = false;
    else if (p === '}' && braces.length > 0) braces.length--;
    out[out.length] = [PUNC, p];
    i += p.length;
  }
  return out;
}

function includes(a, x) {
  for (let i = 0; i < a.length; i++) if (a[i] === x) return true;
  return false;
}

// numberEnd returns the end of the numeric literal at i, or -1.
function numberEnd(s, i) {
  const n = s.length;
  let j = i;
  const x = code(s, i + 1) | 32;
  if (code(s, i) === 48 && (x === 120 || x === 111 || x === 98)) { // 0x 0o 0b
    j = i + 2;
    while (j < n && (isIdPart(code(s, j)))) j++;
    return j;
  }
  while (j < n && (isDigit(code(s, j)) || code(s, j) === 95)) j++;
  if (code(s, j) === 110) return j + 1; // BigInt
  if (code(s, j) === 46) {
    j++;
    while (j < n && (isDigit(code(s, j)) || code(s, j) === 95)) j++;
  }
  if ((code(s, j) | 32) === 101) {
    j++;
    if (code(s, j) === 43 || code(s, j) === 45) j++;
    if (!isDigit(code(s, j))) return -1;
    while (j < n && (isDigit(code(s, j)) || code(s, j) === 95)) j++;
  }
  if (j < n && isIdPart(code(s, j))) return -1;
  return j;
}

// numberText is the text JavaScript prints for a numeric literal.
function numberText(t) {
  let d = '';
  for (let i = 0; i < t.length; i++) if (t[i] !== '_') d += t[i];
  if (code(d, 0) === 48 && d.length > 1 && isDigit(code(d, 1))) return undefined; // legacy octal
  return $String($Number(d)); // Number reads 0x, 0o and 0b too
}

// stringValue reads a string (quote q) or template text (q = "`") from i:
// [value, end, substitution follows], or undefined.
function stringValue(s, i, q) {
  const n = s.length;
  let v = '';
  for (;;) {
    if (i >= n) return undefined;
    const d = code(s, i);
    if (d === q) return [v, i + 1, false];
    if (q === 96 && d === 36 && code(s, i + 1) === 123) return [v, i + 2, true];
    if ((d === 10 || d === 13) && q !== 96) return undefined;
    if (d !== 92) {
      v += s[i];
      i++;
      continue;
    }
    const e = s[i + 1];
    i += 2;
    if (e === 'n') v += '\n';
    else if (e === 't') v += '\t';
    else if (e === 'r') v += '\r';
    else if (e === 'b') v += '\b';
    else if (e === 'f') v += '\f';
    else if (e === 'v') v += '\v';
    else if (e === '0' && !isDigit(code(s, i))) v += '\0';
    else if (e === '\n') { /* line continuation */ }
    else if (e === '\r') { if (code(s, i) === 10) i++; }
    else if (e === 'x' || e === 'u') {
      let hex;
      if (e === 'u' && code(s, i) === 123) {
        const close = indexOf(s, '}', i);
        if (close < 0) return undefined;
        hex = apply(strSlice, s, [i + 1, close]);
        i = close + 1;
      } else {
        const len = e === 'x' ? 2 : 4;
        hex = apply(strSlice, s, [i, i + len]);
        i += len;
      }
      const cp = $Number('0x' + hex);
      if (hex === '' || !(cp >= 0 && cp <= 0x10ffff)) return undefined;
      v += strFromCodePoint(cp);
    } else if (e !== undefined && !isDigit(code(e, 0))) {
      v += e;
    } else {
      return undefined; // octal escapes
    }
  }
}

function indexOf(s, ch, from) {
  for (let i = from; i < s.length; i++) if (s[i] === ch) return i;
  return -1;
}

// regexEnd returns the end of the regular expression literal at i, or -1.
function regexEnd(s, i) {
  const n = s.length;
  let j = i + 1;
  let cls = false;
  for (;;) {
    if (j >= n) return -1;
    const d = code(s, j);
    if (d === 10 || d === 13) return -1;
    if (d === 92) j += 2;
    else {
      if (d === 91) cls = true;
      else if (d === 93) cls = false;
      else if (d === 47 && !cls) break;
      j++;
    }
  }
  j++;
  while (j < n && isIdPart(code(s, j))) j++;
  return j;
}

// binPrec is the precedence of binary operator op, or 0.
function binPrec(op) {
  switch (op) {
    case '??': case '||': return 1;
    case '&&': return 2;
    case '|': return 3;
    case '^': return 4;
    case '&': return 5;
    case '==': case '!=': case '===': case '!==': return 6;
    case '<': case '>': case '<=': case '>=': case 'instanceof': case 'in': return 7;
    case '<<': case '>>': case '>>>': return 8;
    case '+': case '-': return 9;
    case '*': case '/': case '%': return 10;
    case '**': return 11;
  }
  return 0;
}

// The parse: the tokens T, the next one K, the end of the range B; D > 0
// inside the callee (in a key, an argument of an operator). Each function
// renders one expression from K and leaves K after it, or returns
// undefined. An expression renders as [text, number, op]: number is its
// value when it is a number literal (after folding), op the operator of
// a chain it ends.
let T = [], K = 0, B = 0, D = 0;

function pk(off) {
  const j = K + (off || 0);
  return j < B ? T[j] : undefined;
}
function isP(p, off) {
  const tk = pk(off);
  return tk !== undefined && tk[0] === PUNC && tk[1] === p;
}
function isW(w, off) {
  const tk = pk(off);
  return tk !== undefined && tk[0] === ID && tk[1] === w;
}
// within parses t[a, c) with f at depth d: f's result if it read all of it.
function within(a, c, d, f) {
  const sb = B, sd = D;
  B = c;
  D = d;
  K = a;
  let r = f();
  if (K !== c) r = undefined;
  B = sb;
  D = sd;
  K = c + 1;
  return r;
}
// group: the index of the token closing the group at K, within the range.
function group() {
  const e = closing(T, K);
  return e >= 0 && e < B ? e : -1;
}

// comma: expressions separated by "," print as "(a , b)".
function comma() {
  const items = [];
  let e;
  for (;;) {
    e = assign();
    if (e === undefined) return undefined;
    items[items.length] = e[0];
    if (!isP(',')) break;
    K++;
  }
  return items.length === 1 ? e : ['(' + join(items, ' , ') + ')'];
}

function assign() {
  if (isW('async') && (pk(1) !== undefined && pk(1)[0] === ID && isP('=>', 2) || isP('(', 1) && arrowAt(K + 1))) K++;
  if (pk() !== undefined && pk()[0] === ID && isP('=>', 1) || isP('(') && arrowAt(K)) {
    K = isP('(') ? closing(T, K) + 2 : K + 2;
    if (isP('{')) {
      const e = group();
      if (e < 0) return undefined;
      K = e + 1;
    } else if (assign() === undefined) {
      return undefined;
    }
    return [IV];
  }
  const c = cond();
  if (c === undefined) return undefined;
  const tk = pk();
  if (tk !== undefined && tk[0] === PUNC && tk[1] !== '=>' && tk[1] !== '==' && tk[1] !== '===' && tk[1] !== '!=' && tk[1] !== '!==' &&
      tk[1] !== '<=' && tk[1] !== '>=' && tk[1][tk[1].length - 1] === '=') {
    K++;
    return assign() === undefined ? undefined : [c[0]]; // an assignment prints as its target
  }
  return c;
}
function arrowAt(j) {
  const e = closing(T, j);
  return e >= 0 && e + 1 < B && T[e + 1][0] === PUNC && T[e + 1][1] === '=>';
}

function cond() {
  const c = binary(1);
  if (c === undefined || !isP('?')) return c;
  K++;
  if (assign() === undefined || !isP(':')) return undefined;
  K++;
  return assign() === undefined ? undefined : [IV + IV + IV];
}

function binary(min) {
  let left = unary();
  for (;;) {
    if (left === undefined) return undefined;
    const tk = pk();
    const op = tk !== undefined && (tk[0] === PUNC || tk[1] === 'in' || tk[1] === 'instanceof') ? tk[1] : '';
    const prec = binPrec(op);
    if (prec === 0 || prec < min) return left;
    K++;
    // ** binds right, the others left.
    const right = binary(op === '**' ? prec : prec + 1);
    left = right === undefined ? undefined : combine(op, left, right);
  }
}

function unary() {
  const tk = pk();
  if (tk === undefined) return undefined;
  const op = tk[1];
  if (tk[0] === PUNC && (op === '!' || op === '~' || op === '+' || op === '-' || op === '++' || op === '--') ||
      tk[0] === ID && (op === 'typeof' || op === 'void' || op === 'delete' || op === 'await')) {
    K++;
    const e = unary();
    if (e === undefined) return undefined;
    if (e[1] !== undefined && op.length === 1) {
      // V8's parser folds these on a number literal.
      const v = op === '-' ? -e[1] : op === '+' ? e[1] : op === '~' ? ~e[1] : !e[1];
      return typeof v === 'number' ? [$String(v), v] : [$String(v)];
    }
    return ['(' + op + (tk[0] === ID ? ' ' : '') + e[0] + ')'];
  }
  const e = postfix();
  if (e !== undefined && (isP('++') || isP('--'))) {
    K++;
    return ['(' + e[0] + pk(-1)[1] + ')'];
  }
  return e;
}

// postfix: a primary and its chain of members, calls and tagged templates.
function postfix() {
  const e = primary();
  if (e === undefined) return undefined;
  let out = e[0], chained = false, optional = false;
  for (;;) {
    const tk = pk();
    if (tk === undefined) break;
    const p = tk[0] === PUNC ? tk[1] : '';
    if (p === '.' || p === '?.') {
      optional = optional || p === '?.';
      const nx = pk(1);
      if (nx !== undefined && nx[0] === ID) {
        out += p + nx[1];
        K += 2;
      } else if (isP('#', 1) && pk(2) !== undefined && pk(2)[0] === ID) {
        // A private name prints as a key: o[#m], o?.[#m].
        out += (p === '?.' ? '?.' : '') + '[#' + pk(2)[1] + ']';
        K += 3;
      } else if (p === '?.' && (isP('(', 1) || isP('[', 1))) {
        out += p;
        K++;
      } else {
        return undefined;
      }
    } else if (p === '[') {
      const c = group();
      if (c < 0) return undefined;
      const only = c === K + 2 ? T[K + 1] : undefined;
      const key = only !== undefined && (only[0] === STR || only[0] === TPL) ? ['.' + only[1]] : within(K + 1, c, D + 1, comma);
      if (key === undefined) return undefined;
      K = c + 1;
      out += key[0][0] === '.' && key.length === 1 && only !== undefined ? key[0] : '[' + key[0] + ']';
    } else if (p === '(' || tk[0] === TPL || tk[0] === TPLH) {
      if (p === '(') {
        const c = group();
        if (c < 0) return undefined;
        K = c + 1;
      } else if (template() === undefined) {
        return undefined;
      }
      if (out[out.length - 1] === '.') out = apply(strSlice, out, [0, out.length - 2]); // f?.() prints as f(...)
      out += '(...)';
    } else {
      break;
    }
    chained = true;
  }
  if (!chained) return e;
  // An optional chain inside the callee prints as its value.
  return [optional && D > 0 ? IV : out];
}

// template: a template literal prints as its substitutions one after the
// other; one without any as a string.
function template() {
  const tk = pk();
  K++;
  if (tk[0] === TPL) return ['"' + tk[1] + '"'];
  let out = '';
  for (;;) {
    let j = K;
    for (let depth = 0; j < B; j++) {
      const x = T[j][0];
      if (x === TPLH) depth++;
      else if ((x === TPLM || x === TPLT) && depth-- === 0) break;
    }
    if (j >= B) return undefined;
    const e = within(K, j, D + 1, comma);
    if (e === undefined) return undefined;
    out += e[0];
    if (T[j][0] === TPLT) return [out];
  }
}

function primary() {
  const tk = pk();
  if (tk === undefined) return undefined;
  const x = tk[0], v = tk[1];
  if (x === ID) {
    if (v === 'new') return newExpr();
    if (v === 'function' || v === 'class' || v === 'async' && isW('function', 1)) return skipFn();
    if (v === 'super' || v === 'import' || v === 'yield') return undefined;
    K++;
    return [v];
  }
  if (x === TPL || x === TPLH) return template();
  K++;
  if (x === NUM) {
    const s = numberText(v);
    return s === undefined ? undefined : [s, $Number(s)];
  }
  if (x === STR) return ['"' + v + '"'];
  if (x === REGEX) return [v];
  if (x === BIGINT) return [IV];
  K--;
  const c = group();
  if (c < 0) return undefined;
  if (v === '(') return within(K + 1, c, D, comma);
  if (v === '[') {
    // An array literal: its elements, holes as (intermediate value).
    return within(K + 1, c, D + 1, () => {
      const items = [];
      while (K < B) {
        let r = [IV];
        if (!isP(',')) {
          const spread = isP('...');
          if (spread) K++;
          r = assign();
          if (r === undefined) return undefined;
          if (spread) r = ['(...' + r[0] + ')'];
          if (K < B && !isP(',')) return undefined;
        }
        items[items.length] = r[0];
        if (K < B) K++; // the comma
      }
      return ['[' + join(items, ',') + ']'];
    });
  }
  if (v === '{') {
    // An object literal: (intermediate value) per property.
    let out = '{', depth = 0;
    for (let j = K + 1; j < c; j++) {
      const q = T[j][0] === PUNC ? T[j][1] : '';
      if (q === '(' || q === '[' || q === '{') depth++;
      else if (q === ')' || q === ']' || q === '}') depth--;
      if (q === ',' && depth === 0) out += IV;
      else if (j === c - 1) out += IV; // the last property, without a comma after it
    }
    K = c + 1;
    return [out + '}'];
  }
  return undefined;
}

// newExpr: what new makes prints as (intermediate value).
function newExpr() {
  K++;
  if (isP('.')) return undefined; // new.target
  if (isW('new')) {
    if (newExpr() === undefined) return undefined;
  } else if (isW('function') || isW('class')) {
    if (skipFn() === undefined) return undefined;
  } else if (isP('(')) {
    K = group() + 1;
    if (K === 0) return undefined;
  } else if (pk() !== undefined && pk()[0] === ID) {
    K++;
  } else {
    return undefined;
  }
  // The constructor's members, then its arguments.
  for (;;) {
    if (isP('.') && pk(1) !== undefined && pk(1)[0] === ID) K += 2;
    else if (isP('[') || isP('(')) {
      const last = isP('(');
      const c = group();
      if (c < 0) return undefined;
      K = c + 1;
      if (last) break;
    } else break;
  }
  return [IV];
}

// skipFn: a function or class expression prints as its value.
function skipFn() {
  while (K < B && !isP('{')) K = isP('(') || isP('[') ? group() + 1 : K + 1;
  const c = K < B ? group() : -1;
  if (c < 0) return undefined;
  K = c + 1;
  return [IV];
}

// combine renders left op right as V8 does: parenthesized, one pair for a
// chain of one operator, != and !== as negated equality, arithmetic on
// two number literals folded.
function combine(op, left, right) {
  const a = left[1], b = right[1];
  if (a !== undefined && b !== undefined) {
    let v;
    switch (op) {
      case '+': v = a + b; break;
      case '-': v = a - b; break;
      case '*': v = a * b; break;
      case '/': v = a / b; break;
      case '%': v = a % b; break;
      case '**': v = a ** b; break;
      case '|': v = a | b; break;
      case '&': v = a & b; break;
      case '^': v = a ^ b; break;
      case '<<': v = a << b; break;
      case '>>': v = a >> b; break;
      case '>>>': v = a >>> b; break;
    }
    if (v !== undefined) return [$String(v), v];
  }
  if (op === '!=' || op === '!==') return ['(!(' + left[0] + ' ' + apply(strSlice, op, [1]) + '= ' + right[0] + '))'];
  // An n-ary chain a - b - c: left is "(a - b)", made by the same operator.
  if (left[2] === op && op !== '**') return [apply(strSlice, left[0], [0, left[0].length - 1]) + ' ' + op + ' ' + right[0] + ')', undefined, op];
  return ['(' + left[0] + ' ' + op + ' ' + right[0] + ')', undefined, op];
}

// closing returns the index of the token that closes the group opened at
// t[k] ("(", "[" or "{"), or -1.
function closing(t, k) {
  let depth = 0;
  for (let j = k; j < t.length; j++) {
    if (t[j][0] !== PUNC) continue;
    const p = t[j][1];
    if (p === '(' || p === '[' || p === '{') depth++;
    else if (p === ')' || p === ']' || p === '}') {
      depth--;
      if (depth === 0) return j;
    }
  }
  return -1;
}

function join(items, sep) {
  let s = '';
  for (let i = 0; i < items.length; i++) s += (i > 0 ? sep : '') + items[i];
  return s;
}

// calleeName renders the callee of the call (or new) expression whose
// original text is s, or undefined.
export function calleeName(s, isNew) {
  if (typeof s !== 'string') return undefined;
  const t = tokens(s);
  if (t === undefined || t.length === 0) return undefined;
  let a = 0, b = t.length;
  if (isNew) {
    if (t[0][0] !== ID || t[0][1] !== 'new') return undefined;
    a = 1;
  }
  // The argument list: the last top-level "(...)" (optional for new), or
  // a tagged template's template.
  const last = t[b - 1];
  if (!isNew && (last[0] === TPL || last[0] === TPLT)) {
    let depth = 0, j = b - 1;
    for (; j > a; j--) {
      const k = t[j][0];
      if (k === TPLT) depth++;
      else if (k === TPLH) depth--;
      if (depth === 0) break;
    }
    if (j <= a) return undefined;
    b = j;
  } else if (last[0] === PUNC && last[1] === ')') {
    let depth = 0, open = -1;
    for (let j = b - 1; j >= a; j--) {
      if (t[j][0] !== PUNC) continue;
      const p = t[j][1];
      if (p === ')' || p === ']' || p === '}') depth++;
      else if (p === '(' || p === '[' || p === '{') {
        depth--;
        if (depth === 0) {
          open = j;
          break;
        }
      }
    }
    if (open <= a) return undefined;
    b = open;
    if (t[b - 1][0] === PUNC && t[b - 1][1] === '?.') b--; // o.m?.()
  } else if (!isNew) {
    return undefined;
  }
  T = t;
  K = a;
  B = b;
  D = 0;
  const e = isNew ? postfix() : unary();
  const r = e !== undefined && K === b ? e[0] : undefined;
  T = [];
  return r;
}
