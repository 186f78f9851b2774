// Following a trial's chain. Under its whole step a trial lists its lines in order: the
// assumed mark, each step of the ladder that follows from it, the rule they break. Pointing
// at, tapping or focusing a line (Tab, or arrows within the list) lights what that line
// concludes and outlines what it rests on, as a hint does, with the marks the chain made
// before it drawn as purple ghosts and the assumed mark ringed in purple; leaving the list
// shows the whole step again. Following a chain never changes the player's marks. On a phone
// a bar above the toolbar, kept in view with the board, shows the line followed and steps
// through the lines (◀ ▶), keeping the board in view: no scrolling between the two.

import {draw, lightStep, withColours} from "./board.js";
import {cellSet, game} from "./state.js";
import {$, NARROW, counted, enable, on as onPress} from "./ui.js";

const MOVES = {ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1};
const FLOOR = 8; // px kept between the chain's box and the window's bottom edge
const SHORTEST = 120; // px: a list never shorter (a short window scrolls the page instead)

// The chain listed: {step, whole (shows the whole step), pointed, focused, stepped (by the
// bar), last (the line shown last, 0 once the player leaves the chain), at: the line shown
// (1 the first, 0 none)}; null while no chain is listed.
let listed = null;

// The list's place: under the hint's text (below the board) on a narrow screen, atop the
// side panels (beside the board) on a wide one. Nothing above the board moves either way.
function place() {
  if (NARROW.matches) $("messages").after($("chain-box"));
  else $("hint-panel").before($("chain-box"));
  fit();
}

// Beside the board, a long chain scrolls within its box, which ends in the window's height:
// every line is in reach with the board still in view. Under the board (a narrow screen)
// the page scrolls instead, the bar above the toolbar keeping the line followed in view.
function fit() {
  const list = $("chain");
  if (NARROW.matches || $("chain-box").hidden) {
    list.style.maxHeight = "";
    return;
  }
  const box = $("chain-box").getBoundingClientRect(), shown = list.getBoundingClientRect();
  const below = box.bottom - shown.bottom; // the box's padding and border
  const room = innerHeight - Math.max(shown.top, 0) - below - FLOOR;
  list.style.maxHeight = `${Math.max(room, SHORTEST)}px`;
}

// The marks a chain made before its line k: the assumed mark and what the lines after it add.
function madeBefore(chain, k) {
  const links = chain.slice(0, k - 1);
  return {stars: cellSet(links.flatMap((link) => link.conclusions.stars)),
          blanks: cellSet(links.flatMap((link) => link.conclusions.blanks))};
}

// Show on the board the line `listed.at` (with what came before it), or the whole step.
function follow() {
  const {step: {chain}, at} = listed;
  [...$("chain").children].forEach((line, j) => line.classList.toggle("followed", j + 1 === at));
  if (at) listed.last = at;
  showLine();
  if (!at) {
    listed.whole();
    return;
  }
  lightStep(chain[at - 1], 3);
  game.chainMarks = madeBefore(chain, at);
  const {conclusions} = listed.step; // the assumed cell: the step concludes its other side
  game.marked.supposed = cellSet([...conclusions.stars, ...conclusions.blanks]);
  draw();
}

// The bar: the line shown ("2 of 6: ..."), or how to start; ◀ and ▶ where there is a line.
function showLine() {
  const {step: {chain}, at, last} = listed;
  $("chain-line").textContent = at
    ? `${at} of ${chain.length}: ${withColours(chain[at - 1].sentence)}`
    : `Follow the trial on the board: the supposition, ${counted(chain.length - 2, "step")}, `
      + "the broken rule ▶";
  enable("chain-prev", last > 1);
  enable("chain-next", last < chain.length);
}

// Scroll as little as it takes to show the board (or, if it is too tall, the cells lit)
// above the bar, on a phone. Only once a tap is over: a page moving under a finger would
// send the rest of the tap elsewhere.
function litInView() {
  if (!NARROW.matches || !listed || !listed.at) return;
  const floor = $("chain-now").getBoundingClientRect().top - 4;
  const board = $("board").getBoundingClientRect();
  const lit = [...$("board").querySelectorAll(".conclusion")].map((c) => c.getBoundingClientRect());
  const [top, bottom] = board.height <= floor - 4 || !lit.length ? [board.top, board.bottom]
    : [Math.min(...lit.map((r) => r.top)), Math.max(...lit.map((r) => r.bottom))];
  if (top < 4) scrollBy(0, top - 4);
  else if (bottom > floor) scrollBy(0, Math.min(bottom - floor, top - 4));
}

// Step the bar to another line: one nearer the end (1) or the start (-1).
function stepBy(by) {
  if (!listed) return;
  listed.stepped = Math.max(1, Math.min(listed.step.chain.length, listed.last + by));
  listed.at = listed.stepped;
  follow();
  litInView();
}

// A tap or click outside the chain and its bar leaves the chain (the whole step shows).
function leave(event) {
  if (!listed || $("chain-box").contains(event.target) || $("chain-now").contains(event.target)) {
    return;
  }
  Object.assign(listed, {stepped: 0, last: 0});
  if (listed.at && !listed.pointed && !listed.focused) {
    listed.at = 0;
    follow();
  }
}

// One line of the chain. A finger's pointer comes and goes with its tap, so what a tap shows
// is the focus it gives. A line no longer listed does nothing (removing a focused line blurs it).
function line(link, k, shown) {
  const item = document.createElement("li");
  item.tabIndex = 0;
  item.textContent = withColours(link.sentence);
  const on = (event, change) => item.addEventListener(event, () => {
    if (listed !== shown) return;
    change(shown);
    follow();
  });
  on("pointerenter", (it) => { Object.assign(it, {pointed: k, stepped: 0, at: k}); });
  on("pointerleave", (it) => { it.pointed = 0; it.at = it.focused || it.stepped; });
  on("focus", (it) => { Object.assign(it, {focused: k, stepped: 0, at: k}); });
  on("blur", (it) => { it.focused = 0; it.at = it.pointed || it.stepped; });
  item.addEventListener("click", litInView);
  return item;
}

// List a step's chain under it (a step without one, or none: no list). `whole` shows the
// whole step again when the player leaves the chain.
export function showChain(step, whole) {
  const chain = step && step.chain;
  listed = chain && chain.length
    ? {step, whole, pointed: 0, focused: 0, stepped: 0, last: 0, at: 0} : null;
  $("chain").replaceChildren(...(listed ? chain.map((link, j) => line(link, j + 1, listed)) : []));
  $("chain-box").hidden = !listed;
  $("chain-now").hidden = !listed;
  fit();
  if (listed) showLine();
}

// Arrows, Home and End move between the lines; Escape leaves the chain for the step's text.
function lineKey(event) {
  const lines = [...$("chain").children];
  const k = lines.indexOf(event.target);
  if (k < 0) return;
  let to = null;
  if (event.key in MOVES) to = Math.max(0, Math.min(lines.length - 1, k + MOVES[event.key]));
  else if (event.key === "Home") to = 0;
  else if (event.key === "End") to = lines.length - 1;
  else if (event.key === "Escape") $("hint-text").focus();
  else return;
  event.preventDefault();
  if (to !== null) lines[to].focus();
}

export function listenChain() {
  place();
  NARROW.addEventListener("change", place);
  addEventListener("resize", fit);
  $("chain").addEventListener("keydown", lineKey);
  onPress("chain-prev", () => stepBy(-1));
  onPress("chain-next", () => stepBy(1));
  document.addEventListener("pointerdown", leave);
  const dock = () => {
    const style = document.documentElement.style;
    style.setProperty("--dock", `${$("toolbar").offsetHeight}px`);
    style.setProperty("--docked", `${$("toolbar").offsetHeight + $("chain-now").offsetHeight}px`);
  };
  const watch = new ResizeObserver(dock);
  watch.observe($("toolbar"));
  watch.observe($("chain-now"));
}
