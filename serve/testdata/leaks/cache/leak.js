// A cache whose keys keep growing.
var cache = new Map();
function leak() {
  cache.set('page-' + ticks, { html: '<p>' + ticks + '</p>', at: ticks }); // leak
}
