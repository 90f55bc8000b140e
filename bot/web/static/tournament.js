// The tournament page: a live update redraws its rounds, so the rounds a
// reader opened or closed by hand stay as they left them.
"use strict";

(() => {
  const chosen = new Map();
  document.addEventListener("click", (event) => {
    const summary = event.target instanceof Element ? event.target.closest("summary") : null;
    const details = summary ? summary.parentElement : null;
    if (!details || details.tagName !== "DETAILS" || !details.id) return;
    // The click comes before the toggle: the reader's choice is the other state.
    chosen.set(details.id, !details.open);
  });
  document.addEventListener("gametable:updated", () => {
    for (const [id, open] of chosen) {
      const details = document.getElementById(id);
      if (details) details.open = open;
    }
  });
})();
