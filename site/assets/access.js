// The keyboard reaches every table and every box that
// scrolls. Material wraps each table in a box of its own while the page
// loads (so no markup of ours can reach it), and a picture wider than a
// phone scrolls in its box; a box that scrolls but holds nothing focusable
// cannot be scrolled from the keyboard. Each such box becomes a tab stop
// (tabindex 0), named by what it holds and the heading above it, so a
// screen reader says what the stop is and the arrow keys scroll it.
(function () {
  "use strict";

  // The text of the nearest heading before `node` in the page, without the
  // permalink mark the theme appends to it.
  function headingBefore(node) {
    for (let here = node; here && !here.classList.contains("md-content"); here = here.parentElement) {
      for (let before = here.previousElementSibling; before; before = before.previousElementSibling) {
        if (/^H[1-6]$/.test(before.tagName)) {
          const copy = before.cloneNode(true);
          copy.querySelectorAll(".headerlink").forEach((link) => link.remove());
          return copy.textContent.trim();
        }
      }
    }
    return "";
  }

  function scrolls(node) {
    const style = getComputedStyle(node);
    return /auto|scroll/.test(style.overflowX + " " + style.overflowY);
  }

  function reachable(box, kind) {
    if (box.hasAttribute("data-scrollbox")) return;
    const heading = headingBefore(box);
    box.setAttribute("data-scrollbox", "");
    box.setAttribute("tabindex", "0");
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", heading ? kind + ": " + heading : kind);
  }

  function markBoxes() {
    const content = document.querySelector(".md-content");
    if (!content) return;
    // The theme gives each code block a navigation landmark for its copy
    // button, all without a name: number them, so each is told apart.
    content.querySelectorAll("nav.md-code__nav:not([aria-label])").forEach((nav, index) => {
      nav.setAttribute("aria-label", "Code block " + (index + 1));
    });
    content.querySelectorAll(".md-typeset__scrollwrap").forEach((box) => reachable(box, "Table"));
    content.querySelectorAll(".md-typeset div, .md-typeset figure").forEach((box) => {
      if (box.closest(".md-typeset__scrollwrap, .highlight") || !scrolls(box)) return;
      reachable(box, box.querySelector("svg, img") ? "Picture" : "Scrolling box");
    });
  }

  // Material announces each page it has set up (its tables wrapped) on
  // document$; without the theme's script, the page as loaded is all there is.
  if (typeof document$ !== "undefined" && document$.subscribe) {
    document$.subscribe(markBoxes);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", markBoxes);
  } else {
    markBoxes();
  }
})();
