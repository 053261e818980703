self.addEventListener('fetch', function () {});
