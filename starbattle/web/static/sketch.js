// The board a setter draws: a region label per cell, blocked cells, given stars and Xs, with
// undo and redo. The address (#e=BOARD&tool=TOOL&region=LABEL) keeps the board as the API
// reads it (its JSON) and the tool in hand, so a reload or a link brings both back.

// Region labels, in the order "New region" hands them out; "#" is a blocked cell.
export const LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const BLOCKED = "#";
export const TOOLS = ["paint", "star", "blank", "block", "pan"];

export const sketch = {
  size: 0, stars: 1,
  labels: [],                // one region label per cell, or BLOCKED
  givenStars: new Set(),     // cell indexes
  givenBlanks: new Set(),
  undo: [], redo: [],        // the board's text before each edit, and after each undone one
  tool: "paint",
  region: "B",               // the region painting puts cells in
  onEdit: () => {},          // after every edit, undo and redo (edit.js: draw, keep, judge)
};

let palette = [];  // [{colour, word}] of /api/setter, a colour for each label in turn

export function knowPalette(colours) {
  palette = colours;
}

export const colourOf = (label) => palette[LABELS.indexOf(label) % palette.length];

const cellOf = (i) => [Math.floor(i / sketch.size) + 1, (i % sketch.size) + 1];
const indexOf = ([r, c]) => (r - 1) * sketch.size + c - 1;

export const regionsInUse = () => [...new Set(sketch.labels)].filter((label) => label !== BLOCKED)
  .sort((a, b) => LABELS.indexOf(a) - LABELS.indexOf(b));

// The labels row by row, each row a string ("#": blocked).
const rows = () => Array.from({length: sketch.size},
  (_, r) => sketch.labels.slice(r * sketch.size, (r + 1) * sketch.size).join(""));

// The board as the API reads it: JSON with rows as strings, blocked cells and givens listed.
export function sketchText() {
  const board = {stars: sketch.stars, regions: rows()};
  const listed = (wanted) => sketch.labels.flatMap((label, i) => wanted(label, i) ? [cellOf(i)] : []);
  const lists = {blocked: listed((label) => label === BLOCKED),
                 given_stars: listed((_, i) => sketch.givenStars.has(i)),
                 given_blanks: listed((_, i) => sketch.givenBlanks.has(i))};
  for (const [key, cells] of Object.entries(lists)) if (cells.length) board[key] = cells;
  return JSON.stringify(board);
}

// Read a JSON board (the API's, or one kept in the address) into the sketch. Labels stay when
// each is one of LABELS and no `relabel` is asked; else regions are relabelled A, B, ... in
// reading order (a puzzle's regions then get the first colours, each its own).
export function readSketch(text, relabel = false) {
  const board = JSON.parse(text);
  const rows = board.regions.map((row) => typeof row === "string" ? [...row] : row);
  const n = rows.length;
  if (!Number.isInteger(board.stars) || rows.some((row) => row.length !== n)) {
    throw new Error("The board in the address is not a square board: start a new one.");
  }
  const cells = rows.flat().map((label) => label === null ? BLOCKED : String(label));
  for (const [r, c] of board.blocked || []) cells[(r - 1) * n + c - 1] = BLOCKED;
  const own = !relabel && cells.every((label) => label === BLOCKED || (label.length === 1 && LABELS.includes(label)));
  const renamed = new Map();
  const named = (label) => {
    if (label === BLOCKED || own) return label;
    if (!renamed.has(label)) renamed.set(label, LABELS[renamed.size % LABELS.length]);
    return renamed.get(label);
  };
  sketch.size = n;
  sketch.stars = board.stars;
  sketch.labels = cells.map(named);
  sketch.givenStars = new Set((board.given_stars || []).map(indexOf));
  sketch.givenBlanks = new Set((board.given_blanks || []).map(indexOf));
}

// A blank board: every cell in region A, the next region to paint B.
export function blankText(size, stars) {
  const rows = Array.from({length: size}, () => LABELS[0].repeat(size));
  return JSON.stringify({stars, regions: rows});
}

// The board as board.js draws it: the shape of the API's board record, coloured by label.
export function sketchRecord() {
  const n = sketch.size;
  const used = regionsInUse();
  const cells = (set) => [...set].sort((a, b) => a - b).map(cellOf);
  return {
    type: "board", stars: sketch.stars, regions: rows(), size: n,
    given_stars: cells(sketch.givenStars), given_blanks: cells(sketch.givenBlanks),
    colours: Array.from({length: n}, (_, r) => Array.from({length: n}, (_, c) => {
      const label = sketch.labels[r * n + c];
      return label === BLOCKED ? null : colourOf(label).colour;
    })),
    colour_words: Object.fromEntries(used.map((label) => [label, colourOf(label).word])),
    url: null,
  };
}

// ---- edits -----------------------------------------------------------------------------------

// One cell changed by a tool, to `value` (paint: a label; the others: on or off).
export function change(i, tool, value) {
  const blocked = sketch.labels[i] === BLOCKED;
  if (tool === "paint") {
    sketch.labels[i] = value;
  } else if (tool === "block") {
    sketch.labels[i] = value ? BLOCKED : sketch.region;
    sketch.givenStars.delete(i);
    sketch.givenBlanks.delete(i);
  } else if (!blocked && (tool === "star" || tool === "blank")) {
    const [mine, other] = tool === "star" ? [sketch.givenStars, sketch.givenBlanks]
      : [sketch.givenBlanks, sketch.givenStars];
    if (value) { mine.add(i); other.delete(i); } else mine.delete(i);
  }
}

// What a stroke starting on a cell does to every cell it crosses: the region chosen, or the
// opposite of what the first cell has.
export function strokeValue(i, tool) {
  if (tool === "paint") return sketch.region;
  if (tool === "block") return sketch.labels[i] !== BLOCKED;
  return !(tool === "star" ? sketch.givenStars : sketch.givenBlanks).has(i);
}

// An edit is done: undo keeps the board before it (nothing is kept when nothing changed).
export function edited(before) {
  if (sketchText() === before) return;
  sketch.undo.push(before);
  sketch.redo = [];
  sketch.onEdit();
}

export function replayEdit(forward) {
  const [from, to] = forward ? [sketch.redo, sketch.undo] : [sketch.undo, sketch.redo];
  const text = from.pop();
  if (text === undefined) return;
  to.push(sketchText());
  readSketch(text);
  sketch.onEdit();
}

// The next label no region has (null when every label is taken).
export function unusedLabel() {
  const used = new Set(sketch.labels);
  return [...LABELS].find((label) => !used.has(label)) || null;
}

// ---- the address -----------------------------------------------------------------------------

export function keepSketch() {
  const hash = `#e=${encodeURIComponent(sketchText())}&tool=${sketch.tool}&region=${sketch.region}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

// The sketch an address names: {text, tool, region}, or null.
export function addressedSketch() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (!hash.get("e")) return null;
  const tool = TOOLS.includes(hash.get("tool")) ? hash.get("tool") : "paint";
  const region = hash.get("region");
  const known = region && region.length === 1 && LABELS.includes(region);
  return {text: hash.get("e"), tool, region: known ? region : null};
}
