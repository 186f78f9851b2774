// Hints and the whole explanation, said the way the board shows things: regions by the
// name written in them and their colour, the units a step rests on outlined strongly, and
// what it concludes previewed as ghost stars and Xs before Apply marks them. A trial's
// whole step lists its chain, which the player can follow line by line (chain.js).

import {records} from "./api.js";
import {draw, lightStep, regionWords, withColours} from "./board.js";
import {showChain} from "./chain.js";
import {BLANK, STAR, commit, game, index, marks, save, setMark} from "./state.js";
import {$, counted, enable, failed, tell} from "./ui.js";

const HINT_SECONDS = 10, EXPLAIN_SECONDS = 30;

const plainNames = new Map();  // technique -> its name for people (/api/techniques)

export function knowTechniques(record) {
  for (const technique of record.techniques) plainNames.set(technique.name, technique.plain);
}

// A technique's name for people, from the technique registry (else its own, in words).
const plain = (step) => plainNames.get(step.technique) || step.technique.replaceAll("-", " ");

const unitWords = (unit) => unit.startsWith("region ") ? regionWords(unit.slice(7)) : unit;

// Clear what a hint or an explanation shows on the board (not what a solve shows).
export function clearHint() {
  game.hint = null;
  game.hintLevel = 0;
  game.steps = [];
  lightStep(null, 0);
  showChain(null);
  tell("hint-text", "");
  $("step-at").textContent = "";
  enable("hint-apply", false);
  enable("step-prev", false);
  enable("step-next", false);
}

// Show a step to a level: 1 the technique, 2 where to look, 3 the whole step (and its chain).
function showStep(step, level, lead) {
  lightStep(step, level);
  const texts = [`${lead}: ${plain(step)}.`];
  if (level >= 2) {
    const units = step.premises.units.map(unitWords);
    texts.push(units.length ? `Look at ${units.join(", ")}.` : "Look at the outlined cells.");
  }
  if (level >= 3) texts.push(`${withColours(step.sentence)}.`);
  tell("hint-text", texts.join(" "));
  showChain(level >= 3 ? step : null, () => {
    lightStep(step, level);
    draw();
  });
  draw();
}

export async function hint() {
  if (game.hint && game.hintLevel < 3) {
    game.hintLevel += 1;
  } else {
    tell("hint-text", "Looking for the next step…");
    enable("hint-stop", true);
    let answer;
    try {
      answer = await records("hint", {board: game.text, marks: marks(), timeout: HINT_SECONDS});
    } catch (error) {
      failed(error.status === 504 ? new Error(`No step found within ${HINT_SECONDS} s.`) : error,
             "hint-text");
      return;
    } finally {
      enable("hint-stop", false);
    }
    clearHint();
    const [record] = answer;
    if (!record || record.type !== "step") {
      tell("hint-text", record && record.type === "solved" ? "Your marks are the solution."
        : "No technique finds a next step from these marks.");
      draw();
      return;
    }
    game.hint = record;
    game.hintLevel = 1;
    game.hints += 1;
    save();
  }
  showStep(game.hint, game.hintLevel, `Hint ${game.hintLevel} of 3`);
  enable("hint-apply", game.hintLevel === 3);
}

// The Hint button's word: "More" only while a hint is shown and has more to say.
export const hintLabel = () => game.hint && game.hintLevel < 3 ? "More" : "Hint";

export function applyHint() {
  if (!game.hint) return;
  const changes = [];
  for (const [r, c] of game.hint.conclusions.blanks) setMark(index(r, c), BLANK, changes);
  for (const [r, c] of game.hint.conclusions.stars) setMark(index(r, c), STAR, changes);
  clearHint();
  commit(changes);
}

export async function explain() {
  tell("hint-text", "Explaining the whole solution…");
  enable("hint-stop", true);
  let answer;
  try {
    answer = await records("explain", {board: game.text, marks: marks(), timeout: EXPLAIN_SECONDS},
                           "hint");
  } catch (error) {
    failed(error, "hint-text");
    return;
  } finally {
    enable("hint-stop", false);
  }
  clearHint();
  game.steps = answer.filter((record) => record.type === "step");
  game.hints += 1;
  save();
  const summary = answer.find((record) => record.type === "explain");
  const end = summary && summary.solved ? "solve the board"
    : summary && !summary.complete ? `are all found within ${EXPLAIN_SECONDS} s` : "stop before the end";
  tell("hint-text", `${counted(game.steps.length, "step")} ${end}.`);
  if (game.steps.length) goToStep(1);
}

export function goToStep(k) {
  game.stepAt = Math.max(1, Math.min(game.steps.length, k));
  showStep(game.steps[game.stepAt - 1], 3, `Step ${game.stepAt}`);
  $("step-at").textContent = `step ${game.stepAt} of ${game.steps.length}`;
  enable("step-prev", game.stepAt > 1);
  enable("step-next", game.stepAt < game.steps.length);
}
