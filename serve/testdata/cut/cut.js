// Several MiB of trace over 30 ticks, the same on every run: the test
// cuts the page's socket to the collector again and again meanwhile.
var __memTestDone = false;
var kept = [];
var tick = 0;
function work() {
  var batch = [];
  for (var i = 0; i < 1000; i++) {
    var o = { i: i, tick: tick, next: null };
    if (i > 0) batch[i - 1].next = o;
    batch.push(o);
  }
  kept.push(batch[0]);
  var li = document.createElement('li');
  li.textContent = 'tick ' + tick;
  document.getElementById('list').appendChild(li);
  if (++tick < 30) setTimeout(work, 0);
  // The page idles for two seconds before the test leaves it, as a person's
  // does: what the shim holds goes out meanwhile.
  else setTimeout(function () { __memTestDone = true; }, 2000);
}
setTimeout(work, 0);
