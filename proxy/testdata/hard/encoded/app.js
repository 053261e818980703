var items = [];
for (var i = 0; i < 50; i++) items.push({ n: i, s: 'item ' + i });
window.results.items = items.length;
window.results.last = items[49].s;
window.__memTestDone = true;
