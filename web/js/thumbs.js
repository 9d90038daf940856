// Small pictures of images in result lists and chat sources (issue 33): the engine makes each thumbnail
// once (bounded, cached on disk) and hands it over as a data URL through `file_thumbnail`; the page asks
// only for names that look like pictures, once per path, and shows nothing when there is none.

import { call } from "./api.js";
import { h } from "./ui.js";

export const PICTURES = /\.(jpe?g|png|tiff?|webp|heic|heif|dng)$/i;
const asked = new Map(); // path -> Promise of a data URL or null

/** An <img> that fills in with the file's thumbnail, or null when the file is no picture. */
export function thumbFor(path, css = "result-thumb") {
  if (!PICTURES.test(path || "")) return null;
  const img = h(`img.${css}`, { alt: "", "data-testid": "thumbnail", hidden: true, loading: "lazy" });
  if (!asked.has(path)) asked.set(path, call("file_thumbnail", { path }).then((t) => (t && t.data_url) || null, () => null));
  asked.get(path).then((url) => { if (url) { img.src = url; img.hidden = false; } });
  return img;
}

/** "page 3" beside a hit in a scanned PDF: where in the scan OCR read the snippet. */
export function pageLabel(result) {
  return typeof result.page === "number" ? h("span.result-page", { "data-testid": "result-page", title: "The scanned page this text was read from (OCR)" }, `page ${result.page}`) : null;
}
