// The page of `starbattle-asp serve`: play, check, hints and solving through the local JSON API.
"use strict";

const EMPTY = 0, STAR = 1, BLANK = 2;
const SAVE_KEY = "starbattle-asp";
const $ = (id) => document.getElementById(id);

const game = {
  board: null,      // the board record of /api/board
  text: "",         // the board's text as sent to the API (its URL when it has one)
  marks: [],        // EMPTY, STAR or BLANK per cell, row by row
  undo: [], redo: [],
  seconds: 0, solved: false,
  cursor: 0,
  features: {},
  ghost: null,      // {stars: Set, blanks: Set} shown faintly (a solution, forced cells, a trace)
  marked: {},       // class name -> Set of cells outlined (hints, errors, differences)
  hint: null, hintLevel: 0,
  steps: [], stepAt: 0,
  solutions: [], shownSolution: 0,
  running: null,    // the AbortController of a solve in progress
};

// ---- the API -----------------------------------------------------------------------------

async function api(command, body, signal) {
  const response = await fetch(`/api/${command}`, {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body), signal,
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || `HTTP ${response.status}`);
  return answer.records;
}

async function getJson(path) {
  const response = await fetch(path);
  return response.json();
}

function say(text, kind = "") {
  const status = $("status");
  status.textContent = text;
  status.className = kind;
}

function failed(error, where = "status") {
  if (error.name === "AbortError") return;
  if (where === "status") say(error.message, "error");
  else { $(where).textContent = error.message; $(where).className = "error"; }
}

// ---- the board ---------------------------------------------------------------------------

const size = () => game.board.size;
const index = (r, c) => (r - 1) * size() + (c - 1);
const cellOf = (i) => [Math.floor(i / size()) + 1, (i % size()) + 1];
const label = (r, c) => game.board.regions[r - 1][c - 1];
const isBlocked = (i) => { const [r, c] = cellOf(i); return label(r, c) === "#" || label(r, c) === null; };
const cellSet = (cells) => new Set((cells || []).map(([r, c]) => index(r, c)));

function givens() {
  return {stars: cellSet(game.board.given_stars), blanks: cellSet(game.board.given_blanks)};
}

function marksOf(kind) {
  const given = givens();
  const cells = [];
  game.marks.forEach((mark, i) => {
    if (mark === kind && !given.stars.has(i) && !given.blanks.has(i)) cells.push(cellOf(i));
  });
  return cells;
}

function marks() {
  return {stars: marksOf(STAR), blanks: marksOf(BLANK)};
}

function starCount() {
  return game.marks.filter((mark) => mark === STAR).length;
}

function unitCells(unit) {
  const [kind, name] = unit.split(" ");
  const cells = [];
  for (let r = 1; r <= size(); r += 1) {
    for (let c = 1; c <= size(); c += 1) {
      if ((kind === "row" && r === Number(name)) || (kind === "column" && c === Number(name))
          || (kind === "region" && label(r, c) === name)) cells.push(index(r, c));
    }
  }
  return cells;
}

function draw() {
  const element = $("board");
  const n = size();
  element.style.setProperty("--n", n);
  if (element.children.length !== n * n) {
    element.replaceChildren(...Array.from({length: n * n}, (_, i) => {
      const cell = document.createElement("div");
      cell.dataset.i = i;
      cell.setAttribute("role", "gridcell");
      return cell;
    }));
  }
  const given = givens();
  [...element.children].forEach((cell, i) => {
    const [r, c] = cellOf(i);
    const names = ["cell"];
    if (c === n) names.push("lastc"); else if (label(r, c) !== label(r, c + 1)) names.push("wr");
    if (r === n) names.push("lastr"); else if (label(r, c) !== label(r + 1, c)) names.push("wb");
    if (isBlocked(i)) names.push("blocked");
    if (game.marks[i] === STAR) names.push("star");
    if (game.marks[i] === BLANK) names.push("blank");
    if (given.stars.has(i) || given.blanks.has(i)) names.push("given");
    if (game.ghost && game.ghost.stars.has(i)) names.push("ghost-star");
    if (game.ghost && game.ghost.blanks.has(i)) names.push("ghost-blank");
    for (const [name, cells] of Object.entries(game.marked)) if (cells.has(i)) names.push(name);
    if (i === game.cursor && document.activeElement === element) names.push("cursor");
    cell.className = names.join(" ");
    cell.style.backgroundColor = game.board.colours[r - 1][c - 1] || "";
    const state = {[STAR]: "star", [BLANK]: "marked empty", [EMPTY]: "empty"}[game.marks[i]];
    cell.setAttribute("aria-label", `row ${r}, column ${c}, region ${label(r, c)}: ${state}`);
  });
  $("undo").disabled = !game.undo.length;
  $("redo").disabled = !game.redo.length;
}

function clearShown() {
  game.ghost = null;
  game.marked = {};
  game.hint = null;
  game.hintLevel = 0;
  game.steps = [];
  $("hint-text").textContent = "";
  $("hint-apply").disabled = true;
  $("step-at").textContent = "";
  $("step-prev").disabled = $("step-next").disabled = true;
  $("hide").disabled = true;
  $("other").hidden = true;
}

// ---- loading and saving ------------------------------------------------------------------

function boardText(record) {
  if (record.url) return record.url;
  const keep = ["stars", "regions", "blocked", "given_stars", "given_blanks"];
  return JSON.stringify(Object.fromEntries(keep.filter((k) => k in record).map((k) => [k, record[k]])));
}

function show(record, marks = null, seconds = 0) {
  game.board = record;
  game.text = boardText(record);
  const n = record.size;
  const given = givens();
  game.marks = Array.from({length: n * n}, (_, i) =>
    given.stars.has(i) ? STAR : given.blanks.has(i) ? BLANK : EMPTY);
  if (marks && marks.length === n * n) {
    [...marks].forEach((mark, i) => {
      if (!given.stars.has(i) && !given.blanks.has(i)) game.marks[i] = "*x".indexOf(mark) + 1;
    });
  }
  game.undo = [];
  game.redo = [];
  game.seconds = seconds;
  game.solved = false;
  game.cursor = 0;
  clearShown();
  $("solve-text").textContent = "";
  $("info").textContent = `${n}×${n}, ${record.stars} ★`;
  $("url").value = record.url || "";
  say("");
  draw();
  save();
  $("tier").textContent = "";
  grade(game.text);
}

async function grade(text) {
  try {
    const [record] = await api("grade", {board: text});
    if (game.text === text) $("tier").textContent = record.tier ? `· ${record.tier}` : "";
  } catch (error) {
    failed(error);
  }
}

async function load(text, marks = null, seconds = 0) {
  const [record] = await api("board", {board: text});
  show(record, marks, seconds);
}

function marksText() {
  return game.marks.map((mark) => ".*x"[mark]).join("");
}

function save() {
  const marks = marksText();
  const hash = `#p=${encodeURIComponent(game.text)}&m=${marks}`;
  if (location.hash !== hash) history.replaceState(null, "", hash);
  localStorage.setItem(SAVE_KEY, JSON.stringify({text: game.text, marks, seconds: game.seconds}));
}

function saved() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("p")) return {text: hash.get("p"), marks: hash.get("m"), seconds: 0};
  try {
    const kept = JSON.parse(localStorage.getItem(SAVE_KEY) || "null");
    return kept && typeof kept.text === "string" ? kept : null;
  } catch {
    return null;
  }
}

// ---- playing -----------------------------------------------------------------------------

function setMark(i, mark, changes) {
  const given = givens();
  if (isBlocked(i) || given.stars.has(i) || given.blanks.has(i) || game.marks[i] === mark) return;
  changes.push([i, game.marks[i], mark]);
  game.marks[i] = mark;
  if (mark === STAR && $("autox").checked) {
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

function commit(changes) {
  if (!changes.length) return;
  game.undo.push(changes);
  game.redo = [];
  changed();
}

function replay(from, to, forward) {
  const changes = from.pop();
  if (!changes) return;
  const order = forward ? changes : [...changes].reverse();
  for (const [i, before, after] of order) game.marks[i] = forward ? after : before;
  to.push(changes);
  game.solved = false;
  changed();
}

function changed() {
  clearShown();
  say("");
  draw();
  save();
  const mode = $("check-mode").value;
  const full = starCount() === size() * game.board.stars;
  if (mode === "always") check("all");
  else if (full) check(mode === "off" ? "done" : "errors");
}

function toggle(i, mark) {
  const changes = [];
  setMark(i, game.marks[i] === mark ? EMPTY : mark, changes);
  commit(changes);
}

let drag = null;

function cellAt(event) {
  const target = document.elementFromPoint(event.clientX, event.clientY);
  return target && target.parentElement === $("board") ? Number(target.dataset.i) : null;
}

function pointerDown(event) {
  const i = cellAt(event);
  if (i === null || !game.board) return;
  event.preventDefault();
  $("board").focus();
  game.cursor = i;
  const current = game.marks[i];
  if (event.pointerType === "touch") {
    drag = {paint: current === STAR ? EMPTY : STAR, changes: [], start: i, touch: true};
    drag.timer = setTimeout(() => {  // a long press marks an X
      if (drag && !drag.moved) {
        drag.pressed = true;
        drag.paint = current === BLANK ? EMPTY : BLANK;
        setMark(i, drag.paint, drag.changes);
        draw();
      }
    }, 500);
    return;
  }
  const mark = event.button === 2 ? BLANK : STAR;
  drag = {paint: current === mark ? EMPTY : mark, changes: [], start: i};
  setMark(i, drag.paint, drag.changes);
  draw();
}

function pointerMove(event) {
  if (!drag) return;
  const i = cellAt(event);
  if (i === null || (i === drag.start && !drag.moved)) return;
  if (drag.touch && !drag.moved) {
    clearTimeout(drag.timer);
    if (!drag.pressed) setMark(drag.start, drag.paint, drag.changes);
  }
  drag.moved = true;
  setMark(i, drag.paint, drag.changes);
  draw();
}

function pointerUp() {
  if (!drag) return;
  clearTimeout(drag.timer);
  if (drag.touch && !drag.moved && !drag.pressed) setMark(drag.start, drag.paint, drag.changes);
  const changes = drag.changes;
  drag = null;
  commit(changes);
  draw();
}

function keyDown(event) {
  if (!game.board) return;
  const n = size();
  const [r, c] = cellOf(game.cursor);
  const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  const key = event.key.toLowerCase();
  if (event.key in moves) {
    const [dr, dc] = moves[event.key];
    game.cursor = index(Math.min(n, Math.max(1, r + dr)), Math.min(n, Math.max(1, c + dc)));
    draw();
  } else if (key === " " || key === "enter") {
    toggle(game.cursor, STAR);
  } else if (key === "x") {
    toggle(game.cursor, BLANK);
  } else if (key === "backspace" || key === "delete") {
    const changes = [];
    setMark(game.cursor, EMPTY, changes);
    commit(changes);
  } else if (key === "z" && !event.shiftKey) {
    replay(game.undo, game.redo, false);
  } else if (key === "y" || (key === "z" && event.shiftKey)) {
    replay(game.redo, game.undo, true);
  } else {
    return;
  }
  event.preventDefault();
}

// ---- checking ----------------------------------------------------------------------------

let checking = null;

// What a check says: "all" (also that the marks are fine so far), "errors" (problems and the
// end), "done" (only a finished solution: auto check off).
async function check(telling = "all") {
  if (checking) checking.abort();
  checking = new AbortController();
  const body = {board: game.text, marks: marks(),
                against_solution: true};
  let record;
  try {
    [record] = await api("check", body, checking.signal);
  } catch (error) {
    failed(error);
    return;
  }
  const full = starCount() === size() * game.board.stars;
  game.marked = {};
  const good = !record.violations.length && record.extendable;
  if (telling === "done" && !(good && full)) return;
  if (record.violations.length) {
    game.marked.wrong = new Set(record.violations.flatMap((v) => [...cellSet(v.cells)]));
    say(record.violations.map((v) => v.message).join("; "), "error");
  } else if (!record.extendable) {
    game.marked.conflict = cellSet(record.conflict.map(([, cell]) => cell));
    let text = "These marks can no longer become a solution.";
    if (record.first_wrong) {
      const [kind, [wr, wc]] = record.first_wrong;
      game.marked.wrong = cellSet([[wr, wc]]);
      text += ` First wrong mark: the ${kind === "star" ? "star" : "X"} at row ${wr}, column ${wc}.`;
    }
    say(text, "error");
  } else if (full) {
    game.solved = true;
    say(`Complete! Solved in ${clock(game.seconds)}.`, "solved");
  } else if (telling === "all") {
    say("No mistakes so far: these marks can still become a solution.");
  }
  draw();
}

// ---- hints -------------------------------------------------------------------------------

async function hint() {
  if (game.hint && game.hintLevel < 3) {
    game.hintLevel += 1;
  } else {
    let records;
    $("hint").disabled = true;  // one question at a time: a second click waits for the answer
    try {
      records = await api("hint", {board: game.text, marks: marks(), timeout: 30});
    } catch (error) {
      failed(error, "hint-text");
      return;
    } finally {
      $("hint").disabled = false;
    }
    game.marked = {};
    if (!records.length || !records[0].technique) {
      $("hint-text").textContent = "No step found: the board is solved, or no technique applies.";
      return;
    }
    [game.hint] = records;
    game.hintLevel = 1;
  }
  showStep(game.hint, game.hintLevel, $("hint-text"));
  $("hint-apply").disabled = game.hintLevel < 3;
  $("hint").textContent = game.hintLevel < 3 ? "More" : "Hint";
}

function showStep(step, level, where) {
  game.marked = {};
  const premises = step.premises.units.flatMap(unitCells);
  const texts = [`Technique: ${step.technique} (level ${step.level}).`];
  if (level >= 2) {
    game.marked.unit = new Set(premises);
    game.marked.premise = cellSet(step.premises.cells);
    texts.push(`Look at ${step.premises.units.join(", ") || "the marked cells"}.`);
  }
  if (level >= 3) {
    game.marked.conclusion = cellSet([...step.conclusions.stars, ...step.conclusions.blanks]);
    texts.push(step.sentence);
  }
  where.textContent = texts.join(" ");
  draw();
}

function applyHint() {
  if (!game.hint) return;
  const changes = [];
  for (const [r, c] of game.hint.conclusions.blanks) setMark(index(r, c), BLANK, changes);
  for (const [r, c] of game.hint.conclusions.stars) setMark(index(r, c), STAR, changes);
  $("hint").textContent = "Hint";
  commit(changes);
}

async function explain() {
  let records;
  $("explain").disabled = true;
  try {
    records = await api("explain", {board: game.text, marks: marks(), timeout: 60});
  } catch (error) {
    failed(error, "hint-text");
    return;
  } finally {
    $("explain").disabled = false;
  }
  const steps = records.filter((record) => record.type === "step");
  const summary = records.find((record) => record.type === "explain");
  clearShown();
  game.steps = steps;
  game.stepAt = 0;
  const end = summary && summary.solved ? "solves the board" : "stops before the end";
  $("hint-text").textContent = `${steps.length} steps; the explanation ${end}.`;
  if (steps.length) goToStep(1);
}

function goToStep(k) {
  game.stepAt = Math.max(1, Math.min(game.steps.length, k));
  const done = game.steps.slice(0, game.stepAt - 1);
  game.ghost = {stars: cellSet(done.flatMap((s) => s.conclusions.stars)),
                blanks: cellSet(done.flatMap((s) => s.conclusions.blanks))};
  showStep(game.steps[game.stepAt - 1], 3, $("hint-text"));
  $("step-at").textContent = `step ${game.stepAt} of ${game.steps.length}`;
  $("step-prev").disabled = game.stepAt <= 1;
  $("step-next").disabled = game.stepAt >= game.steps.length;
}

// ---- solving -----------------------------------------------------------------------------

function summaryText(summary) {
  if (summary.unique === true) return "Unique: exactly one solution.";
  if (summary.unique === false) return "Not unique: there are two or more solutions.";
  return summary.complete ? "No solution." : "Time limit reached: the search is incomplete.";
}

async function solve(options) {
  if (game.running) game.running.abort();
  const running = game.running = new AbortController();
  $("stop").disabled = false;
  $("solve-text").className = "";
  $("solve-text").textContent = "Solving…";
  clearShown();
  draw();
  let records;
  try {
    records = await api("solve", {board: game.text, timeout: 30, ...options}, running.signal);
  } catch (error) {
    if (error.name === "AbortError") $("solve-text").textContent = "Stopped.";
    else failed(error, "solve-text");
    return;
  } finally {
    if (game.running === running) {
      game.running = null;
      $("stop").disabled = true;
    }
  }
  const byType = (type) => records.filter((record) => record.type === type);
  const [summary] = byType("summary");
  const [fixed] = byType("fixed");
  const [difference] = byType("difference");
  const [why] = byType("why");
  const texts = [];
  game.solutions = byType("solution").map((s) => cellSet(s.stars));
  if (difference) game.solutions.push(cellSet(difference.stars));
  if (game.solutions.length) showSolution(0);
  if (difference) {
    game.marked.differ = cellSet(difference.cells);
    texts.push(`Not unique: a second solution differs in ${difference.cells.length} cells (outlined).`);
    $("other").hidden = false;
  } else if (summary && options.count) {
    const more = summary.complete ? "" : " at least (time limit reached)";
    texts.push(`${summary.solutions} solution${summary.solutions === 1 ? "" : "s"}${more}.`);
  } else if (summary) {
    texts.push(summaryText(summary));
  }
  if (why) {
    game.marked.wrong = cellSet(why.cells);
    texts.push(`Why: ${why.sentence}`);
  }
  if (fixed) {
    if (fixed.solutions === 0) texts.push("No solution.");
    else {
      game.ghost = {stars: cellSet(fixed.stars), blanks: cellSet(fixed.blanks)};
      texts.push(`Forced: ${fixed.stars.length} stars and ${fixed.blanks.length} empty cells are `
                 + `the same in every solution; ${fixed.open} cells are open.`);
    }
  }
  $("hide").disabled = !(game.ghost || Object.keys(game.marked).length);
  $("solve-text").textContent = texts.join(" ");
  draw();
}

function showSolution(k) {
  game.shownSolution = k;
  game.ghost = {stars: game.solutions[k], blanks: new Set()};
  draw();
}

// ---- export ------------------------------------------------------------------------------

async function download(format) {
  let record;
  try {
    [record] = await api("convert", {board: game.text, to: format});
  } catch (error) {
    failed(error);
    return;
  }
  const link = document.createElement("a");
  link.href = record.base64 ? `data:image/png;base64,${record.base64}`
    : URL.createObjectURL(new Blob([record.text], {type: "image/svg+xml"}));
  link.download = `starbattle-${size()}x${size()}.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
}

// ---- the screenshot ----------------------------------------------------------------------

function readImage(file) {
  const reader = new FileReader();
  reader.onload = async () => {
    const data = String(reader.result).split(",")[1];
    try {
      const [record] = await api("import", {image: data});
      show(record);
      $("source").value = boardText(record);
      say("Read from the screenshot: check the regions; fix the text under Load if needed.");
    } catch (error) {
      failed(error);
    }
  };
  reader.readAsDataURL(file);
}

// ---- the timer and the start -------------------------------------------------------------

function clock(seconds) {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

function tick() {
  if (game.board && !game.solved && document.visibilityState === "visible") {
    game.seconds += 1;
    if (game.seconds % 5 === 0) save();
  }
  $("timer").textContent = clock(game.seconds);
}

function on(id, handler) {
  $(id).addEventListener("click", () => { if (game.board || id === "load") handler(); });
}

async function start() {
  const board = $("board");
  board.addEventListener("pointerdown", pointerDown);
  board.addEventListener("pointermove", pointerMove);
  window.addEventListener("pointerup", pointerUp);
  window.addEventListener("pointercancel", pointerUp);
  board.addEventListener("contextmenu", (event) => event.preventDefault());
  board.addEventListener("keydown", keyDown);
  board.addEventListener("focus", () => game.board && draw());
  board.addEventListener("blur", () => game.board && draw());
  on("undo", () => replay(game.undo, game.redo, false));
  on("redo", () => replay(game.redo, game.undo, true));
  on("clear", () => {
    const changes = [];
    game.marks.forEach((_, i) => setMark(i, EMPTY, changes));
    commit(changes);
  });
  on("check", () => check("all"));
  on("hint", hint);
  on("hint-apply", applyHint);
  on("explain", explain);
  on("step-prev", () => goToStep(game.stepAt - 1));
  on("step-next", () => goToStep(game.stepAt + 1));
  on("solve", () => solve({}));
  on("fixed", () => solve({fixed: true}));
  on("count", () => solve({count: true}));
  on("stop", () => game.running && game.running.abort());
  on("other", () => showSolution((game.shownSolution + 1) % game.solutions.length));
  on("hide", () => { clearShown(); $("solve-text").textContent = ""; draw(); });
  on("load", () => load($("source").value.trim()).catch(failed));
  on("svg", () => download("svg"));
  on("png", () => download("png"));
  $("instance").addEventListener("change", () => {
    const chosen = $("instance").selectedOptions[0];
    if (chosen.value) load(chosen.dataset.text).catch(failed);
  });
  $("generate").addEventListener("click", async () => {
    const tier = $("gen-tier").value;
    say(tier ? `Generating until one is ${tier}…` : "Generating…");
    try {
      const [made] = await api("generate", {
        size: Number($("gen-size").value), stars: Number($("gen-stars").value),
        seed: String(Date.now()), timeout: 60, ...(tier ? {tier} : {})});
      await load(JSON.stringify({stars: made.stars, regions: made.regions}));
      if (made.note) say(made.note);
    } catch (error) {
      failed(error);
    }
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    if (event.dataTransfer.files.length) readImage(event.dataTransfer.files[0]);
  });
  $("image").addEventListener("change", () => $("image").files[0] && readImage($("image").files[0]));

  game.features = await getJson("/api/features");
  $("drop").hidden = !game.features.import;
  const instances = await getJson("/api/instances");
  for (const instance of instances) {
    const option = new Option(instance.name, instance.name);
    option.dataset.text = instance.text;
    $("instance").append(option);
  }
  setInterval(tick, 1000);
  const given = (await getJson("/api/start")).board;
  const kept = location.hash.includes("p=") || !given ? saved() : null;
  const first = given || (instances[0] && instances[0].text);
  try {
    if (kept) await load(kept.text, kept.marks, kept.seconds || 0);
    else if (first) await load(first);
  } catch (error) {
    failed(error);
    if (first) await load(first).catch(failed);
  }
  document.body.dataset.ready = "yes";
}

start();
