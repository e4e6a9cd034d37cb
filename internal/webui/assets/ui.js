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
  // Enter in the feed form's test URL tries the rule (without the script
  // it saves the feed, the form's default).
  document.addEventListener("submit", function (e) {
    var a = document.activeElement, b = document.getElementById("try");
    if (b && a && a.id === "test_url" && e.submitter && e.submitter.classList.contains("default-submit")) {
      e.preventDefault();
      setTimeout(function () { b.click(); }, 0); // not while this submission is under way
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var first = document.querySelector("#trial-title, #results-title");
    if (first) first.focus();
  });
})();
