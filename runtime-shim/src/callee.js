// The message of a call of something that is not a function. V8 names the
// callee as its source reads ("o.m is not a function"); a call hook calls
// its callee through Reflect.apply, whose message names nothing the program
// wrote ("Function.prototype.apply was called on 1, which is a number and
// not a function"). calleeName renders the callee of a call expression's
// original text the way V8's CallPrinter does for the common forms:
// identifiers and this, property chains (".x", "?.x", a string key as
// ".key", "[k]" for an identifier or an integer key), calls inside the
// chain as "(...)", an object made by new as "(intermediate value)", and
// a parenthesized comma expression as "(a , b)".
// Anything else gives undefined, and the call throws as before.

import { $Number, $String, apply, strCharCodeAt, strSlice } from './natives.js';

const ID = 1, NUM = 2, STR = 3, PUNC = 4;

function isIdStart(c) {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 36 || c === 95;
}
function isIdPart(c) {
  return isIdStart(c) || (c >= 48 && c <= 57);
}
function isDigit(c) {
  return c >= 48 && c <= 57;
}

// tokens splits s into [kind, text] pairs (a string's text is its value);
// undefined for what the renderer does not handle (templates, regular
// expressions, escapes in names, non-ASCII names).
function tokens(s) {
  const out = [];
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = apply(strCharCodeAt, s, [i]);
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
    } else if (c === 47) { // "/": a comment, else a regexp or a division
      const d = apply(strCharCodeAt, s, [i + 1]);
      if (d === 47) {
        while (i < n && apply(strCharCodeAt, s, [i]) !== 10) i++;
      } else if (d === 42) {
        i += 2;
        while (i < n && !(apply(strCharCodeAt, s, [i]) === 42 && apply(strCharCodeAt, s, [i + 1]) === 47)) i++;
        if (i >= n) return undefined;
        i += 2;
      } else {
        return undefined;
      }
    } else if (isIdStart(c)) {
      let j = i + 1;
      while (j < n && isIdPart(apply(strCharCodeAt, s, [j]))) j++;
      if (j < n && (apply(strCharCodeAt, s, [j]) === 92 || apply(strCharCodeAt, s, [j]) > 127)) return undefined;
      out[out.length] = [ID, apply(strSlice, s, [i, j])];
      i = j;
    } else if (isDigit(c)) {
      let j = i + 1;
      while (j < n && isDigit(apply(strCharCodeAt, s, [j]))) j++;
      if (j < n && isIdPart(apply(strCharCodeAt, s, [j])) || j < n && apply(strCharCodeAt, s, [j]) === 46) return undefined;
      out[out.length] = [NUM, apply(strSlice, s, [i, j])];
      i = j;
    } else if (c === 34 || c === 39) {
      let j = i + 1;
      let v = '';
      for (;;) {
        if (j >= n) return undefined;
        const d = apply(strCharCodeAt, s, [j]);
        if (d === c) break;
        if (d === 92 || d === 10 || d === 13) return undefined; // escapes: not rendered
        v += s[j];
        j++;
      }
      out[out.length] = [STR, v];
      i = j + 1;
    } else if (c === 63 && apply(strCharCodeAt, s, [i + 1]) === 46 && !isDigit(apply(strCharCodeAt, s, [i + 2]))) {
      out[out.length] = [PUNC, '?.'];
      i += 2;
    } else if (c === 46 || c === 40 || c === 41 || c === 91 || c === 93 || c === 44) { // . ( ) [ ] ,
      if (c === 46 && apply(strCharCodeAt, s, [i + 1]) === 46) return undefined; // spread
      out[out.length] = [PUNC, s[i]];
      i++;
    } else {
      out[out.length] = [PUNC, s[i]]; // an operator or other punctuation: callers give up on it
      i++;
    }
  }
  return out;
}

// closing returns the index of the token that closes the group opened at
// t[k] ("(" or "["), or -1.
function closing(t, k) {
  let depth = 0;
  for (let j = k; j < t.length; j++) {
    if (t[j][0] !== PUNC) continue;
    const p = t[j][1];
    if (p === '(' || p === '[') depth++;
    else if (p === ')' || p === ']') {
      depth--;
      if (depth === 0) return j;
    }
  }
  return -1;
}

// expr renders t[a, b) as one expression, or undefined.
function expr(t, a, b) {
  if (a >= b) return undefined;
  let k = a;
  let out;
  const first = t[k];
  if (first[0] === ID && first[1] === 'new') {
    // new X.y(...): V8 prints the value it makes as "(intermediate value)".
    k++;
    if (k >= b || t[k][0] !== ID) return undefined;
    k++;
    while (k + 1 < b && t[k][0] === PUNC && t[k][1] === '.' && t[k + 1][0] === ID) k += 2;
    if (k < b && t[k][0] === PUNC && t[k][1] === '(') {
      const e = closing(t, k);
      if (e < 0 || e >= b) return undefined;
      k = e + 1;
    }
    out = '(intermediate value)';
  } else if (first[0] === ID) {
    out = first[1];
    k++;
  } else if (first[0] === PUNC && first[1] === '(') {
    const e = closing(t, k);
    if (e < 0 || e >= b) return undefined;
    // A parenthesized expression: its items, " , " between them.
    const items = [];
    let s = k + 1;
    let depth = 0;
    for (let j = k + 1; j <= e; j++) {
      const p = t[j][0] === PUNC ? t[j][1] : '';
      if (p === '(' || p === '[') depth++;
      else if ((p === ')' || p === ']') && j < e) depth--;
      if (j === e || (p === ',' && depth === 0)) {
        const it = expr(t, s, j);
        if (it === undefined) return undefined;
        items[items.length] = it;
        s = j + 1;
      }
    }
    out = items.length === 1 ? items[0] : '(' + join(items, ' , ') + ')';
    k = e + 1;
  } else if (first[0] === NUM && b === a + 1) {
    return $String($Number(first[1]));
  } else {
    return undefined;
  }
  while (k < b) {
    const tk = t[k];
    if (tk[0] !== PUNC) return undefined;
    const p = tk[1];
    if (p === '.' || p === '?.') {
      const nx = t[k + 1];
      if (k + 1 < b && nx[0] === ID) {
        out += p + nx[1];
        k += 2;
        continue;
      }
      if (p === '?.' && k + 1 < b && nx[0] === PUNC && (nx[1] === '(' || nx[1] === '[')) {
        out += '?.';
        k++;
        continue;
      }
      return undefined;
    }
    if (p === '[') {
      const e = closing(t, k);
      if (e < 0 || e >= b || e !== k + 2) return undefined;
      const key = t[k + 1];
      if (key[0] === STR && key[1] !== '' && !isIndex(key[1])) out += '.' + key[1];
      else if (key[0] === ID || key[0] === NUM) out += '[' + key[1] + ']';
      else return undefined;
      k = e + 1;
      continue;
    }
    if (p === '(') {
      const e = closing(t, k);
      if (e < 0 || e >= b) return undefined;
      out += '(...)';
      k = e + 1;
      continue;
    }
    return undefined;
  }
  return out;
}

function isIndex(s) {
  for (let i = 0; i < s.length; i++) if (!isDigit(apply(strCharCodeAt, s, [i]))) return false;
  return true;
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
  // The argument list: the last top-level "(...)" (optional for new).
  const last = t[b - 1];
  if (last[0] === PUNC && last[1] === ')') {
    let depth = 0, open = -1;
    for (let j = b - 1; j >= a; j--) {
      if (t[j][0] !== PUNC) continue;
      const p = t[j][1];
      if (p === ')' || p === ']') depth++;
      else if (p === '(' || p === '[') {
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
  return expr(t, a, b);
}
