// Edit mode, the setter's workshop: start from a blank board, the puzzle being played or a
// generated one; choose a tool and a region; every edit is drawn, kept in the address and
// judged (verdict.js); fixes are suggested (fixes.js); the board is exported or played.
//
// A blank board has every cell in region A: paint the other regions into it.

import {records, stop} from "./api.js";
import {draw, layout} from "./board.js";
import {clearFixes} from "./fixes.js";
import {clearHint} from "./hints.js";
import {panning} from "./input.js";
import {redraw} from "./paint.js";
import {clearSolve} from "./play.js";
import {boardText, describe, show} from "./sources.js";
import {game, save} from "./state.js";
import {LABELS, TOOLS, blankText, colourOf, keepSketch, readSketch, regionsInUse, replayEdit, sketch,
        sketchText, unusedLabel} from "./sketch.js";
import {$, enable, failed, on, say, tell} from "./ui.js";
import {judgeSoon, stopJudging} from "./verdict.js";

const MAKE_SECONDS = 60;
let played = null;  // the board record played before edit mode, to go back to
let capacity = {};  // the most stars per size (/api/setter)

// After every edit, undo and redo: draw (sized anew when the size changed), keep, judge.
sketch.onEdit = () => {
  const resized = !game.board || game.board.size !== sketch.size;
  clearFixes();
  redraw();
  if (resized) {
    game.cursor = 0;
    $("edit-size").value = String(sketch.size);  // the start form offers this board's kind
    fillStars(sketch.stars);
    layout();
    draw();
  }
  describe(sketch.size, sketch.stars, "Editing ");
  fillSwatches();
  enable("edit-undo", sketch.undo.length > 0);
  enable("edit-redo", sketch.redo.length > 0);
  keepSketch();
  judgeSoon();
};

// ---- tools and regions ---------------------------------------------------------------------

function setTool(tool) {
  sketch.tool = tool;
  for (const radio of document.querySelectorAll("input[name=tool]")) radio.checked = radio.value === tool;
  panning(tool === "pan");
  if (game.editing) keepSketch();
}

function chooseRegion(label) {
  sketch.region = label;
  setTool("paint");
  fillSwatches();
}

function swatch(label) {
  const {colour, word} = colourOf(label);
  const wrap = document.createElement("label");
  wrap.className = "swatch";
  wrap.style.backgroundColor = colour;
  wrap.title = `region ${label} (${word})`;
  const radio = document.createElement("input");
  radio.type = "radio";
  radio.name = "region";
  radio.value = label;
  radio.addEventListener("change", () => radio.checked && chooseRegion(label));
  const words = document.createElement("span");
  words.className = "hidden";
  words.textContent = ` (${word})`;
  wrap.append(radio, label, words);
  return wrap;
}

// A swatch for every region on the board and the one chosen (a new region has no cells yet).
function fillSwatches() {
  const labels = [...new Set([...regionsInUse(), sketch.region])]
    .sort((a, b) => LABELS.indexOf(a) - LABELS.indexOf(b));
  const swatches = $("swatch-list");
  if (swatches.dataset.labels !== labels.join("")) {
    swatches.replaceChildren(...labels.map(swatch));
    swatches.dataset.labels = labels.join("");
  }
  for (const radio of swatches.querySelectorAll("input")) radio.checked = radio.value === sketch.region;
}

function newRegion() {
  const label = unusedLabel();
  if (!label) {
    say(`Every one of the ${LABELS.length} region labels is in use.`, "error");
    return;
  }
  chooseRegion(label);
  say(`Region ${label}: drag over cells to paint them into it.`);
}

// ---- starting, leaving ---------------------------------------------------------------------

// Start anew from a board's text (an edit Undo takes back, when there was a board before).
function startFrom(text) {
  const before = sketch.size ? sketchText() : null;
  readSketch(text, true);
  if (before !== null && before !== sketchText()) {
    sketch.undo.push(before);
    sketch.redo = [];
  }
  sketch.region = unusedLabel() || LABELS[0];
  sketch.onEdit();
}

// Edit mode: the sketch of the address (`start`), else the sketch so far, else the puzzle played.
export function enterEdit(start = null) {
  if (!game.editing) {
    save();
    played = game.board;
    game.editing = true;
  }
  document.body.classList.add("editing");
  $("page-edit").checked = true;
  clearHint();
  clearSolve();
  tell("warning", "");
  $("tier").textContent = "";
  say("");
  try {
    if (start) readSketch(start.text);
    else if (!sketch.size) readSketch(game.text, true);
  } catch {
    readSketch(blankText(Number($("edit-size").value), Number($("edit-stars").value)));
  }
  sketch.region = (start && start.region) || sketch.region || unusedLabel();
  setTool(start ? start.tool : sketch.tool);
  game.board = null;  // drawn anew at its size
  sketch.onEdit();
}

function leaveEdit(record) {
  stopJudging();
  stop("suggest");
  clearFixes();
  game.editing = false;
  document.body.classList.remove("editing");
  $("page-play").checked = true;
  panning(game.mode === "pan");
  show(record);
}

// Back to the puzzle played before (or, when there was none, the sketch).
const backToPlay = () => played ? leaveEdit(played) : playIt();

// Play mode with the sketch as the puzzle (its regions must be right).
async function playIt() {
  let record;
  try {
    [record] = await records("board", {board: game.text}, "load");
  } catch (error) {
    failed(error);
    return;
  }
  leaveEdit(record);
}

async function generated() {
  const size = Number($("edit-size").value), stars = Number($("edit-stars").value);
  tell("edit-text", `Making a ${size}×${size} ${stars} ★ puzzle…`);
  enable("edit-stop", true);
  try {
    const [made] = await records("generate", {size, stars, seed: String(Date.now()),
                                              timeout: MAKE_SECONDS}, "make");
    tell("edit-text", "");
    startFrom(boardText(made));
  } catch (error) {
    failed(error, "edit-text");
  } finally {
    enable("edit-stop", false);
  }
}

// ---- the start form --------------------------------------------------------------------------

function fillStars(stars = Number($("edit-stars").value)) {
  const most = capacity[$("edit-size").value] || 1;
  const chosen = Math.min(stars || 1, most);
  $("edit-stars").replaceChildren(...Array.from({length: most}, (_, k) =>
    new Option(`${k + 1} ★`, k + 1, false, k + 1 === chosen)));
}

export function fillEditForm(setter) {
  capacity = setter.stars;
  const sizes = Object.keys(capacity).map(Number);
  $("edit-size").replaceChildren(...sizes.map((n) => new Option(`${n}×${n}`, n, false, n === 10)));
  fillStars();
}

export function listenEdit() {
  for (const radio of document.querySelectorAll("input[name=page]")) {
    radio.addEventListener("change", () => {
      if (!radio.checked || (radio.value === "edit") === game.editing) return;
      if (radio.value === "edit") enterEdit();
      else backToPlay();
    });
  }
  for (const radio of document.querySelectorAll("input[name=tool]")) {
    radio.addEventListener("change", () => radio.checked && TOOLS.includes(radio.value) && setTool(radio.value));
  }
  $("edit-size").addEventListener("change", () => fillStars());
  on("new-region", newRegion);
  on("edit-undo", () => replayEdit(false));
  on("edit-redo", () => replayEdit(true));
  on("edit-blank", () => startFrom(blankText(Number($("edit-size").value), Number($("edit-stars").value))));
  on("edit-this", () => played && startFrom(boardText(played)));
  on("edit-made", generated);
  on("edit-stop", () => stop("make"));
  on("play-it", playIt);
}
