// The game: the board, the player's marks with undo and redo, and where progress is kept.
//
// A cell's mark is one character: "." empty, "*" star, "x" X, "o" dot (a pencil note);
// a trial mark is the same in capitals ("S", "X", "O"). The marks of a puzzle are those
// characters row by row: the address (#p=PUZZLE&m=MARKS) and the browser's storage keep them.

export const EMPTY = ".", STAR = "*", BLANK = "x", DOT = "o";
const TRIAL = {[STAR]: "S", [BLANK]: "X", [DOT]: "O"};
const KEY = "starbattle-asp";
const KEPT_PUZZLES = 50;

export const game = {
  board: null,      // the board record of /api/board
  text: "",         // the board as the API reads it: the record's own JSON (its region names)
  marks: [],        // one mark character per cell
  undo: [], redo: [],
  seconds: 0, hints: 0, solved: false,
  daily: null,      // {date, tier} while playing a daily puzzle
  cursor: 0,
  trial: false,     // new marks are trial marks
  mode: "star",     // what a click or tap marks: star, blank, dot; or pan (touch scrolls)
  ghost: null,      // {stars: Set, blanks: Set} drawn faintly (a solution, forced cells)
  preview: null,    // {stars: Set, blanks: Set}: a hint's conclusions, drawn as ghost ★ and ×
  chainMarks: null, // {stars: Set, blanks: Set}: a trial's marks before the line followed
  marked: {},       // class name -> Set of cells outlined (premises, errors, differences)
  units: [],        // Sets of cells of the units a hint rests on, outlined strongly
  hint: null, hintLevel: 0,
  steps: [], stepAt: 0,
  solutions: [], shownSolution: 0,
  editing: false,   // edit mode: the board is the setter's sketch (sketch.js), marks are unused
  arrows: null,     // Map cell -> {glyph, to}: a suggested fix's moves, drawn as arrows
  onChange: () => {},
};

export const size = () => game.board.size;
export const index = (r, c) => (r - 1) * size() + (c - 1);
export const cellOf = (i) => [Math.floor(i / size()) + 1, (i % size()) + 1];
// A cell's region as the board record names it ("#" or null: blocked).
export const region = (r, c) => {
  const row = game.board.regions[r - 1];
  return typeof row === "string" ? row[c - 1] : row[c - 1];
};
export const isBlocked = (i) => { const [r, c] = cellOf(i); return [null, "#"].includes(region(r, c)); };
export const cellSet = (cells) => new Set((cells || []).map(([r, c]) => index(r, c)));
export const kind = (mark) => mark.toLowerCase() === "s" ? STAR : mark.toLowerCase();
export const isTrial = (mark) => mark !== mark.toLowerCase();

export function givens() {
  return {stars: cellSet(game.board.given_stars), blanks: cellSet(game.board.given_blanks)};
}

export const isGiven = (i) => { const given = givens(); return given.stars.has(i) || given.blanks.has(i); };

// The marks as the API reads them: stars and Xs, trial ones too, never givens or dots.
export function marks() {
  const given = givens();
  const of = (wanted) => game.marks.flatMap((mark, i) =>
    kind(mark) === wanted && !given.stars.has(i) && !given.blanks.has(i) ? [cellOf(i)] : []);
  return {stars: of(STAR), blanks: of(BLANK)};
}

export const starCount = () => game.marks.filter((mark) => kind(mark) === STAR).length;
export const full = () => starCount() === size() * game.board.stars;
export const trialCells = () => game.marks.flatMap((mark, i) => isTrial(mark) ? [i] : []);

// The marks a new board starts with: its givens, then saved marks where they fit.
export function startMarks(record, saved) {
  const n = record.size;
  const given = {stars: new Set(), blanks: new Set()};
  for (const [r, c] of record.given_stars || []) given.stars.add((r - 1) * n + c - 1);
  for (const [r, c] of record.given_blanks || []) given.blanks.add((r - 1) * n + c - 1);
  const text = saved && saved.length === n * n ? saved : "";
  return Array.from({length: n * n}, (_, i) => {
    if (given.stars.has(i)) return STAR;
    if (given.blanks.has(i)) return BLANK;
    return ".*xoSXO".includes(text[i]) && text[i] ? text[i] : EMPTY;
  });
}

// ---- changing marks ------------------------------------------------------------------------

// Set one cell, noting the change; around a star, Xs if asked. While trying, new marks are
// trial marks and the marks kept before stay as they are.
export function setMark(i, mark, changes, autoX = false) {
  if (isBlocked(i) || isGiven(i)) return;
  if (game.trial && game.marks[i] !== EMPTY && !isTrial(game.marks[i])) return;  // kept marks stay
  const shown = mark !== EMPTY && game.trial ? TRIAL[mark] : mark;
  if (game.marks[i] === shown) return;
  changes.push([i, game.marks[i], shown]);
  game.marks[i] = shown;
  if (mark === STAR && autoX) {
    const [r, c] = cellOf(i);
    for (let dr = -1; dr <= 1; dr += 1) {
      for (let dc = -1; dc <= 1; dc += 1) {
        const rr = r + dr, cc = c + dc;
        if ((dr || dc) && rr >= 1 && cc >= 1 && rr <= size() && cc <= size()
            && game.marks[index(rr, cc)] === EMPTY) setMark(index(rr, cc), BLANK, changes);
      }
    }
  }
}

// The mark a toggle leaves: the mark, or empty when the cell has it already.
export const toggled = (i, mark) => kind(game.marks[i]) === mark ? EMPTY : mark;

export function commit(changes) {
  if (!changes.length) return;
  game.undo.push(changes);
  game.redo = [];
  game.onChange();
}

export function replay(forward) {
  const [from, to] = forward ? [game.redo, game.undo] : [game.undo, game.redo];
  const changes = from.pop();
  if (!changes) return;
  const order = forward ? changes : [...changes].reverse();
  for (const [i, before, after] of order) game.marks[i] = forward ? after : before;
  to.push(changes);
  game.trial = game.trial || trialCells().length > 0;
  game.onChange();
}

// Keep the trial marks as ordinary marks, or drop them all: one step of undo either way.
export function endTrial(keep) {
  const changes = trialCells().map((i) => {
    const after = keep ? kind(game.marks[i]) : EMPTY;
    return [i, game.marks[i], after];
  });
  for (const [i, , after] of changes) game.marks[i] = after;
  game.trial = false;
  commit(changes);
  if (!changes.length) game.onChange();
}

// ---- keeping progress ----------------------------------------------------------------------

export const marksText = () => game.marks.join("");

function stored() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch {
    return {};
  }
}

// What the browser keeps: preferences, streaks, the last puzzle and each puzzle's progress.
export const kept = () => ({puzzles: {}, ...stored()});

export function keep(change) {
  const all = kept();
  change(all);
  localStorage.setItem(KEY, JSON.stringify(all));
}

// The text a link carries: the puzz.link address when the board has one, else its JSON.
// It also names the puzzle's progress: the same puzzle read from any source (whose regions
// may be named apart) has the same address.
export const shareText = () => game.board.url || game.text;

export const progressOf = (text) => kept().puzzles[text] || null;

export function link(withMarks) {
  const marksPart = withMarks ? `&m=${marksText()}` : "";
  return `${location.origin}/#p=${encodeURIComponent(shareText())}${marksPart}`;
}

// Save this puzzle's progress (under its own name: other puzzles' progress stays) and the
// address; the address never holds the timer. In edit mode the address holds the sketch.
export function save() {
  if (!game.board || game.editing) return;
  const hash = `#p=${encodeURIComponent(shareText())}&m=${marksText()}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
  keep((all) => {
    const key = shareText();
    delete all.puzzles[key];  // re-added last: the oldest puzzles are dropped first
    all.puzzles[key] = {marks: marksText(), seconds: game.seconds, hints: game.hints,
                              solved: game.solved, daily: game.daily};
    const texts = Object.keys(all.puzzles);
    for (const old of texts.slice(0, Math.max(0, texts.length - KEPT_PUZZLES))) delete all.puzzles[old];
    all.last = key;
  });
}

// The puzzle and marks of the address, if it names one.
export function addressed() {
  const hash = new URLSearchParams(location.hash.slice(1));
  return hash.get("p") ? {text: hash.get("p"), marks: hash.get("m") || ""} : null;
}
