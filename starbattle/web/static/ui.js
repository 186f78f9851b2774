// Small helpers every part of the page uses: elements by id, messages, busy buttons.

export const $ = (id) => document.getElementById(id);

// A narrow screen (style.css's breakpoint): one column, the toolbar under the board.
export const NARROW = matchMedia("(max-width: 799px)");

// One line in a message area (the areas keep their height: nothing below them moves).
export function tell(where, text, kind = "") {
  const element = $(where);
  element.textContent = text;
  element.className = kind;
}

// A count with its noun: "1 star", "3 stars", "2 fixes" (the page's one pluraliser).
export const counted = (count, word, many = `${word}s`) => `${count} ${count === 1 ? word : many}`;

// The cells every solution agrees on (a `fixed` record), in words.
export const forcedText = ({stars, blanks, open}) =>
  `Forced: ${counted(stars.length, "star")} and ${counted(blanks.length, "empty cell")} are the `
  + `same in every solution; ${counted(open, "cell")} ${open === 1 ? "is" : "are"} open.`;

export function say(text, kind = "") {
  tell("status", text, kind);
}

// A request's failure said where its answer would have gone; a stopped request says so.
export function failed(error, where = "status") {
  tell(where, error.name === "AbortError" ? "Stopped." : error.message,
       error.name === "AbortError" ? "" : "error");
}

// Buttons are never `disabled` while focused (focus would fall to the page): aria-disabled
// says they are off, and `enabled` tells their handlers.
export function enable(id, on) {
  $(id).setAttribute("aria-disabled", on ? "false" : "true");
}

export const enabled = (id) => $(id).getAttribute("aria-disabled") !== "true";

// A click (or Enter, or Space) on a button that is on; the handler's promise is awaited.
export function on(id, handler) {
  $(id).addEventListener("click", (event) => {
    if (enabled(id)) handler(event);
  });
}

// Download a `convert` record as a file: its text, or a PNG's base64.
export function saveConverted(record, name) {
  const anchor = document.createElement("a");
  anchor.href = record.base64 ? `data:image/png;base64,${record.base64}`
    : URL.createObjectURL(new Blob([record.text], {type: record.format === "svg" ? "image/svg+xml"
      : "text/plain"}));
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
