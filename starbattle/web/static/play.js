// Checking the marks, solving, and the moment the puzzle is solved.

import {records} from "./api.js";
import {draw, withColours} from "./board.js";
import {clearHint} from "./hints.js";
import {cellSet, full, game, keep, kept, marks, save} from "./state.js";
import {$, counted, enable, failed, forcedText, say, tell} from "./ui.js";

const SOLVE_SECONDS = 30;

export function clock(seconds) {
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

// What a check says: "all" (also that the marks are fine so far), "errors" (only problems,
// and the end), "done" (a full board: solved, or that it is not right yet).
export async function check(telling = "all") {
  let record;
  try {
    [record] = await records("check", {board: game.text, marks: marks(), against_solution: true});
  } catch (error) {
    failed(error);
    return;
  }
  clearHint();
  const good = !record.violations.length && record.extendable;
  if (telling === "done" && good && !full()) return;
  if (telling === "done" && !good) {
    say("The board is full but not solved yet: press Check to see where.", "error");
  } else if (record.violations.length) {
    game.marked.wrong = new Set(record.violations.flatMap((v) => [...cellSet(v.cells)]));
    say(withColours(record.violations.map((v) => v.message).join("; ")), "error");
  } else if (!record.extendable) {
    game.marked.conflict = cellSet(record.conflict.map(([, cell]) => cell));
    let text = "These marks can no longer become a solution.";
    if (record.first_wrong) {
      const [what, [wr, wc]] = record.first_wrong;
      game.marked.wrong = cellSet([[wr, wc]]);
      text += ` First wrong mark: the ${what === "star" ? "star" : "X"} at row ${wr}, column ${wc}.`;
    }
    say(text, "error");
  } else if (full()) {
    solved();
  } else if (telling === "all") {
    say("No mistakes so far: these marks can still become a solution.");
  }
  draw();
}

// The end: the time, the hints used, the streak of a daily puzzle, and what to play next.
function solved() {
  game.solved = true;
  let streak = "";
  if (game.daily) {
    keep((all) => {
      const streaks = all.streaks || {};
      const last = streaks[game.daily.tier] || {date: "", days: 0};
      const yesterday = new Date(`${game.daily.date}T12:00:00Z`);
      yesterday.setUTCDate(yesterday.getUTCDate() - 1);
      if (last.date !== game.daily.date) {
        const days = last.date === yesterday.toISOString().slice(0, 10) ? last.days + 1 : 1;
        streaks[game.daily.tier] = {date: game.daily.date, days};
      }
      all.streaks = streaks;
    });
    const days = kept().streaks[game.daily.tier].days;
    streak = ` Daily ${game.daily.tier} streak: ${counted(days, "day")}.`;
  }
  save();
  document.dispatchEvent(new Event("solved"));
  const hints = counted(game.hints, "hint");
  const text = `Solved in ${clock(game.seconds)} with ${hints}.${streak}`;
  say(`Complete! ${text}`, "solved");
  $("done-text").textContent = text;
  if (!$("done").open) $("done").showModal();
  $("done-next").focus();
}

function summaryText(summary) {
  if (summary.unique === true) return "Unique: exactly one solution.";
  if (summary.unique === false) return "Not unique: there are two or more solutions.";
  return summary.complete ? "No solution." : "Time limit reached: the search is incomplete.";
}

export function clearSolve() {
  game.ghost = null;
  game.solutions = [];
  delete game.marked.differ;
  $("other").hidden = true;
  enable("hide", false);
}

export async function solve(options) {
  tell("solve-text", "Solving…");
  enable("stop", true);
  clearSolve();
  clearHint();
  draw();
  let answer;
  try {
    answer = await records("solve", {board: game.text, timeout: SOLVE_SECONDS, ...options});
  } catch (error) {
    failed(error, "solve-text");
    return;
  } finally {
    enable("stop", false);
  }
  const byType = (type) => answer.filter((record) => record.type === type);
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
    texts.push(`Not unique: a second solution differs in ${counted(difference.cells.length, "cell")} (outlined).`);
    $("other").hidden = false;
  } else if (summary && options.count) {
    const more = summary.complete ? "" : " at least (time limit reached)";
    texts.push(`${counted(summary.solutions, "solution")}${more}.`);
  } else if (summary) {
    texts.push(summaryText(summary));
  }
  if (why) {
    game.marked.wrong = cellSet(why.cells);
    texts.push(`Why: ${withColours(why.sentence)}`);
  }
  if (fixed) {
    if (fixed.solutions === 0) texts.push("No solution.");
    else {
      game.ghost = {stars: cellSet(fixed.stars), blanks: cellSet(fixed.blanks)};
      texts.push(forcedText(fixed));
    }
  }
  enable("hide", Boolean(game.ghost || game.marked.differ || game.marked.wrong));
  tell("solve-text", texts.join(" "));
  draw();
}

export function showSolution(k) {
  game.shownSolution = k % game.solutions.length;
  game.ghost = {stars: game.solutions[game.shownSolution], blanks: new Set()};
  draw();
}

// On opening a puzzle: a warning when it has no solution or several, and its tier.
export async function judge(text) {
  tell("warning", "");
  try {
    const [found] = (await records("solve", {board: text, timeout: 10}, "judge"))
      .filter((record) => record.type === "summary");
    if (game.text === text && found.solutions === 0) {
      tell("warning", "This puzzle has no solution: no placement of stars keeps every rule.", "error");
    } else if (game.text === text && found.unique === false) {
      tell("warning", "This puzzle has more than one solution: hints can decide only what every "
           + "solution shares, and Check compares with one of them.", "error");
    }
    const [grade] = await records("grade", {board: text, timeout: 10}, "judge");
    if (game.text === text) $("tier").textContent = grade.tier ? `· ${grade.tier}` : "";
  } catch (error) {
    if (error.name !== "AbortError" && game.text === text) $("tier").textContent = "";
  }
}
