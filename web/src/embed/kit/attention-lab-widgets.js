/* AttentionLab widget kit: the script a page includes (a classic script, so that it also runs on a
   page opened from disk). It finds the kit's other files next to itself, whatever folder or origin
   the kit is in:
     <script src="./attention-lab-widgets/attention-lab-widgets.js" defer></script>
   Over http(s) it imports the widgets' module (attention-lab-widgets.mjs, which may also be
   included directly with type="module"). From file://, where browsers refuse module scripts,
   workers and wasm, it adds attention-lab-file.js instead: given matrices still draw, and every
   other widget says in its place that the page needs a web server. MIT licence (LICENSE). */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !script.src) {
    console.error('attention-lab-widgets.js: include it with <script src="…"> (not type="module"; for that use attention-lab-widgets.mjs)');
    return;
  }
  var base = script.src;
  if (new URL(base).protocol === 'file:') {
    var fallback = document.createElement('script');
    fallback.src = new URL('attention-lab-file.js', base).href;
    document.head.appendChild(fallback);
    return;
  }
  import(new URL('attention-lab-widgets.mjs', base).href).catch(function (err) {
    console.error('AttentionLab widgets could not load from ' + new URL('./', base).href + ': ' + (err && err.message ? err.message : err));
  });
})();
