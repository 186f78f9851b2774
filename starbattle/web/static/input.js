// Marking with a mouse, a finger or the keyboard.
//
// A click or tap marks what the mode says (star, X or dot), a right-click or a long press an
// X, a drag paints the same mark along its way. In Pan mode a finger scrolls and zooms the
// board and marks nothing.

import {$} from "./ui.js";
import {draw} from "./board.js";
import {BLANK, DOT, EMPTY, STAR, cellOf, commit, game, index, replay, setMark, size, toggled} from "./state.js";

const MODES = {star: STAR, blank: BLANK, dot: DOT};
const LONG_PRESS_MS = 500;
let drag = null;

const autoX = () => $("autox").checked;

export function cellAt(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  const cell = target && target.closest("[role=gridcell]");
  return cell && $("board").contains(cell) ? Number(cell.dataset.i) : null;
}

function paint(i) {
  setMark(i, drag.paint, drag.changes, drag.paint === STAR && autoX());
}

function pointerDown(event) {
  if (!game.board || game.editing || (game.mode === "pan" && event.pointerType !== "mouse")) return;
  const i = cellAt(event);
  if (i === null) return;
  event.preventDefault();
  $("board").focus({preventScroll: true});
  game.cursor = i;
  const mark = MODES[game.mode] || STAR;
  if (event.pointerType === "touch") {
    drag = {paint: toggled(i, mark), changes: [], start: i, touch: true};
    drag.timer = setTimeout(() => {  // a long press marks an X
      if (drag && !drag.moved) {
        drag.pressed = true;
        drag.paint = toggled(i, BLANK);
        paint(i);
        draw();
      }
    }, LONG_PRESS_MS);
    return;
  }
  if (game.mode === "pan") return;
  drag = {paint: toggled(i, event.button === 2 ? BLANK : mark), changes: [], start: i};
  paint(i);
  draw();
}

function pointerMove(event) {
  if (!drag) return;
  const i = cellAt(event);
  if (i === null || (i === drag.start && !drag.moved)) return;
  if (drag.touch && !drag.moved) {
    clearTimeout(drag.timer);
    if (!drag.pressed) paint(drag.start);
  }
  drag.moved = true;
  paint(i);
  draw();
}

function pointerUp() {
  if (!drag) return;
  clearTimeout(drag.timer);
  if (drag.touch && !drag.moved && !drag.pressed) paint(drag.start);
  const changes = drag.changes;
  drag = null;
  commit(changes);
  draw();
}

function mark(mark) {
  const changes = [];
  setMark(game.cursor, toggled(game.cursor, mark), changes, mark === STAR && autoX());
  commit(changes);
}

const MOVES = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};

// An arrow key moves the cursor (true), any other key does not (false).
export function moveCursor(key) {
  if (!(key in MOVES)) return false;
  const n = size();
  const [r, c] = cellOf(game.cursor);
  const [dr, dc] = MOVES[key];
  game.cursor = index(Math.min(n, Math.max(1, r + dr)), Math.min(n, Math.max(1, c + dc)));
  draw();
  $(`cell-${cellOf(game.cursor).join("-")}`).scrollIntoView({block: "nearest", inline: "nearest"});
  return true;
}

function keyDown(event) {
  if (!game.board || game.editing || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key.toLowerCase();
  if (key === " " || key === "enter") {
    mark(STAR);
  } else if (key === "x") {
    mark(BLANK);
  } else if (key === ".") {
    mark(DOT);
  } else if (key === "backspace" || key === "delete") {
    const changes = [];
    setMark(game.cursor, EMPTY, changes);
    commit(changes);
  } else if (key === "z" && !event.shiftKey) {
    replay(false);
  } else if (key === "y" || (key === "z" && event.shiftKey)) {
    replay(true);
  } else if (!moveCursor(event.key)) {
    return;
  }
  event.preventDefault();
}

// In Pan a finger scrolls and zooms the board (+ and − shown) and marks nothing.
export function panning(on) {
  $("board").classList.toggle("panning", on);
  $("zoom-in").hidden = $("zoom-out").hidden = !on;
}

export function setMode(mode) {
  game.mode = mode;
  panning(mode === "pan");
}

export function listen() {
  const board = $("board");
  board.addEventListener("pointerdown", pointerDown);
  board.addEventListener("pointermove", pointerMove);
  window.addEventListener("pointerup", pointerUp);
  window.addEventListener("pointercancel", pointerUp);
  board.addEventListener("contextmenu", (event) => event.preventDefault());
  board.addEventListener("keydown", keyDown);
  board.addEventListener("focus", draw);
  board.addEventListener("blur", draw);
  for (const radio of document.querySelectorAll("input[name=mode]")) {
    radio.addEventListener("change", () => radio.checked && setMode(radio.value));
  }
}
