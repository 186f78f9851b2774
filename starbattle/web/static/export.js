// Export the sketch in any format the API's `convert` writes: shown in a box, copied or
// downloaded.

import {records} from "./api.js";
import {game} from "./state.js";
import {$, failed, saveConverted, tell} from "./ui.js";

const EXTENSIONS = {url: "url", sbn: "sbn", pzprv3: "txt", txt: "txt", json: "json", svg: "svg",
                    png: "png"};

const fileName = (format) =>
  `starbattle-${game.board.size}x${game.board.size}${format === "pzprv3" ? "-pzprv3" : ""}.`
  + EXTENSIONS[format];

// `how`: "copy" (text formats) or "download".
export async function exportSketch(how) {
  const format = $("export-format").value;
  let record;
  try {
    [record] = await records("convert", {board: game.text, to: format}, "export");
  } catch (error) {
    failed(error, "export-note");
    return;
  }
  $("export-out").value = record.text === undefined ? "" : record.text.trim();
  if (how === "download") {
    saveConverted(record, fileName(format));
    tell("export-note", `Downloaded ${fileName(format)}.`);
  } else if (record.text === undefined) {
    tell("export-note", "A PNG is a picture: use Download.");
  } else {
    try {
      await navigator.clipboard.writeText(record.text.trim());
      tell("export-note", "Copied.");
    } catch {
      $("export-out").select();
      tell("export-note", "Copy it from the box.");
    }
  }
}
