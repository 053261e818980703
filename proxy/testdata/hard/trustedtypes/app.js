var policy = trustedTypes.createPolicy('app', {
  createHTML: function (s) { return s; },
  createScript: function (s) { return s; }
});
var box = document.getElementById('box');
box.innerHTML = policy.createHTML('<b>trusted</b><i>html</i>');
var raw;
try { box.innerHTML = '<u>raw</u>'; raw = 'allowed'; } catch (e) { raw = e.name; }
var evaluated;
try { evaluated = eval(policy.createScript('({ v: 6 * 7 }).v')); } catch (e) { evaluated = e.name; }
var made;
try { made = new Function(policy.createScript('return [1, 2, 3].length;'))(); } catch (e) { made = e.name; }
var rawEval;
try { rawEval = eval('1 + 1'); } catch (e) { rawEval = e.name; }
window.results = { html: box.innerHTML, children: box.children.length, raw: raw, evaluated: evaluated, made: made, rawEval: rawEval };
window.__memTestDone = true;
