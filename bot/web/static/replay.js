// The replay page works without this file (every step is a link, the jump a
// form); with it, steps load in place, the arrow keys step, and a Play button
// steps on by itself. The address always names the step shown.
"use strict";

(() => {
  const board = document.getElementById("replay-board");
  const moves = document.getElementById("replay-moves");
  const status = document.getElementById("replay-status");
  if (!board || !moves || !window.fetch || !window.history) return;

  const PACE_MS = 1000;
  let asked = 0; // the newest request: an older answer arriving late is dropped
  let timer = null;

  const said = () => document.getElementById("replay-said");
  const current = () => Number(said()?.dataset.move || 0);
  const last = () => Number(said()?.dataset.last || 0);
  const address = (move, part) => {
    const query = new URLSearchParams({ move: String(move) });
    if (part) query.set("part", part);
    return `${location.pathname}?${query}`;
  };

  function mark(move) {
    for (const item of moves.querySelectorAll("li.current")) {
      item.classList.remove("current");
      item.querySelector("a")?.removeAttribute("aria-current");
    }
    const item = document.getElementById(`move-${move}`);
    if (!item) return;
    item.classList.add("current");
    item.querySelector("a")?.setAttribute("aria-current", "step");
    // Scroll the list alone (never the page), and only when the step is out of sight.
    const box = moves.getBoundingClientRect();
    const line = item.getBoundingClientRect();
    if (line.top < box.top || line.bottom > box.bottom) {
      moves.scrollTop += line.top - box.top - (box.height - line.height) / 2;
    }
  }

  async function go(move, how) {
    move = Math.max(0, Math.min(Math.trunc(move) || 0, last()));
    const mine = ++asked;
    const focused = document.activeElement;
    const had = board.contains(focused);
    const rel = had ? focused.getAttribute("rel") || focused.id : "";
    let html;
    try {
      const answer = await fetch(address(move, "board"), { headers: { Accept: "text/html" } });
      if (!answer.ok) throw new Error(String(answer.status));
      html = await answer.text();
    } catch {
      location.href = address(move); // let the server's page do it
      return;
    }
    if (mine !== asked) return;
    board.innerHTML = html;
    dock();
    mark(move);
    if (how === "push") history.pushState({ move }, "", address(move));
    else if (how === "replace") history.replaceState({ move }, "", address(move));
    if (status) status.textContent = move === 0 ? "The start of the game." : `Move ${move} of ${last()}.`;
    if (had) {
      // The control clicked was replaced: give focus to its new self (or the heading).
      const again = rel && (board.querySelector(`[rel="${rel}"][href]`) || document.getElementById(rel));
      (again || document.getElementById("step-heading"))?.focus();
    }
    if (current() >= last()) stop();
  }

  // Autoplay: a button only the script adds, since only the script can play.
  // It lives among the step controls, moved into each new set of them.
  const play = document.createElement("button");
  play.type = "button";
  play.id = "replay-play";
  play.className = "plain replay-play";
  const label = (glyph, word) => {
    play.innerHTML = `<span aria-hidden="true">${glyph}</span> ${word}`;
  };
  label("▶", "Play");
  const dock = () => board.querySelector(".replay-controls")?.appendChild(play);
  dock();

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    label("▶", "Play");
  }
  function start() {
    if (current() >= last()) go(0, "push");
    label("❚❚", "Pause");
    timer = setInterval(() => {
      if (current() >= last()) stop();
      else go(current() + 1, "replace");
    }, PACE_MS);
  }
  play.addEventListener("click", () => (timer === null ? start() : stop()));

  document.addEventListener("click", (event) => {
    const link = event.target.closest?.("a[data-move]");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    if (!board.contains(link) && !moves.contains(link)) return;
    event.preventDefault();
    stop();
    go(Number(link.dataset.move), "push");
  });

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.classList?.contains("replay-jump")) return;
    event.preventDefault();
    stop();
    go(Number(form.elements.move.value), "push");
  });

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
    const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (!step) return;
    event.preventDefault();
    stop();
    go(current() + step, "push");
  });

  window.addEventListener("popstate", () => {
    stop();
    go(Number(new URLSearchParams(location.search).get("move") || 0), null);
  });

  mark(current());
})();
