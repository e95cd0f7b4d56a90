(function () {
  var root = document.documentElement;
  var bar = document.querySelector(".lang");
  if (!bar) { return; }
  var buttons = bar.querySelectorAll("button[data-lang]");
  function choose(lang) {
    root.setAttribute("data-show", lang);
    buttons.forEach(function (b) { b.setAttribute("aria-pressed", String(b.getAttribute("data-lang") === lang)); });
    try { window.localStorage.setItem("mjdsl-lang", lang); } catch (e) { /* storage may be off: the choice just is not kept */ }
  }
  buttons.forEach(function (b) { b.addEventListener("click", function () { choose(b.getAttribute("data-lang")); }); });
  var saved = null;
  try { saved = window.localStorage.getItem("mjdsl-lang"); } catch (e) { saved = null; }
  choose(saved || "both");
  bar.hidden = false;
})();
