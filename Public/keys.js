// @ts-check
// The keyboard and focus for a TableView: mixed into it, so `this` is the view.
import { cellState, rems, rowHeight } from "./cell.js";
import { EDITING_STYLE, TABLE_STYLE } from "./wire.js";

/** @typedef {import("./table.js").TableView} TableView */
/** @typedef {import("./model.js").Row} Row */

export const keyboard = {
	/** @this {TableView} @param {number} s @param {number} i */
	focusAt(s, i) {
		const sections = this.state.screen.sections;
		s = Math.max(0, Math.min(s, sections.length - 1));
		if (!sections[s]) return;
		i = Math.max(0, Math.min(i, sections[s].rows.length - 1));
		this.render();
		const y = this.rowTop(s, i);
		const pad = this.state.screen.style === TABLE_STYLE.plain ? rems(1.75) : 0; // a plain header
		const sc = this.scroller;
		if (y - pad < sc.scrollTop) this.scrollToRow(s, i, pad);
		else if (y + rowHeight() > sc.scrollTop + sc.clientHeight) this.scrollToRow(s, i, 0, true);
		this.render();
		const row = sections[s].rows[i];
		this.cells.get(row ? row.id : `~${sections[s].id}~${i}`)?.focus({ preventScroll: true });
	},

	/// The next row in reading order, across sections; null past either end.
	/** @this {TableView} @param {number} s @param {number} i @param {number} delta @returns {[number, number] | null} */
	step(s, i, delta) {
		const secs = this.state.screen.sections;
		i += delta;
		while (s >= 0 && s < secs.length && (i < 0 || i >= secs[s].rows.length)) {
			s += delta;
			if (s < 0 || s >= secs.length) return null;
			i = delta > 0 ? 0 : secs[s].rows.length - 1;
		}
		return s >= 0 && s < secs.length ? [s, i] : null;
	},

	/// Arrows move, Home and End go to the first and last row, Enter and Space tap
	/// (Shift+Enter: the info button), Delete deletes and Alt+arrows reorder in editing
	/// mode, F2 renames. Returns whether it handled the key.
	/** @this {TableView} @param {KeyboardEvent} e @returns {boolean} */
	key(e) {
		const node = /** @type {HTMLElement | null | undefined} */ (document.activeElement?.closest?.(".cell"));
		const cs = node && this.page.contains(node) ? cellState.get(node) : null;
		const pos = cs?.pos ?? null;
		const row = cs?.row;
		const editing = this.state.screen?.editing;
		if (e.key === "ArrowDown" || e.key === "ArrowUp") {
			const delta = e.key === "ArrowDown" ? 1 : -1;
			if (e.altKey && editing && row?.movable) return this.moveBy(row, pos, delta), true;
			const next = pos ? this.step(...pos, delta) : this.firstVisible();
			if (next) this.focusAt(...next);
			return true;
		}
		if (e.key === "Home" || e.key === "End") {
			const last = this.state.screen.sections.length - 1;
			if (last >= 0) this.focusAt(e.key === "Home" ? 0 : last, e.key === "Home" ? 0 : Infinity);
			return true;
		}
		if (!row) return false;
		if (e.key === "Enter" && e.shiftKey && node.querySelector(".info")) return this.actions.accessory(row), true;
		if (e.key === "Enter" || e.key === " ") return this.activate(node, row, true), true;
		if ((e.key === "Delete" || e.key === "Backspace") && editing && row.editing === EDITING_STYLE.delete) {
			this.actions.remove(this.state.selected.has(row.id) ? [...this.state.selected] : [row.id]);
			return true;
		}
		if (e.key === "F2" && this.state.screen.editable) return this.actions.rename(row), true;
		return false;
	},

	/** @this {TableView} @returns {[number, number] | null} */
	firstVisible() {
		let best = null;
		for (const node of this.cells.values()) {
			const p = cellState.get(node).pos;
			if (node.getBoundingClientRect().top >= this.scroller.getBoundingClientRect().top - 1 &&
					(!best || p[0] < best[0] || (p[0] === best[0] && p[1] < best[1]))) best = p;
		}
		return best ?? this.step(0, -1, 1);
	},

	/// Moves a row one place by keyboard, within its section or across to the next.
	/** @this {TableView} @param {Row} row @param {[number, number]} at @param {number} delta */
	moveBy(row, [s, i], delta) {
		const secs = this.state.screen.sections;
		const to = this.step(s, i, delta);
		if (!to) return;
		let [ts, ti] = to;
		if (ts !== s) ti = delta > 0 ? 0 : secs[ts].rows.length; // lands at the near end
		const rows = secs[ts].rows.filter((r) => r?.id !== row.id);
		const after = ti > 0 ? rows[ti - 1] : null;
		if (ti > 0 && !after) return; // not fetched yet
		this.actions.move(row, secs[ts].id, after?.id ?? null);
	},
};
