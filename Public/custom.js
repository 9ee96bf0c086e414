// @ts-check
// Custom cells: the list's layout (screen.cell) filled with a row's `values`, each set as
// text or, for an image, as a checked URL attribute — never as markup.
import { el } from "./dom.js";

/// http(s) or relative; `javascript:`, `data:` and every other scheme are refused.
export const allowedURL = (u) => !/^[^/?#]*:/.test(u) || /^https?:/i.test(u);

/// Lays the row's values out in `content`; returns the texts, in slot order, for its label.
export function fillCustom(content, row, cell) {
	const main = el("div", "labels custom");
	const said = [];
	let top, badge, img;
	for (const s of cell.slots) {
		const v = row.values[s.name];
		if (typeof v !== "string") continue;
		if (s.kind === "image") {
			if (allowedURL(v)) (img = el("img", "image")).setAttribute("src", v), (img.alt = "");
			continue;
		}
		said.push(v);
		const t = el("span", `slot-${s.kind}`, v);
		if (s.lines !== 1) t.classList.add("clamp"), s.lines && (t.style.webkitLineClamp = String(s.lines));
		if (s.kind === "badge") badge = t;
		else if (s.kind === "title" || s.kind === "trailing") (top ??= main.appendChild(el("div", "slot-top"))).appendChild(t);
		else main.appendChild(t);
	}
	if (img) content.appendChild(img);
	content.appendChild(main);
	if (badge) content.appendChild(badge);
	return said;
}
