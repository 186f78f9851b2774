// The live verdict while a setter draws: after each edit (150 ms after the last of a quick
// run) the board is judged on a channel of its own, so a newer edit stops the older question,
// and an answer about any board but the newest is never shown. Then, for a unique board, its
// grade on a second channel; forced cells when asked.

import {records, stop} from "./api.js";
import {draw, withColours} from "./board.js";
import {clearHint} from "./hints.js";
import {cellSet, game} from "./state.js";
import {counted, failed, forcedText, say, tell} from "./ui.js";

const DEBOUNCE_MS = 150, VERDICT_SECONDS = 10, GRADE_SECONDS = 30;
const CHANNELS = ["verdict", "edit-grade", "edit-fixed"];
let efforts = [];  // the grade's effort classes by index (/api/setter)
let asked = 0;     // edits so far: an answer is shown only if no edit came after its question
let timer = null;

export function knowEfforts(names) {
  efforts = names;
}

// What the verdict shows on the board, cleared.
export function clearVerdict() {
  game.marked = {};
  game.ghost = null;
}

// After an edit: stop what was asked about the board before it, and judge the new one soon.
export function judgeSoon() {
  asked += 1;
  clearTimeout(timer);
  for (const channel of CHANNELS) stop(channel);
  clearHint();
  clearVerdict();
  tell("verdict", "Judging…");
  const mine = asked;
  timer = setTimeout(() => judge(mine), DEBOUNCE_MS);
}

// Leaving edit mode: nothing pending is shown any more.
export function stopJudging() {
  asked += 1;
  clearTimeout(timer);
  for (const channel of CHANNELS) stop(channel);
}

const current = (mine) => mine === asked && game.editing;

async function judge(mine) {
  let record;
  try {
    [record] = await records("verdict", {board: game.text, grade: false, timeout: VERDICT_SECONDS},
                             "verdict");
  } catch (error) {
    if (current(mine)) failed(error, "verdict");
    return;
  }
  if (!current(mine)) return;
  tell("verdict", verdictText(record), record.unique ? "" : "error");
  draw();
  if (record.unique) grade(mine);
}

// The verdict in words, with the cells it names lit.
function verdictText(record) {
  if (!record.valid) {
    game.marked.wrong = cellSet(record.problems.flatMap((problem) => problem.cells));
    return `Regions not valid: ${record.problems.map((p) => withColours(p.message)).join(". Also: ")}.`;
  }
  if (record.solutions === null) return `Not decided within ${VERDICT_SECONDS} s.`;
  if (record.solutions === 0) {
    if (!record.why) return "No solution.";
    game.marked.wrong = cellSet(record.why.cells);
    return `No solution. Why: ${withColours(record.why.sentence)}`;
  }
  if (record.solutions === 2) {
    const cells = record.difference.cells;
    game.marked.differ = cellSet(cells);
    game.ghost = {stars: cellSet(record.difference.another), blanks: new Set()};
    return `2 or more solutions: a second solution (faint stars) differs in ${cells.length} `
      + "cells (outlined).";
  }
  return "Unique: exactly one solution. Grading…";
}

async function grade(mine) {
  let record;
  try {
    [record] = await records("grade", {board: game.text, timeout: GRADE_SECONDS}, "edit-grade");
  } catch (error) {
    if (current(mine)) tell("verdict", `Unique: exactly one solution (not graded: ${error.message}).`);
    return;
  }
  if (!current(mine)) return;
  const hardest = efforts[record.features.effort];
  tell("verdict", record.tier
    ? `Unique: exactly one solution; ${record.tier} (score ${record.score}), hardest step: ${hardest}.`
    : `Unique: exactly one solution (${record.reason || "no grade"}).`);
}

// The cells every solution agrees on, drawn as faint stars and dots.
export async function forced() {
  const mine = asked;
  say("Finding the forced cells…");
  let record;
  try {
    [record] = await records("verdict", {board: game.text, grade: false, fixed: true,
                                         timeout: GRADE_SECONDS}, "edit-fixed");
  } catch (error) {
    if (current(mine)) failed(error);
    return;
  }
  if (!current(mine)) return;
  if (!record.fixed) {
    say(record.valid ? "No solution: no cell is forced." : "Fix the regions first.", "error");
    return;
  }
  const {stars, blanks} = record.fixed;
  game.ghost = {stars: cellSet(stars), blanks: cellSet(blanks)};
  say(forcedText(record.fixed));
  draw();
}
