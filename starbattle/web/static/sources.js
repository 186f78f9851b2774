// Where puzzles come from and go: opening any board (address, text, shipped, screenshot),
// making one, the daily puzzles, and links and pictures to share.

import {records, stop} from "./api.js";
import {layout} from "./board.js";
import {clearHint} from "./hints.js";
import {clearSolve, judge} from "./play.js";
import {game, kept, link, progressOf, save, shareText, startMarks} from "./state.js";
import {$, counted, enable, failed, saveConverted, say, tell} from "./ui.js";

const MAKE_SECONDS = 60;
const TIERS = ["easy", "medium", "hard", "expert", "extreme"];
let makeable = [];
let instances = [];

// The board's own JSON (of a board record, or of a puzzle made): what every request sends, so that a step's "region B" is the
// region the board shows as B whatever the board was read from (a URL names them anew).
export function boardText(record) {
  const keepKeys = ["stars", "regions", "blocked", "given_stars", "given_blanks"];
  return JSON.stringify(Object.fromEntries(keepKeys.filter((k) => k in record).map((k) => [k, record[k]])));
}

// The board's size and star count beside the title (a phone leaves the count to the rules
// below it: room for the tier), and the rules for that star count.
export function describe(size, stars, lead = "") {
  const count = document.createElement("span");
  count.className = "wide-only";
  count.textContent = `, ${stars} ★`;
  $("info").replaceChildren(`${lead}${size}×${size}`, count);
  $("rules").textContent = `Place ${counted(stars, "star")} in every `
    + "row, column and region; stars never touch, not even at a corner.";
}

// Show a board with this puzzle's kept progress (marks from a link win over kept ones).
export function show(record, linkMarks = "", daily = null) {
  game.board = record;
  game.text = boardText(record);
  const progress = progressOf(shareText()) || {};
  game.marks = startMarks(record, linkMarks || progress.marks);
  game.undo = [];
  game.redo = [];
  game.seconds = progress.seconds || 0;
  game.hints = progress.hints || 0;
  game.solved = Boolean(progress.solved) && !linkMarks;
  game.daily = daily || progress.daily || null;
  game.cursor = 0;
  game.trial = game.marks.some((mark) => "SXO".includes(mark));
  clearHint();
  clearSolve();
  tell("solve-text", "");
  describe(record.size, record.stars);
  $("url").value = record.url || "";
  $("link").value = link(false);
  $("tier").textContent = "";
  say("");
  layout();
  game.onChange(false);
  save();
  judge(game.text);
}

export async function load(text, linkMarks = "") {
  const [record] = await records("board", {board: text}, "load");
  show(record, linkMarks);
}

export function openSource() {
  const text = $("source").value.trim();
  if (!text) {
    say("Paste a puzz.link address, an SBN line or a board's text first.", "error");
    return;
  }
  load(text).catch((error) => failed(error));
}

// ---- making puzzles ------------------------------------------------------------------------

function options(select, values, chosen) {
  select.replaceChildren(...values.map(([value, words]) => new Option(words, value, false,
                                                                      String(value) === String(chosen))));
}

// The make form offers only what can be made: star counts of the size, tiers measured.
export function fillMakeForm(boards) {
  makeable = boards;
  const sizes = [...new Set(boards.map((b) => b.size))];
  options($("gen-size"), sizes.map((n) => [n, `${n}×${n}`]), 10);
  fillStars();
}

function fillStars() {
  const n = Number($("gen-size").value);
  const chosen = $("gen-stars").value || 2;
  const stars = makeable.filter((b) => b.size === n).map((b) => [b.stars, `${b.stars} ★`]);
  options($("gen-stars"), stars, stars.some(([s]) => String(s) === String(chosen)) ? chosen : 1);
  fillTiers();
}

function fillTiers() {
  const n = Number($("gen-size").value), s = Number($("gen-stars").value);
  const board = makeable.find((b) => b.size === n && b.stars === s);
  const chosen = $("gen-tier").value;
  options($("gen-tier"), [["", "any"], ...board.tiers.map((t) => [t, t])],
          board.tiers.includes(chosen) ? chosen : "");
}

// Making runs with a Stop and a bar of the time it may take; the button is off meanwhile.
async function making(what, request) {
  enable("generate", false);
  enable("gen-stop", true);
  for (const button of document.querySelectorAll("#daily button")) enable(button.id, false);
  const bar = $("gen-progress");
  const started = Date.now();
  bar.hidden = false;
  bar.max = MAKE_SECONDS;
  const ticking = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    bar.value = seconds;
    tell("make-text", `Making ${what}… ${seconds} s (at most ${MAKE_SECONDS} s)`);
  }, 250);
  tell("make-text", `Making ${what}…`);
  try {
    const [made] = await records(request.command, request.body, "make");
    tell("make-text", "");
    return made;
  } catch (error) {
    // the library's advice names command-line options: a player gets it in a player's words
    const unmade = new Error(`Could not make ${what} this time: try again, or choose another `
                             + "size or difficulty.");
    failed([400, 504].includes(error.status) ? unmade : error, "make-text");
    return null;
  } finally {
    clearInterval(ticking);
    bar.hidden = true;
    enable("generate", true);
    enable("gen-stop", false);
    for (const button of document.querySelectorAll("#daily button")) enable(button.id, true);
  }
}

export async function generate() {
  const size = Number($("gen-size").value), stars = Number($("gen-stars").value);
  const tier = $("gen-tier").value;
  const what = `a ${size}×${size} ${stars} ★ puzzle${tier ? ` (${tier})` : ""}`;
  const made = await making(what, {command: "generate", body: {
    size, stars, seed: String(Date.now()), timeout: MAKE_SECONDS, ...(tier ? {tier} : {})}});
  if (made) await load(boardText(made)).catch((error) => failed(error, "make-text"));
}

export const today = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
};

export async function daily(tier) {
  const date = today();
  const made = await making(`the ${tier} puzzle of ${date}`,
                            {command: "daily", body: {date, tier, timeout: MAKE_SECONDS}});
  if (!made) return;
  const [record] = await records("board", {board: boardText(made)}, "load");
  show(record, "", {date, tier});
}

export function fillDaily() {
  const streaks = kept().streaks || {};
  $("daily").replaceChildren($("daily").firstElementChild, ...TIERS.map((tier) => {
    const button = document.createElement("button");
    button.id = `daily-${tier}`;
    const days = streaks[tier] && streaks[tier].date >= yesterday() ? streaks[tier].days : 0;
    button.textContent = days ? `${tier} (streak ${days})` : tier;
    button.setAttribute("aria-disabled", "false");
    button.addEventListener("click", () => button.getAttribute("aria-disabled") !== "true" && daily(tier));
    return button;
  }));
}

function yesterday() {
  const day = new Date(`${today()}T12:00:00Z`);
  day.setUTCDate(day.getUTCDate() - 1);
  return day.toISOString().slice(0, 10);
}

// After a solved puzzle: the next tier's daily puzzle, a new one of the same kind, or the
// next shipped one.
export function next() {
  $("done").close();
  if (game.daily) {
    const tier = TIERS[Math.min(TIERS.length - 1, TIERS.indexOf(game.daily.tier) + 1)];
    daily(tier);
  } else if (makeable.some((b) => b.size === game.board.size && b.stars === game.board.stars)) {
    $("gen-size").value = game.board.size;
    fillStars();
    $("gen-stars").value = game.board.stars;
    fillTiers();
    generate();
  } else if (instances.length) {
    const at = instances.findIndex((instance) => instance.name === $("instance").value);
    const instance = instances[(at + 1) % instances.length];
    $("instance").value = instance.name;
    load(instance.text).catch((error) => failed(error));
  }
}

export function fillInstances(shipped) {
  instances = shipped;
  for (const instance of shipped) $("instance").append(new Option(instance.name, instance.name));
}

export function openInstance() {
  const chosen = instances.find((instance) => instance.name === $("instance").value);
  if (chosen) load(chosen.text).catch((error) => failed(error));
}

export function listenMakeForm() {
  $("gen-size").addEventListener("change", fillStars);
  $("gen-stars").addEventListener("change", fillTiers);
}

export const stopMaking = () => stop("make");

// ---- sharing -------------------------------------------------------------------------------

export async function copyLink(withMarks) {
  const text = link(withMarks);
  $("link").value = text;
  try {
    await navigator.clipboard.writeText(text);
    say(withMarks ? "Link with your marks copied." : "Link to the puzzle copied.");
  } catch {
    $("link").select();
    say("Copy the link from the Share panel.");
  }
}

export async function download(format) {
  let record;
  try {
    [record] = await records("convert", {board: game.text, to: format});
  } catch (error) {
    failed(error);
    return;
  }
  saveConverted(record, `starbattle-${game.board.size}x${game.board.size}.${format}`);
}

export function readImage(file) {
  const reader = new FileReader();
  reader.onload = async () => {
    const data = String(reader.result).split(",")[1];
    try {
      const [record] = await records("import", {image: data}, "load");
      show(record);
      $("source").value = game.text;
      say("Read from the screenshot: check the regions; fix the text under New puzzle if needed.");
    } catch (error) {
      failed(error);
    }
  };
  reader.readAsDataURL(file);
}
