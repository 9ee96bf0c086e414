// @ts-check
// Presence (docs/protocol.md): who else shows this list, as initials in the navigation
// bar (four at most, then a count), the rows someone else is swiping, editing or moving
// (their initials and a tint), said politely to screen readers; and what this page is
// doing, sent as `activity` when it changes.
import { K, ACTIVITY } from "./wire.js";
import { word } from "./words.js";

/** @typedef {{name: string, role: string, you: boolean, row: string | null, activity: string | null}} Viewer */

const SHOWN = 4; // circles before "+N"

/// "Ann Lee" → "AL", "bo" → "B".
export const initials = (/** @type {string} */ name) =>
	name.trim().split(/\s+/).slice(0, 2).map((w) => [...w][0] ?? "").join("").toUpperCase() || "?";

export class Presence {
	/** @param {HTMLElement} bar where the circles go @param {HTMLElement} live the polite region */
	constructor(bar, live) {
		this.bar = bar;
		this.live = live;
		/** @type {string | null} */ this.list = null;
		/** @type {Viewer[]} */ this.viewers = [];
		this.count = 0;
		/** @type {Map<string, Viewer>} row id → someone else's activity on it */
		this.marks = new Map();
		this.sent = "";
		/** @type {string | null} */ this.editingRow = null; // a row's text field being edited
	}

	/// A `presence` message; `textOf` reads a row's text for what is announced.
	show(msg, /** @type {(id: string) => string | undefined} */ textOf) {
		const before = this.marks;
		this.list = msg[K.list];
		this.viewers = Array.isArray(msg[K.viewers]) ? msg[K.viewers] : [];
		this.count = Math.max(Number(msg[K.count]) || 0, this.viewers.length);
		this.marks = new Map();
		for (const v of this.viewers) if (!v.you && v.row != null && v.activity) this.marks.set(v.row, v);
		this.draw();
		for (const [row, v] of this.marks) {
			const was = before.get(row);
			if (was?.name === v.name && was.activity === v.activity) continue;
			const key = { swiping: "presenceSwiping", editing: "presenceEditing", moving: "presenceMoving" }[v.activity];
			if (key) this.live.textContent = word(key, { name: v.name, text: textOf(row) ?? "" });
		}
	}

	/// Another list is on screen: nobody is shown until its presence comes.
	clear() {
		this.list = null;
		this.viewers = [];
		this.count = 0;
		this.marks = new Map();
		this.draw();
	}

	draw() {
		const others = this.viewers.filter((v) => !v.you);
		const hidden = this.count - this.viewers.filter((v) => v.you).length - Math.min(others.length, SHOWN);
		const nodes = others.slice(0, SHOWN).map((v) => {
			const dot = document.createElement("span");
			dot.className = "presence-dot" + (v.activity ? " active" : "");
			dot.textContent = initials(v.name);
			dot.title = v.name;
			return dot;
		});
		if (hidden > 0) {
			const more = document.createElement("span");
			more.className = "presence-dot presence-more";
			more.textContent = word("presenceMore", { n: hidden });
			nodes.push(more);
		}
		this.bar.replaceChildren(...nodes);
		this.bar.hidden = nodes.length === 0;
		this.bar.setAttribute("aria-label", word("presenceHere", { names: others.map((v) => v.name).join(", ") }));
	}

	/// Marks the drawn cells (`cells`: row id → node) that someone else is working on.
	mark(/** @type {Map<string, HTMLElement>} */ cells) {
		for (const [id, node] of cells) {
			const v = this.marks.get(id);
			let badge = /** @type {HTMLElement | null} */ (node.querySelector(":scope > .presence-mark"));
			node.classList.toggle("other-activity", !!v);
			if (!v) {
				badge?.remove();
				node.removeAttribute("data-activity");
				continue;
			}
			node.dataset.activity = v.activity ?? "";
			if (!badge) {
				badge = document.createElement("span");
				badge.className = "presence-mark";
				badge.setAttribute("aria-hidden", "true");
				node.append(badge);
			}
			badge.textContent = initials(v.name);
			badge.title = v.name;
		}
	}

	/// This page's activity on `list` now; returns the `activity` to send when it changed.
	report(/** @type {string | null} */ list, /** @type {string | null} */ row, /** @type {string | null} */ kind) {
		const key = JSON.stringify([list, row, kind]);
		if (key === this.sent) return null;
		const was = JSON.parse(this.sent || "[null]");
		this.sent = key;
		if (!kind && !was[2]) return null;
		return { [K.type]: ACTIVITY, [K.list]: kind ? list : was[0], [K.row]: kind ? row : null, [K.kind]: kind };
	}
}
