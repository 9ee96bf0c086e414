// @ts-check
// Row actions (UIContextualAction): the buttons a swipe reveals and the context menu
// (right click, long press, the ContextMenu key or Shift+F10). docs/protocol.md: `action`.
import { el } from "./dom.js";
import { cellState } from "./cell.js";
import { EDITING_STYLE } from "./wire.js";
import { isRightToLeft, word } from "./words.js";
/** @typedef {import("./table.js").TableView} TableView */

const DELETE = { id: null, get title() { return word("delete"); }, color: "red" }; // the plain swipe-to-delete

/// The list's actions `row` offers: those it names (`row.actions`), in its order, or all.
const offered = ({ state: { screen: { actions: all } } }, row) => row.actions?.map((id) => all.find((a) => a.id === id)).filter(Boolean) ?? all;

/// The buttons each edge of `row` reveals: the actions it offers, or Delete alone.
/** @param {TableView} view @param {import("./model.js").Row} row */
export function actionsFor(view, row) {
	const acts = offered(view, row);
	const lead = (a) => a.edge === "leading";
	if (view.state.screen.actions.length) return { leading: acts.filter(lead), trailing: acts.filter((a) => !lead(a)) };
	return { leading: [], trailing: view.state.screen.editable && row.editing === EDITING_STYLE.delete ? [DELETE] : [] };
}

export const perform = (view, row, act) => (act.id == null ? view.actions.remove([row.id]) : view.actions.perform(row, act.id));

/// Opens the row's menu beside `node` (or at the pointer), focus on its first item.
/** @param {TableView} view @param {HTMLElement} node @param {number | null} [x] @param {number | null} [y] */
function openMenu(view, node, x, y) {
	const row = cellState.get(node).row;
	const app = document.getElementById("app");
	const acts = row && offered(view, row);
	if (!acts?.length || view.state.screen.editing || app.querySelector(".menu")) return false;
	view.closeSwipe();
	const scrim = app.appendChild(el("div", "scrim menu-scrim"));
	scrim.setAttribute("role", "dialog"); // modal, as UIKit's menu: a tap outside closes it
	scrim.setAttribute("aria-label", row.text);
	const menu = scrim.appendChild(el("div", "menu"));
	menu.role = "menu";
	menu.ariaLabel = row.text;
	const close = () => (scrim.remove(), node.focus({ preventScroll: true }));
	const items = acts.map((act) => Object.assign(menu.appendChild(el("button", `c-${act.color}`, act.title)), {
		role: "menuitem", onclick: (e) => (e.stopPropagation(), close(), perform(view, row, act)),
	}));
	// Inside the window whatever the text size; by key, at the row's leading end.
	const box = app.getBoundingClientRect();
	const r = node.getBoundingClientRect();
	const m = menu.getBoundingClientRect();
	const at = x ?? (isRightToLeft() ? r.right - 16 - m.width : r.left + 16);
	menu.style.left = `${Math.max(8, Math.min(at - box.left, box.width - m.width - 8))}px`;
	menu.style.top = `${Math.max(8, Math.min((y ?? r.bottom) - box.top, box.height - m.height - 8))}px`;
	scrim.onclick = close;
	menu.onkeydown = (e) => {
		e.stopPropagation();
		const i = items.indexOf(document.activeElement);
		const go = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: items.length - 1 }[e.key];
		if (e.key === "Escape" || e.key === "Tab") close();
		else if (go == null) return;
		else items[(go + items.length) % items.length].focus();
		e.preventDefault();
	};
	items[0].focus();
	return true;
}

/** @param {TableView} view */
export function attachMenu(view) {
	view.scroller.oncontextmenu = (e) => {
		const node = e.target.closest(".cell");
		const byKey = e.button !== 2 && e.pointerType !== "touch" && !e.clientX;
		if (node && openMenu(view, node, byKey ? null : e.clientX, byKey ? null : e.clientY)) e.preventDefault();
	};
	view.scroller.onkeydown = (e) => {
		const node = e.target.closest?.(".cell");
		if (node && (e.key === "ContextMenu" || (e.shiftKey && e.key === "F10")) && openMenu(view, node)) e.preventDefault();
	};
}
