// Progressive enhancement only: every page works without this script.
// "/" focuses the search box; a result shown after a form (trial, check)
// takes the focus so a keyboard or screen reader user lands on it.
(function () {
  "use strict";
  document.addEventListener("keydown", function (e) {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var q = document.getElementById("q");
    if (q) { e.preventDefault(); q.focus(); q.select(); }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var first = document.querySelector("#trial-title, #results-title");
    if (first) first.focus();
  });
})();
