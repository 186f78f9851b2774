// Following a trial's chain. Under its whole step a trial lists its lines in order: the
// assumed mark, each step of the ladder that follows from it, the rule they break. Pointing
// at, tapping or focusing a line (Tab, or arrows within the list) lights what that line
// concludes and outlines what it rests on, as a hint does, with the marks the chain made
// before it drawn as purple ghosts and the assumed mark ringed in purple; leaving the list
// shows the whole step again. Following a chain never changes the player's marks.

import {draw, lightStep, withColours} from "./board.js";
import {cellSet, game} from "./state.js";
import {$, NARROW} from "./ui.js";

const MOVES = {ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1};

// The chain listed: {step, whole (shows the whole step), pointed, focused, at: the line
// shown (1 the first, 0 none)}; null while no chain is listed.
let listed = null;

// The list's place: under the hint's text (below the board) on a narrow screen, atop the
// side panels (beside the board) on a wide one. Nothing above the board moves either way.
function place() {
  if (NARROW.matches) $("messages").after($("chain-box"));
  else $("hint-panel").before($("chain-box"));
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
  if (!at) {
    listed.whole();
    return;
  }
  lightStep(chain[at - 1], 3);
  game.chainMarks = madeBefore(chain, at);
  const [assumed] = chain;
  game.marked.supposed = cellSet([...assumed.conclusions.stars, ...assumed.conclusions.blanks]);
  draw();
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
  on("pointerenter", (it) => { it.pointed = k; it.at = k; });
  on("pointerleave", (it) => { it.pointed = 0; it.at = it.focused; });
  on("focus", (it) => { it.focused = k; it.at = k; });
  on("blur", (it) => { it.focused = 0; it.at = it.pointed; });
  return item;
}

// List a step's chain under it (a step without one, or none: no list). `whole` shows the
// whole step again when the player leaves the chain.
export function showChain(step, whole) {
  const chain = step && step.chain;
  listed = chain && chain.length ? {step, whole, pointed: 0, focused: 0, at: 0} : null;
  $("chain").replaceChildren(...(listed ? chain.map((link, j) => line(link, j + 1, listed)) : []));
  $("chain-box").hidden = !listed;
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
  $("chain").addEventListener("keydown", lineKey);
}
