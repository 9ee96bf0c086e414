// @ts-check
// One UITableViewCell: its layout for the row's style, accessory, control and, in
// editing mode, the editing control and reorder handle.
import { cellButton, el } from "./dom.js";
import { ACCESSORY_TYPE as A, CELL_STYLE, EDITING_STYLE as E } from "./wire.js";
import { fillCustom } from "./custom.js";
import { word } from "./words.js";

let rem = 16;

/// px per rem: the browser's default font size, a person's text size. Sizes are in rem,
/// so a table's rows grow with it; it is read afresh when a table lays out anew.
export function readRem() {
	rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
	return rem;
}

/// `n` rem in px, at the text size last read.
export const rems = (n) => n * rem;

/// UITableView's 44 pt row (2.75rem, style.css's --row), in px.
export const rowHeight = () => rems(2.75);
const IMAGE_STYLES = new Set([CELL_STYLE.default, CELL_STYLE.subtitle, CELL_STYLE.value1]);

/// What the table keeps about each cell node, instead of expando properties on it:
/// {key, row, sig, pos: [section, index], fx: transient classes}.
/** @type {WeakMap<Element, {key: string, row?: import("./model.js").Row | null, sig?: string, pos?: [number, number], fx: Set<string>, width?: number}>} */
export const cellState = new WeakMap();

/// Fills `node` for `row` (null: a row not fetched yet). `state` carries what the row
/// does not: {editing, selected, confirming, current, last, posinset, setsize}. `cell`: the list's
/// custom cell layout, which a row with `values` fills.
export function fillCell(node, row, state, cell) {
	node.textContent = "";
	node.setAttribute("role", "listitem");
	node.setAttribute("aria-posinset", state.posinset);
	node.setAttribute("aria-setsize", state.setsize);
	const content = node.appendChild(el("div", "content"));
	if (!row) {
		node.className = "cell placeholder";
		content.appendChild(el("div", "labels"));
		return;
	}
	node.dataset.id = row.id;
	node.className = `cell s-${row.style}`;
	node.classList.toggle("selected", !!state.selected);
	node.classList.toggle("confirming", !!state.confirming);
	node.classList.toggle("flagged", row.flagged);
	node.classList.toggle("current", !!state.current); // split.js: the row shown beside
	if (state.current) node.setAttribute("aria-current", "true");
	else node.removeAttribute("aria-current");
	const custom = cell && row.values;
	let said = [row.text, row.detail];

	if (state.editing && row.editing !== E.none) {
		const insert = row.editing === E.insert;
		content.appendChild(cellButton(`edit-control ${insert ? "plus" : "minus"}`, word(insert ? "insertRow" : "deleteRow", { text: row.text })));
	}
	if (custom) {
		said = fillCustom(content, row, cell);
		node.classList.add("multi", "custom");
	} else if (row.image && IMAGE_STYLES.has(row.style)) {
		const img = content.appendChild(el("img", "image"));
		img.alt = "";
		img.src = row.image;
		node.classList.add("has-image");
	}
	const labels = custom ? null : content.appendChild(el("div", "labels"));
	const texts = custom ? [] : [labels.appendChild(el("span", "text", row.text))];
	if (!custom && row.detail != null && row.style !== CELL_STYLE.default) texts.push(labels.appendChild(el("span", "detail", row.detail)));
	node.setAttribute("aria-label", [...said, row.accessory === A.checkmark && word("checked"), row.flagged && word("flagged")].filter(Boolean).join(", "));
	if (row.lines !== 1) {
		node.classList.add("multi"); // self-sizing: the row grows to its text (`lines`: 0 any, n at most n)
		for (const t of texts) if (row.lines > 1) t.classList.add("clamp"), (t.style.webkitLineClamp = String(row.lines));
	}

	if (row.control && !state.editing) {
		const sw = content.appendChild(cellButton("switch", row.text));
		sw.setAttribute("role", "switch");
		sw.setAttribute("aria-checked", String(row.control.on));
	} else if (!state.editing || row.accessory === A.checkmark) {
		const acc = accessoryFor(row.accessory, row.text);
		if (acc) content.appendChild(acc);
	}
	if (state.editing && state.confirming) {
		content.appendChild(cellButton("delete-confirm", null, word("delete")));
	} else if (state.editing && row.movable) {
		content.appendChild(el("span", "reorder")).setAttribute("aria-hidden", "true");
	}
	node.classList.toggle("last", !!state.last);
}

function accessoryFor(kind, text) {
	if (kind === A.none) return null;
	const acc = el("span", "accessory");
	if (kind === A.detail || kind === A.detailDisclosure) {
		acc.appendChild(cellButton("info", word("moreInfo", { text }), "i"));
	}
	if (kind === A.disclosure || kind === A.detailDisclosure) acc.appendChild(el("span", "chev"));
	if (kind === A.checkmark) acc.appendChild(el("span", "checkmark"));
	return acc;
}
