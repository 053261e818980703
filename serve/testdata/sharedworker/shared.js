var kept = [];
onconnect = function (e) {
  var port = e.ports[0];
  port.onmessage = function (m) {
    for (var i = 0; i < m.data.n; i++) kept.push({ i: i });
    port.postMessage({ n: kept.length });
  };
};
