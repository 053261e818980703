onmessage = function (e) {
  var a = [];
  for (var i = 0; i < e.data; i++) a.push({ i: i });
  postMessage(a.length);
};
