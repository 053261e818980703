function lib(n) { var out = []; for (var i = 0; i < n; i++) out.push({i: i}); return out.length; }
