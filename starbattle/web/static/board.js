// The board as the player sees it: cells sized to the screen, row and column numbers, each
// region's name in its first cell, marks, and what a hint or a check outlines.

import {$, NARROW} from "./ui.js";
import {BLANK, DOT, STAR, cellOf, cellSet, game, isBlocked, isTrial, kind, region,
        size} from "./state.js";

const MIN_CELL = 12, MAX_CELL = 48;
const ZOOMS = [1, 1.5, 2, 3];
let zoomAt = 0;

// A region's name with its colour, if the board has colour words: "B (blue)".
const colouredName = (name) => {
  const colour = game.board.colour_words[name];
  return colour ? `${name} (${colour})` : name;
};

// "region B (blue)": a region as a sentence names it and the board shows it.
export function regionWords(name) {
  return `region ${colouredName(name)}`;
}

// Regions in a sentence with their colours: "Region B needs ..." -> "Region B (blue) needs
// ...", "regions B, F and J" -> "regions B (blue), F (red) and J (green)".
export const withColours = (text) => text
  .replace(/\b([Rr]egions) ((?:[^\s,.;:()]+, )*[^\s,.;:()]+ and [^\s,.;:()]+)/g,
    (_, regions, list) => `${regions} ${list.replace(/[^\s,]+/g,
      (word) => (word === "and" ? word : colouredName(word)))}`)
  .replace(/\b([Rr])egion ([^\s,.;:()]+)/g, (_, r, name) => `${r}egion ${colouredName(name)}`);

// Every region's name, where it is shown: its first cell in reading order.
function nameCells() {
  const first = new Map();
  for (let i = 0; i < size() * size(); i += 1) {
    const [r, c] = cellOf(i);
    const name = region(r, c);
    if (!isBlocked(i) && !first.has(name)) first.set(name, i);
  }
  return new Map([...first].map(([name, i]) => [i, name]));
}

// The cells of a unit as a step names it: "row 3", "column 4", "region B".
export function unitCells(unit) {
  const [what, name] = unit.split(" ");
  const cells = new Set();
  for (let i = 0; i < size() * size(); i += 1) {
    const [r, c] = cellOf(i);
    if ((what === "row" && r === Number(name)) || (what === "column" && c === Number(name))
        || (what === "region" && region(r, c) === name)) cells.add(i);
  }
  return cells;
}

// Light a step (none: nothing): from level 2 the units it rests on outlined and its cells
// ringed, at level 3 what it concludes as ghost marks too.
export function lightStep(step, level) {
  const shown = (from) => Boolean(step) && level >= from;
  game.units = shown(2) ? step.premises.units.map(unitCells) : [];
  game.marked = shown(2) ? {premise: cellSet(step.premises.cells)} : {};
  game.preview = shown(3)
    ? {stars: cellSet(step.conclusions.stars), blanks: cellSet(step.conclusions.blanks)} : null;
  game.chainMarks = null;
}

// Build the cells (in rows, as a grid's roles ask) and the numbers around them.
function build() {
  const n = size();
  const board = $("board");
  const names = nameCells();
  board.replaceChildren(...Array.from({length: n}, (_, r) => {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.className = "row";
    row.append(...Array.from({length: n}, (_, c) => {
      const i = r * n + c;
      const cell = document.createElement("div");
      cell.id = `cell-${r + 1}-${c + 1}`;
      cell.dataset.i = i;
      cell.setAttribute("role", "gridcell");
      if (names.has(i)) {
        const name = document.createElement("span");
        name.className = "name";
        name.textContent = names.get(i);
        name.setAttribute("aria-hidden", "true");
        cell.append(name);
      }
      return cell;
    }));
    return row;
  }));
  const numbers = (id) => $(id).replaceChildren(...Array.from({length: n}, (_, k) => {
    const number = document.createElement("span");
    number.textContent = k + 1;
    return number;
  }));
  numbers("cols");
  numbers("rows");
  board.dataset.built = game.text;
}

export const cells = () => $("board").querySelectorAll("[role=gridcell]");

// The cell size from the room the screen leaves, across and down: the board, its numbers,
// the message line below it and, on a narrow screen, the toolbar all fit; zoom multiplies.
export function layout() {
  if (!game.board) return;
  const n = size();
  const frame = $("frame");
  const below = $("messages").offsetHeight + (NARROW.matches ? $("toolbar").offsetHeight : 0)
    + 16;
  const top = frame.getBoundingClientRect().top + window.scrollY;
  const across = $("play").clientWidth - 8;
  const down = Math.max(window.innerHeight - top - below, 160);
  const room = Math.min(across, down);
  const base = Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor((room - 8) / (n + 1))));
  const cell = Math.floor(base * ZOOMS[zoomAt]);
  const grid = $("grid");
  grid.style.setProperty("--n", n);
  grid.style.setProperty("--cell", `${cell}px`);
  grid.style.setProperty("--gutter", `${Math.max(14, Math.round(base * 0.8))}px`);
  frame.style.maxHeight = `${down}px`;
}

export function zoom(step) {
  zoomAt = Math.max(0, Math.min(ZOOMS.length - 1, zoomAt + step));
  layout();
  return ZOOMS[zoomAt];
}

// Outlines as inset shadows: the cursor's ring (white and black: seen on every colour),
// a unit's border drawn strongly on its outer sides, then a trial's assumed mark (purple, as
// trial marks), premise marks (blue), errors (red) and the cells where two solutions differ
// (purple). A suggested fix's moves are arrows.
const RINGS = {supposed: "#6a1b9a", premise: "#1d4f91", wrong: "#CC3311", conflict: "#CC3311",
               differ: "#AA3377"};

function outline(i, inUnits, cursor) {
  const shadows = [];
  if (cursor) shadows.push("inset 0 0 0 3px #fff", "inset 0 0 0 6px #000");
  const n = size();
  const [r, c] = cellOf(i);
  for (const unit of inUnits) {
    const out = (rr, cc) => rr < 1 || cc < 1 || rr > n || cc > n || !unit.has((rr - 1) * n + cc - 1);
    if (out(r - 1, c)) shadows.push("inset 0 4px 0 0 #111");
    if (out(r + 1, c)) shadows.push("inset 0 -4px 0 0 #111");
    if (out(r, c - 1)) shadows.push("inset 4px 0 0 0 #111");
    if (out(r, c + 1)) shadows.push("inset -4px 0 0 0 #111");
  }
  for (const [name, colour] of Object.entries(RINGS)) {
    if (game.marked[name] && game.marked[name].has(i)) shadows.push(`inset 0 0 0 4px ${colour}`);
  }
  return shadows.join(", ");
}

const STATES = {[STAR]: "star", [BLANK]: "X", [DOT]: "dot", ".": "empty"};

export function draw() {
  if (!game.board) return;
  if ($("board").dataset.built !== game.text) build();
  const n = size();
  const board = $("board");
  const focused = document.activeElement === board;
  const given = new Set([...(game.board.given_stars || []), ...(game.board.given_blanks || [])]
    .map(([r, c]) => (r - 1) * n + c - 1));
  const units = game.units;
  cells().forEach((cell, i) => {
    const [r, c] = cellOf(i);
    const mark = game.marks[i];
    const names = ["cell"];
    if (c < n && region(r, c) !== region(r, c + 1)) names.push("wr");
    if (r < n && region(r, c) !== region(r + 1, c)) names.push("wb");
    if (isBlocked(i)) names.push("blocked");
    if (mark !== ".") names.push({[STAR]: "star", [BLANK]: "blank", [DOT]: "dot"}[kind(mark)]);
    if (isTrial(mark)) names.push("trial");
    if (given.has(i)) names.push("given");
    if (game.ghost && game.ghost.stars.has(i)) names.push("ghost-star");
    if (game.ghost && game.ghost.blanks.has(i)) names.push("ghost-blank");
    if (game.chainMarks && game.chainMarks.stars.has(i)) names.push("chain-star");
    if (game.chainMarks && game.chainMarks.blanks.has(i)) names.push("chain-blank");
    if (game.preview && game.preview.stars.has(i)) names.push("will-star", "conclusion");
    if (game.preview && game.preview.blanks.has(i)) names.push("will-blank", "conclusion");
    for (const [name, marked] of Object.entries(game.marked)) if (marked.has(i)) names.push(name);
    const inUnits = units.filter((unit) => unit.has(i));
    if (inUnits.length) names.push("unit");
    const arrow = game.arrows && game.arrows.get(i);
    if (arrow) names.push("arrow");
    const cursor = i === game.cursor && focused;
    if (cursor) names.push("cursor");
    cell.className = names.join(" ");
    cell.style.backgroundColor = game.board.colours[r - 1][c - 1] || "";
    cell.style.boxShadow = outline(i, inUnits, cursor);
    const name = region(r, c);
    const where = isBlocked(i) ? "blocked" : regionWords(name);
    const what = `${given.has(i) ? "given " : ""}${isTrial(mark) ? "trial " : ""}${STATES[kind(mark)]}`;
    const moves = arrow ? `, moves to ${regionWords(arrow.to)}` : "";
    cell.setAttribute("aria-label", `row ${r}, column ${c}, ${where}: ${what}${moves}`);
    if (arrow) cell.dataset.arrow = arrow.glyph;
    else delete cell.dataset.arrow;
  });
  board.setAttribute("aria-activedescendant", `cell-${cellOf(game.cursor).join("-")}`);
}
