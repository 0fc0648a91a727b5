/* AttentionLab widget kit: sizes the iframes of embed.html to their content. Include it once on the
   host page, beside iframes that carry the data-attention-lab attribute:
     <script src="./attention-lab-widgets/embed-resize.js" defer></script>
   embed.html posts {type: "attention-lab:height", height} to its parent whenever its content's
   height changes. A message is obeyed only when it comes from one of those iframes (its window and
   the origin of its src) and carries a finite height in bounds; anything else is ignored. MIT licence. */
(function () {
  'use strict';
  var MIN = 120;
  var MAX = 20000;
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data !== 'object' || data.type !== 'attention-lab:height') return;
    var height = data.height;
    if (typeof height !== 'number' || !isFinite(height) || height < MIN || height > MAX) return;
    var frames = document.querySelectorAll('iframe[data-attention-lab]');
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      if (frame.contentWindow !== event.source) continue;
      var origin;
      try {
        origin = new URL(frame.src, location.href).origin;
      } catch (err) {
        return;
      }
      // a file:// page's frames report the origin "null"
      if (event.origin !== origin && !(origin === 'null' && event.origin === 'null')) return;
      frame.height = String(Math.ceil(height));
      return;
    }
  });
})();
