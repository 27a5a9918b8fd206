// The catalog pages' only script (registry/catalog): the home page's filter
// narrows the list as you type, and snippets get a copy button. The pages
// work without it: the filter form then asks the server (?q=).
(function () {
  "use strict";
  var input = document.getElementById("filter");
  if (input) {
    var form = input.form;
    var count = document.getElementById("filter-count");
    var apply = function () {
      var q = input.value.trim().toLowerCase();
      var shown = 0;
      document.querySelectorAll(".namespace").forEach(function (ns) {
        var any = false;
        ns.querySelectorAll("li.type").forEach(function (li) {
          var hit = q === "" || (li.getAttribute("data-filter") || "").indexOf(q) >= 0;
          li.hidden = !hit;
          if (hit) { any = true; shown++; }
        });
        ns.hidden = !any;
      });
      if (count) { count.textContent = shown + (shown === 1 ? " type" : " types"); }
    };
    input.addEventListener("input", apply);
    if (form) {
      form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
    }
    apply();
  }
  if (navigator.clipboard) {
    document.querySelectorAll("pre").forEach(function (pre) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "copy";
      b.textContent = "Copy";
      b.addEventListener("click", function () {
        navigator.clipboard.writeText(pre.innerText).then(function () { b.textContent = "Copied"; });
      });
      pre.parentNode.insertBefore(b, pre);
    });
  }
})();
