window.lib = { loaded: true, list: [1, 2, 3].map(function (x) { return { x: x }; }) };
