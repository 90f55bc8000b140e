// gametable's pages work without this file; with it, times read in the
// reader's own time zone and live parts update as the game goes.
"use strict";

function localTimes(root) {
  for (const el of root.querySelectorAll("time[data-ts]")) {
    const when = new Date(Number(el.dataset.ts) * 1000);
    const style = el.dataset.style || "f";
    if (style === "R") {
      const seconds = Math.round((when - Date.now()) / 1000);
      const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
      const units = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
      const [unit, size] = units.find(([, s]) => Math.abs(seconds) >= s) || units[3];
      el.textContent = rtf.format(Math.round(seconds / size), unit);
    } else {
      el.textContent = when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
    }
    el.title = when.toLocaleString();
  }
}

// A live update redraws its part: a keyboard reader focused in it keeps their
// place on the same control (by id, link or class), not thrown back to the top.
function focusKey(target) {
  const el = document.activeElement;
  if (!el || el === target || !target.contains(el)) return null;
  const tag = el.tagName.toLowerCase();
  if (el.id) return `#${CSS.escape(el.id)}`;
  const href = el.getAttribute("href");
  if (href) return `${tag}[href="${CSS.escape(href)}"]`;
  if (el.classList.length) return `${tag}.${[...el.classList].map((c) => CSS.escape(c)).join(".")}`;
  return null;
}

function live(root) {
  const source = root.dataset.events;
  const target = document.getElementById(root.dataset.target || "live");
  if (!source || !target || !window.EventSource) return;
  const status = document.getElementById("live-status");
  const events = new EventSource(source);
  events.addEventListener("update", (message) => {
    const again = focusKey(target);
    target.innerHTML = message.data;
    localTimes(target);
    if (again) target.querySelector(again)?.focus({ preventScroll: true });
    document.dispatchEvent(new CustomEvent("gametable:updated"));
  });
  events.addEventListener("open", () => { if (status) status.textContent = "Live: updates as the game goes."; });
  events.addEventListener("error", () => { if (status) status.textContent = "Reconnecting…"; });
}

document.addEventListener("DOMContentLoaded", () => {
  localTimes(document);
  for (const root of document.querySelectorAll("[data-events]")) live(root);
  setInterval(() => localTimes(document), 30000);
});

// The live table page: its play-by-play reads newest last, so show the newest.
function newestLast(root) {
  for (const list of root.querySelectorAll("ol.newest-last")) list.scrollTop = list.scrollHeight;
}
document.addEventListener("DOMContentLoaded", () => newestLast(document));
document.addEventListener("gametable:updated", () => newestLast(document));
