// A page whose first screen the server drew (decision 046) starts its scripts once that screen is
// painted: the renter sees the page while the app's code downloads, rather than after it has
// downloaded and run. The scripts are the ones the page would otherwise name in its head.
(function () {
  var script = document.currentScript;
  var entry = script.getAttribute('data-entry');
  var preload = (script.getAttribute('data-preload') || '').split(' ').filter(Boolean);
  // Each preload costs the main thread a few milliseconds to start (on a slow phone, 18 of them held
  // it for 50 ms at once): a few per task, the entry once all are under way.
  var BATCH = 4;
  function start(from) {
    for (var i = from; i < Math.min(from + BATCH, preload.length); i++) {
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = preload[i];
      document.head.appendChild(link);
    }
    if (from + BATCH < preload.length) setTimeout(start, 0, from + BATCH);
    else import(entry);
  }
  // A frame's callbacks run before it is painted; a task queued from one runs after.
  requestAnimationFrame(function () {
    setTimeout(start, 0, 0);
  });
})();
