// Administration: show only the options of the ruleset chosen for the new game.
(function () {
  "use strict";
  var select = document.getElementById("ruleset");
  if (!select) { return; }
  function show() {
    document.querySelectorAll("fieldset.options").forEach(function (set) {
      var chosen = set.dataset.ruleset === select.value;
      set.hidden = !chosen;
      set.disabled = !chosen;
    });
  }
  select.addEventListener("change", show);
  show();
}());
