// Drawing in edit mode with a mouse, a finger or the keyboard.
//
// A stroke (press, drag, release) changes every cell it crosses the same way: into the region
// chosen (Region), a given star or X on or off (the first cell says which), a cell blocked or
// not; the whole stroke is one edit. In Pan a swipe scrolls and zooms and changes nothing.
// Arrows move the cursor, space or Enter uses the tool on it; Ctrl-Z / Ctrl-Y (or z / y on
// the board) undo and redo.

import {draw} from "./board.js";
import {cellAt, moveCursor} from "./input.js";
import {game, startMarks} from "./state.js";
import {change, edited, replayEdit, sketch, sketchRecord, sketchText, strokeValue} from "./sketch.js";
import {$} from "./ui.js";

let stroke = null;  // {before: the board's text, value: what each cell becomes, last: a cell}

// Draw the sketch as it is now (a stroke's cells at once; the verdict waits for its end).
export function redraw() {
  game.board = sketchRecord();
  game.text = sketchText();
  game.marks = startMarks(game.board, "");
  draw();
}

function strokeOver(i) {
  if (i === stroke.last) return;
  stroke.last = i;
  change(i, sketch.tool, stroke.value);
  redraw();
}

function pointerDown(event) {
  if (!game.editing || sketch.tool === "pan") return;
  const i = cellAt(event);
  if (i === null) return;
  event.preventDefault();
  $("board").focus({preventScroll: true});
  game.cursor = i;
  stroke = {before: sketchText(), value: strokeValue(i, sketch.tool), last: null};
  strokeOver(i);
}

function pointerMove(event) {
  if (!stroke) return;
  const i = cellAt(event);
  if (i !== null) strokeOver(i);
}

function pointerUp() {
  if (!stroke) return;
  const {before} = stroke;
  stroke = null;
  edited(before);
}

function useTool() {
  if (sketch.tool === "pan") return;
  const before = sketchText();
  change(game.cursor, sketch.tool, strokeValue(game.cursor, sketch.tool));
  edited(before);
}

function boardKey(event) {
  if (!game.editing || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key.toLowerCase();
  if (key === " " || key === "enter") {
    useTool();
  } else if (key === "z" && !event.shiftKey) {
    replayEdit(false);
  } else if (key === "y" || (key === "z" && event.shiftKey)) {
    replayEdit(true);
  } else if (!moveCursor(event.key)) {
    return;
  }
  event.preventDefault();
}

// Ctrl-Z and Ctrl-Y anywhere on the page but in a text box.
function pageKey(event) {
  if (!game.editing || !(event.ctrlKey || event.metaKey) || event.target.matches("textarea, input")) {
    return;
  }
  const key = event.key.toLowerCase();
  if (key === "z" && !event.shiftKey) replayEdit(false);
  else if (key === "y" || (key === "z" && event.shiftKey)) replayEdit(true);
  else return;
  event.preventDefault();
}

export function listenPaint() {
  const board = $("board");
  board.addEventListener("pointerdown", pointerDown);
  board.addEventListener("pointermove", pointerMove);
  window.addEventListener("pointerup", pointerUp);
  window.addEventListener("pointercancel", pointerUp);
  board.addEventListener("keydown", boardKey);
  document.addEventListener("keydown", pageKey);
}
