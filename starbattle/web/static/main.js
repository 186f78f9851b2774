// The page of `starbattle-asp serve`: wires the parts together and opens the first puzzle.

import {getJson, stop, stopAll} from "./api.js";
import {draw, layout, zoom} from "./board.js";
import {listenChain} from "./chain.js";
import {applyHint, clearHint, explain, goToStep, hint, hintLabel, knowTechniques} from "./hints.js";
import {enterEdit, fillEditForm, listenEdit} from "./edit.js";
import {exportSketch} from "./export.js";
import {suggestFix} from "./fixes.js";
import {listen, setMode} from "./input.js";
import {listenPaint} from "./paint.js";
import {check, clearSolve, clock, showSolution, solve} from "./play.js";
import {copyLink, download, fillDaily, fillInstances, fillMakeForm, generate, listenMakeForm,
        load, next, openInstance, openSource, readImage, stopMaking} from "./sources.js";
import {EMPTY, addressed, commit, endTrial, full, game, keep, kept, replay, save, setMark,
        shareText} from "./state.js";
import {addressedSketch, knowPalette} from "./sketch.js";
import {$, enable, failed, on, say} from "./ui.js";
import {forced, knowEfforts} from "./verdict.js";

const SAVE_EVERY = 5;

// The buttons that follow the game's state.
function refresh() {
  enable("undo", game.undo.length > 0);
  enable("redo", game.redo.length > 0);
  $("hint").textContent = hintLabel();
  $("trial").setAttribute("aria-pressed", String(game.trial));
  $("trial-keep").hidden = $("trial-drop").hidden = !game.trial;
  $("timer").textContent = clock(game.seconds);
}

// After every change of marks (or a new board, `marked` false): draw, keep, check as asked.
game.onChange = (marked = true) => {
  if (marked) {
    clearHint();
    clearSolve();
    say("");
    game.solved = false;
  }
  draw();
  refresh();
  save();
  if (!marked) return;
  const mode = $("check-mode").value;
  if (mode === "always") check("all");
  else if (full()) check(mode === "off" ? "done" : "errors");
};

function tick() {
  const playing = game.board && !game.editing && !game.solved && document.visibilityState === "visible";
  if (playing) {
    game.seconds += 1;
    if (game.seconds % SAVE_EVERY === 0) save();
  }
  if (game.board) $("timer").textContent = clock(game.seconds);
}

function showLegend(shown) {
  $("legend").hidden = !shown;
  $("help").setAttribute("aria-expanded", String(shown));
  keep((all) => { all.legendHidden = !shown; });
  layout();
  draw();
}

// A button that needs a puzzle: with none open (its server failed to give one), it says so.
function onBoard(id, handler) {
  on(id, (event) => game.board ? handler(event) : failed(new Error(
    "No puzzle is open: make one, choose a shipped one or paste one under New puzzle.")));
}

function wire() {
  listen();
  listenPaint();
  listenChain();
  listenEdit();
  listenMakeForm();
  on("undo", () => replay(false));
  on("redo", () => replay(true));
  on("trial", () => {
    if (game.trial) endTrial(true);
    else { game.trial = true; refresh(); say("Trial: your next marks are a guess (purple). Keep or Drop them."); }
  });
  on("trial-keep", () => endTrial(true));
  on("trial-drop", () => endTrial(false));
  on("zoom-in", () => zoom(1));
  on("zoom-out", () => zoom(-1));
  on("clear", () => {
    const changes = [];
    game.marks.forEach((_, i) => setMark(i, EMPTY, changes));
    commit(changes);
  });
  onBoard("check", () => check("all"));
  onBoard("hint", async () => { await hint(); refresh(); });
  on("hint-apply", applyHint);
  on("hint-stop", () => stop("hint"));
  onBoard("explain", async () => { await explain(); refresh(); });
  on("step-prev", () => goToStep(game.stepAt - 1));
  on("step-next", () => goToStep(game.stepAt + 1));
  onBoard("solve", () => solve({}));
  onBoard("fixed", () => solve({fixed: true}));
  onBoard("count", () => solve({count: true}));
  on("stop", () => stop("solve"));
  on("other", () => showSolution(game.shownSolution + 1));
  on("hide", () => { clearSolve(); clearHint(); $("solve-text").textContent = ""; draw(); });
  on("load", openSource);
  on("generate", generate);
  on("gen-stop", stopMaking);
  onBoard("copy-link", () => copyLink(false));
  onBoard("copy-marks", () => copyLink(true));
  onBoard("svg", () => download("svg"));
  onBoard("png", () => download("png"));
  onBoard("forced", forced);
  on("suggest", suggestFix);
  on("export-copy", () => exportSketch("copy"));
  on("export-download", () => exportSketch("download"));
  on("done-next", next);
  on("done-close", () => $("done").close());
  on("legend-close", () => { showLegend(false); $("help").focus(); });
  on("help", () => showLegend($("legend").hidden));
  $("instance").addEventListener("change", openInstance);
  $("image").addEventListener("change", () => $("image").files[0] && readImage($("image").files[0]));
  document.addEventListener("solved", fillDaily);
  window.addEventListener("hashchange", () => {  // a link pasted into this page's address
    const address = addressed();
    if (address && address.text !== shareText()) load(address.text, address.marks).catch(failed);
  });
  window.addEventListener("resize", () => { layout(); draw(); });
  window.addEventListener("pagehide", () => { save(); stopAll(); });
  document.addEventListener("visibilitychange", save);
}

// The first puzzle: the address's, else the one `serve FILE` was given, else the last one
// played, else the first shipped one (api.FIRST_PUZZLE); each with the progress this browser keeps for it. An
// address of edit mode (#e=BOARD) opens edit mode with that board over it.
async function start() {
  wire();
  $("legend").hidden = Boolean(kept().legendHidden);
  $("help").setAttribute("aria-expanded", String(!$("legend").hidden));
  let answers;
  try {
    answers = await Promise.all(
      ["/api/features", "/api/instances", "/api/makeable", "/api/techniques", "/api/setter",
       "/api/start"].map(getJson));
  } catch (error) {
    failed(new Error(`The page's server did not answer (${error.message}): is `
                     + "`starbattle-asp serve` still running? Reload the page once it is."));
    document.body.dataset.ready = "yes";
    return;
  }
  const [features, shipped, makeable, techniques, setter, started] = answers;
  $("drop").hidden = !features.import;
  knowTechniques(techniques);
  fillInstances(shipped);
  fillMakeForm(makeable.boards);
  knowPalette(setter.palette);
  knowEfforts(setter.efforts);
  fillEditForm(setter);
  fillDaily();
  setInterval(tick, 1000);
  const sketched = addressedSketch();  // read before a puzzle opened changes the address
  const address = addressed();
  const first = shipped[0] && shipped[0].text;
  try {
    if (address) await load(address.text, address.marks);
    else if (started.board || kept().last || first) await load(started.board || kept().last || first);
  } catch (error) {
    if (first) await load(first).catch(failed);
    failed(new Error(`The puzzle asked for could not be opened (${error.message}); here is a `
                     + "shipped one."));
  }
  if (sketched) enterEdit(sketched);
  document.body.dataset.ready = "yes";
}

setMode("star");
start();
