// The API reference (Swagger UI at /docs/): a parameter's list of values is named for screen
// readers by its parameter, as Swagger UI draws the list without a label.
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  if (!root || !window.MutationObserver) return;
  function name() {
    var lists = root.querySelectorAll("tr[data-param-name] select:not([aria-label])");
    for (var i = 0; i < lists.length; i++) {
      var row = lists[i].closest("tr[data-param-name]");
      lists[i].setAttribute("aria-label", row.getAttribute("data-param-name"));
    }
  }
  new MutationObserver(name).observe(root, { childList: true, subtree: true });
})();
