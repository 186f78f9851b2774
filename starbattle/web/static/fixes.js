// "Suggest a fix": small region edits the solver proved to give the board exactly one solution
// (or a solution), each a button. Hover or focus draws its moves as arrows, each from the cell
// into the neighbouring region it joins; a click makes the moves, one edit that Undo takes back.

import {records} from "./api.js";
import {draw, regionWords} from "./board.js";
import {game} from "./state.js";
import {BLOCKED, edited, sketch, sketchText} from "./sketch.js";
import {$, counted, failed, tell} from "./ui.js";

const SUGGEST_SECONDS = 20, MOST = 5;
const ARROWS = [[-1, 0, "↑"], [1, 0, "↓"], [0, -1, "←"], [0, 1, "→"]];

// Suggestions shown are for the board they were found for: any edit drops them.
export function clearFixes() {
  $("fixes").replaceChildren();
  tell("fix-text", "");
  game.arrows = null;
}

// The arrows of some moves: cell index -> {glyph, to}, pointing at a neighbour of the region
// the cell joins (as the board is once the moves before it are made).
function arrowsOf(moves) {
  const n = sketch.size;
  const labels = [...sketch.labels];
  const arrows = new Map();
  for (const {cell: [r, c], to} of moves) {
    const [, , glyph] = ARROWS.find(([dr, dc]) => {
      const rr = r + dr, cc = c + dc;
      return rr >= 1 && cc >= 1 && rr <= n && cc <= n && labels[(rr - 1) * n + cc - 1] === to;
    }) || [0, 0, "•"];
    labels[(r - 1) * n + c - 1] = to;
    arrows.set((r - 1) * n + c - 1, {glyph, to});
  }
  return arrows;
}

const cellWords = ([r, c]) => `(${r},${c})`;

// "move (6,1) from region F (teal) to region C (pink): unique, easy"
function fixWords(fix) {
  const moves = fix.moves.map((move) =>
    `${cellWords(move.cell)} from ${regionWords(move.from)} to ${regionWords(move.to)}`);
  const result = fix.unique ? "unique" : "solvable (2 or more solutions)";
  const tier = fix.grade && fix.grade.tier ? `, ${fix.grade.tier}` : "";
  return `Move ${moves.join(" and ")}: ${result}${tier}`;
}

function preview(fix) {
  game.arrows = fix ? arrowsOf(fix.moves) : null;
  draw();
}

function apply(fix) {
  const before = sketchText();
  const n = sketch.size;
  for (const {cell: [r, c], to} of fix.moves) {
    if (sketch.labels[(r - 1) * n + c - 1] !== BLOCKED) sketch.labels[(r - 1) * n + c - 1] = to;
  }
  edited(before);
}

function fixButton(fix) {
  const button = document.createElement("button");
  button.className = "fix";
  button.textContent = fixWords(fix);
  button.addEventListener("mouseenter", () => preview(fix));
  button.addEventListener("focus", () => preview(fix));
  button.addEventListener("mouseleave", () => preview(null));
  button.addEventListener("blur", () => preview(null));
  button.addEventListener("click", () => apply(fix));
  return button;
}

export async function suggestFix() {
  clearFixes();
  draw();
  const text = game.text;
  tell("fix-text", "Looking for small region edits that fix it…");
  let answer;
  try {
    answer = await records("suggest", {board: text, most: MOST, timeout: SUGGEST_SECONDS}, "suggest");
  } catch (error) {
    if (game.text === text) failed(error, "fix-text");
    return;
  }
  if (game.text !== text || !game.editing) return;
  const fixes = answer.filter((record) => record.type === "suggestion");
  const summary = answer.find((record) => record.type === "suggested");
  $("fixes").replaceChildren(...fixes.map(fixButton));
  if (fixes.length) {
    tell("fix-text", `${counted(fixes.length, "fix", "fixes")}: hover or focus one `
         + "to see its moves as arrows, click it to make them.");
  } else if (summary && summary.before === 1) {
    tell("fix-text", "Nothing to fix: the board has exactly one solution.");
  } else {
    tell("fix-text", summary && summary.complete ? "No edit of one or two cells fixes this board."
      : `No fix found within ${SUGGEST_SECONDS} s.`, "error");
  }
}
