// The leak scenarios' common part: 40 ticks, each doing work that leaves
// nothing behind (noise) and then the page's leak().
var __memTestDone = false;
var ticks = 0;
function noise() {
  var tmp = { a: [1, 2, 3], s: 'x' + ticks };
  var row = document.createElement('tr');
  document.getElementById('table').appendChild(row);
  row.remove();
  document.getElementById('out').innerHTML = '<b>' + ticks + '</b><i>' + tmp.s + '</i>';
  return tmp.a.length;
}
function tick() {
  noise();
  leak();
  if (++ticks < 40) setTimeout(tick, 0);
  else __memTestDone = true;
}
setTimeout(tick, 0);
