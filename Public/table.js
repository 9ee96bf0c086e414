// @ts-check
// UITableView for one screen: sections and their headers in the flow, rows absolutely
// placed inside each section and only the visible ones (plus a margin) in the DOM,
// keyed by row id so that diffs move, insert and remove the same nodes. Fetching rows
// is fetcher.js's, the keyboard and focus keys.js's, pointer gestures gestures.js's.
import { el, afterMotion } from "./dom.js";
import { cellState, fillCell, readRem, rems, rowHeight } from "./cell.js";
import { locate } from "./model.js";
import { attachGestures, chosenAction, keepSwipeOpen } from "./gestures.js";
import { attachMenu, perform } from "./actions.js";
import { FETCH_PAGE, RowFetcher } from "./fetcher.js";
import { keyboard } from "./keys.js";
import { drawnHeights, rowOffsets, scrollFor } from "./scale.js";
import { SectionHeights, heightOf } from "./heights.js";
import { Scrubber } from "./scrubber.js";
import { EDITING_STYLE as E } from "./wire.js";
import { TableState } from "./tablestate.js";
import { word, wordsVersion } from "./words.js";

/** @typedef {import("./model.js").Row} Row */
/** @typedef {import("./model.js").RowId} RowId */
/** @typedef {import("./model.js").Screen} Screen */
/** @typedef {import("./model.js").Changes} Changes */
/** What a table's rows do (main.js makes them: for the top screen, for the sidebar).
 * @typedef {{
 *   tap: (row: Row) => unknown, accessory: (row: Row) => unknown,
 *   toggle: (row: Row, on: boolean) => unknown, remove: (ids: RowId[]) => unknown,
 *   perform: (row: Row, id: string) => unknown,
 *   insertAt: (sectionId: string, afterId: RowId | null) => unknown,
 *   move: (row: Row, sectionId: string, afterId: RowId | null) => unknown,
 *   rename: (row: Row) => unknown, fetch: (sectionId: string, from: number, count: number) => unknown,
 *   selectionChanged: () => void, titleExpanded: (on: boolean, style: string) => void,
 *   rendered?: (table: TableView) => void,
 *   isPending?: (id: RowId) => boolean,
 * }} TableActions */

export class TableView {
	/// `actions` carries out what the user did: tap, accessory, toggle, remove(ids),
	/// insertAt(sectionId, afterId), move(row, sectionId, afterId), rename(row),
	/// fetch(sectionId, from, count), selectionChanged(), titleExpanded(on, style).
	/** @param {TableActions} actions */
	constructor(actions) {
		this.actions = actions;
		this.page = el("div", "page");
		this.scroller = this.page.appendChild(el("div", "scroller"));
		this.scroller.tabIndex = 0;
		this.table = this.scroller.appendChild(el("div", "table"));
		this.largeTitle = this.table.appendChild(el("div", "large-title")); // the bar's h1 names it
		this.largeTitle.setAttribute("aria-hidden", "true");
		this.state = new TableState(); // the screen, picks, gestures and sizes: written only through its methods
		this.tableHeader = this.table.appendChild(el("div", "table-header"));
		this.tableFooter = this.table.appendChild(el("div", "table-footer"));
		this.strip = null;
		this.scrubber = new Scrubber(this);
		this.cells = new Map(); // row id, or "~section~index" for a row not fetched yet → node
		this.sectionEls = new Map(); // section id → {root, header, rows, footer}
		this.fetcher = new RowFetcher((id, from, count) => actions.fetch(id, from, count));
		this.frame = 0;
		this.scroller.addEventListener("scroll", () => this.schedule(), { passive: true });
		this.scroller.addEventListener("click", (e) => this.click(e));
		const probe = this.page.appendChild(el("div", "rem-probe")); // 1rem wide: resized with the text size
		const resized = new ResizeObserver(() => {
			if (this.scroller.clientWidth !== this.state.width || readRem() !== this.state.rem) this.state.resized();
			this.fitIndex();
			this.schedule();
		});
		resized.observe(this.scroller);
		resized.observe(probe);
		attachGestures(this);
		attachMenu(this);
		// The keyboard and focus (keys.js), as the view's own methods.
		this.focusAt = keyboard.focusAt;
		this.step = keyboard.step;
		this.key = keyboard.key;
		this.firstVisible = keyboard.firstVisible;
		this.moveBy = keyboard.moveBy;
	}

	/** @param {Screen} screen */
	setScreen(screen) {
		const sameList = this.state.screen?.list === screen.list;
		this.state.showScreen(screen);
		this.page.className = `page ${screen.style}${screen.indexTitles ? " indexed" : ""}`;
		this.page.classList.toggle("editing", screen.editing);
		this.largeTitle.textContent = screen.title;
		this.largeTitle.hidden = screen.back != null; // large titles on root screens, as in Settings
		this.fetcher.clear();
		if (!sameList || !screen.editing) this.endEditingState();
		this.state.keepSelected((id) => locate(screen, id));
		this.tableHeader.textContent = screen.header ?? "";
		this.tableHeader.hidden = screen.header == null;
		this.tableFooter.textContent = screen.footer ?? "";
		this.tableFooter.hidden = screen.footer == null;
		this.buildSections();
		this.buildIndex();
		this.render();
	}

	/// Scrolls so that row `i` of section `s` is at the viewport's top less `pad`, or with
	/// `bottom` its end at the viewport's bottom; real offsets, however long the list.
	/** @param {number} s @param {number} i */
	scrollToRow(s, i, pad = 0, bottom = false) {
		const els = this.sectionEls.get(this.state.screen.sections[s].id);
		const view = this.scroller.clientHeight;
		const [real, drawn] = this.state.heights[s] ?? [Infinity, Infinity];
		const hs = this.state.rowHeights[s];
		const y = bottom ? hs.top(i + 1) - view : hs.top(i) - pad;
		this.scroller.scrollTop = scrollFor(els.rows.offsetTop, drawn, real, y, view);
	}

	/// Where row `i` of section `s` is drawn in the scroller now.
	/** @param {number} s @param {number} i */
	rowTop(s, i) {
		const at = this.state.rowHeights[s]?.top(i) ?? i * rowHeight();
		return this.sectionEls.get(this.state.screen.sections[s].id).rows.offsetTop + at - (this.state.offsets[s] ?? 0);
	}

	/** @param {boolean} on */
	setEditing(on) {
		this.state.setEditing(on);
		this.page.classList.toggle("editing", on);
		if (!on) this.endEditingState();
		this.closeSwipe();
		this.render();
	}

	endEditingState() {
		this.state.clearSelection();
		this.actions.selectionChanged();
	}

	buildSections() {
		const seen = new Set();
		for (const sec of this.state.screen.sections) {
			seen.add(sec.id);
			let els = this.sectionEls.get(sec.id);
			if (!els) {
				const root = el("div", "section");
				els = { root, header: root.appendChild(el("div", "sh")), rows: root.appendChild(el("div", "rows")),
					footer: root.appendChild(el("div", "sf")) };
				// The cells' parent: moved as one (by the compositor) while a long section's
				// offset changes, so that scrolling it repaints only rows coming into view.
				els.layer = els.rows.appendChild(el("div", "layer"));
				els.layer.setAttribute("role", "none");
				els.rows.setAttribute("role", "list");
				this.sectionEls.set(sec.id, els);
			}
			els.header.textContent = sec.header ?? "";
			els.footer.textContent = sec.footer ?? "";
			if (sec.header) els.rows.setAttribute("aria-label", sec.header);
			this.table.insertBefore(els.root, this.tableFooter);
		}
		for (const [id, els] of this.sectionEls) {
			if (seen.has(id)) continue;
			els.root.remove();
			this.sectionEls.delete(id);
			for (const [key, node] of this.cells) if (node.parentNode === els.layer) this.cells.delete(key);
		}
		this.showHeaders();
	}

	/// An indexed list's empty sections show no header (as Contacts); the strip keeps them.
	showHeaders() {
		for (const sec of this.state.screen.sections) {
			const e = this.sectionEls.get(sec.id);
			e.header.hidden = e.footer.hidden = !!this.state.screen.indexTitles && !sec.rows.length;
		}
	}

	buildIndex() {
		this.strip?.remove();
		this.strip = null;
		const titles = this.state.screen.indexTitles;
		if (!titles?.length) return;
		const strip = (this.strip = this.page.appendChild(el("nav", "index-strip")));
		strip.setAttribute("aria-label", word("sectionIndex"));
		this.fitIndex();
		const jump = (e) => {
			const r = strip.getBoundingClientRect();
			const k = Math.max(0, Math.min(titles.length - 1, Math.floor(((e.clientY - r.top) / r.height) * titles.length)));
			this.scrollToIndexTitle(k);
		};
		strip.addEventListener("pointerdown", (e) => {
			e.preventDefault();
			strip.setPointerCapture(e.pointerId);
			jump(e);
		});
		strip.addEventListener("pointermove", (e) => strip.hasPointerCapture(e.pointerId) && jump(e));
	}

	/// Shows the index titles that fit the page's height; as UIKit's strip does when they
	/// do not all fit (large text, a short window), every other one becomes a dot.
	fitIndex() {
		const titles = this.state.screen?.indexTitles;
		if (!this.strip || !titles) return;
		const fits = Math.max(3, Math.floor((this.page.clientHeight - rems(1)) / rems(.875)));
		let shown = titles;
		if (titles.length > fits) {
			const keep = Math.ceil(fits / 2);
			shown = Array.from({ length: keep }, (_, j) => titles[Math.round((j * (titles.length - 1)) / Math.max(1, keep - 1))])
				.flatMap((t, j) => (j ? ["•", t] : [t]));
		}
		const spans = [...this.strip.children].map((s) => s.textContent);
		if (spans.join("\n") !== shown.join("\n")) this.strip.replaceChildren(...shown.map((t) => el("span", null, t)));
	}

	/// The n-th index title jumps to the n-th section (protocol: `indexTitles`), or the
	/// next one with rows (else the last one with rows).
	/** @param {number} k */
	scrollToIndexTitle(k) {
		const has = (s) => s.rows.length;
		const sec = this.state.screen.sections.slice(k).find(has) ?? this.state.screen.sections.findLast(has);
		if (!sec) return;
		this.scroller.scrollTop = this.sectionEls.get(sec.id).root.offsetTop;
		this.render();
	}

	schedule() {
		if (!this.frame) this.frame = requestAnimationFrame(() => ((this.frame = 0), this.render()));
	}

	/// Where row `i` of section `s` is drawn, taking a drag in progress into account: the
	/// dragged row leaves a gap in section `d.s` and opens one in `d.ts`.
	/** @param {number} s @param {number} i @param {string} id */
	rowY(s, i, id) {
		const d = this.state.drag;
		if (!d) return this.state.rowHeights[s].top(i);
		const H = rowHeight();
		if (id === d.id) return d.tops[d.ts] + d.to * H - d.tops[s] - (s > d.ts ? H : 0); // dropped
		if (s === d.s && i > d.from) i--;
		if (s === d.ts && i >= d.to) i++;
		return i * H;
	}

	render() {
		for (let pass = 0; pass < 3 && this.layOut(); pass++); // again while measuring moved rows
		this.actions.rendered?.(this);
	}

	/// Draws the rows near the viewport; returns whether self-sizing rows measured
	/// otherwise than estimated (and so were drawn in the wrong place).
	layOut() {
		const st = this.state;
		const sc = st.screen;
		if (!sc || !this.page.isConnected) return false;
		const sections = sc.sections;
		const els = sections.map((sec) => this.sectionEls.get(sec.id));
		const d = st.drag;
		const view = this.scroller.clientHeight || 800;
		if (!st.sized) {
			const width = this.scroller.clientWidth;
			const rem = readRem(); // first: the heights below are in this text size's px
			st.sizedTo(width, sections.map((sec) => new SectionHeights(sec.rows, st.measured, width)), rem);
		}
		const hs = st.rowHeights;
		const real = sections.map((sec, s) => hs[s].total + (d ? +(s === d.ts) - +(s === d.s) : 0) * rowHeight());
		const drawn = drawnHeights(real, view);
		st.setHeights(real.map((r, s) => [r, drawn[s]]));
		sections.forEach((sec, s) => {
			els[s].rows.style.height = `${drawn[s]}px`;
			els[s].rows.classList.toggle("lifted", d?.s === s);
			els[s].rows.classList.toggle("scaled", drawn[s] < real[s]);
		});
		let p = this.scroller.scrollTop;
		const keep = st.takeKeepAnchor();
		const a = keep && st.anchor;
		this.page.classList.toggle("still", keep); // rows measured, not moved: no glide
		if (a && sections[a[0]]?.rows[a[1]]?.id === a[2] && !drawn.some((h, s) => h < real[s])) {
			const moved = els[a[0]].rows.offsetTop + hs[a[0]].top(a[1]) - a[3];
			// Rows above it grew or shrank. Read back: Firefox keeps whole pixels.
			if (moved) (this.scroller.scrollTop = p + moved), (p = this.scroller.scrollTop);
		}
		const o = rowOffsets(els.map((e) => e.rows.offsetTop), drawn, real, p, view);
		st.setOffsets(o);
		const tops = els.map((e, s) => e.rows.offsetTop - o[s]);
		const base = o.map((x) => Math.round(x / 100_000) * 100_000); // cells move only when this steps
		els.forEach((e, s) => (e.layer.style.transform = base[s] === o[s] ? "" : `translateY(${base[s] - o[s]}px)`));
		const max = this.scroller.scrollHeight - this.scroller.clientHeight; // read before any write
		const lo = p - view / 2;
		const hi = p + view * 1.5;
		const wanted = new Map();
		const want = (s, i) => {
			const row = sections[s].rows[i];
			wanted.set(row ? row.id : `~${sections[s].id}~${i}`, [s, i, row]);
		};
		sections.forEach((sec, s) => {
			if (!sec.rows.length || hi < tops[s] || lo > tops[s] + real[s]) return;
			const first = hs[s].indexAt(lo - tops[s]);
			const last = hs[s].indexAt(hi - tops[s]);
			for (let i = first; i <= last; i++) want(s, i);
			this.fetcher.fetchMissing(sec, first, last);
		});
		const focused = cellState.get(document.activeElement?.closest?.(".cell"));
		for (const keep of [st.drag?.id, focused?.key]) {
			if (!keep || wanted.has(keep)) continue;
			const at = keep.startsWith("~") ? null : locate(sc, keep);
			if (at) want(...at);
		}
		for (const [key, node] of this.cells) {
			if (wanted.has(key)) continue;
			node.remove();
			this.cells.delete(key);
		}
		/** @type {[HTMLElement, Row, number, number][]} */
		const grown = []; // [node, row, s, i]: self-sizing rows to measure
		for (const [key, [s, i, row]] of wanted) {
			const n = sections[s].rows.length;
			const state = {
				editing: sc.editing, selected: row && st.selected.has(row.id),
				confirming: row && st.confirming === row.id, last: i === n - 1, posinset: i + 1, setsize: n,
				current: row && st.current === row.id, pending: !!row && !!this.actions.isPending?.(row.id),
				words: wordsVersion(), // the page's words in its labels
			};
			const sig = JSON.stringify(state);
			let node = this.cells.get(key);
			if (!node) {
				node = el("div", "cell");
				node.tabIndex = -1;
				cellState.set(node, { key, fx: new Set() });
				this.cells.set(key, node);
			}
			const cs = cellState.get(node);
			if (cs.row !== row || cs.sig !== sig) {
				fillCell(node, row, state, sc.cell);
				node.classList.toggle("pending", state.pending); // made offline, not sent yet
				if (st.openSwipe?.node === node) row && !sc.editing ? keepSwipeOpen(this, node) : st.setOpenSwipe(null);
				for (const c of cs.fx) node.classList.add(c);
				cs.row = row;
				cs.sig = sig;
				cs.width = 0;
			}
			if (row && row.lines !== 1 && cs.width !== st.width) grown.push([node, row, s, i]);
			cs.pos = [s, i];
			if (st.drag?.id === key && !st.drag.dropped) continue;
			node.style.transform = `translateY(${this.rowY(s, i, key) - base[s]}px)`;
			if (node.parentNode !== els[s].layer) els[s].layer.appendChild(node);
		}
		if (focused?.key.startsWith("~") && !wanted.has(focused.key)) {
			const row = sections[focused.pos[0]]?.rows[focused.pos[1]]; // a focused placeholder's row came
			if (row) this.cells.get(row.id)?.focus({ preventScroll: true });
		}
		this.scrubber.update(tops, p, max, view);
		const expanded = !this.largeTitle.hidden && p < this.largeTitle.offsetHeight - 4; // collapses into the bar
		if (st.titleExpanded(expanded)) this.actions.titleExpanded(expanded, sc.style);
		/** @type {import("./tablestate.js").Anchor | null} */
		let anchor = null;
		for (const [key, [s, i, row]] of wanted) {
			const top = tops[s] + hs[s].top(i);
			if (row && top + hs[s].height(i) > p && (!anchor || top < anchor[3])) anchor = [s, i, key, top];
		}
		st.setAnchor(anchor);
		return this.measure(grown);
	}

	/// Measures self-sizing rows just drawn; a row that is taller or shorter than
	/// estimated moves those after it, but not what is on screen (see `anchor`), so
	/// scrolling up into rows not measured yet never jumps.
	/** @param {[HTMLElement, Row, number, number][]} grown */
	measure(grown) {
		const st = this.state;
		let changed = false;
		for (const [node, row] of grown) {
			const h = node.getBoundingClientRect().height;
			cellState.get(node).width = st.width;
			if (h !== heightOf(row, st.measured, st.width)) changed = true;
			st.setMeasured(row.id, h);
		}
		if (changed) st.remeasured();
		return changed;
	}

	/** @param {string | undefined} sectionId @param {number} [from] */
	rowsArrived(sectionId, from) {
		const st = this.state;
		this.fetcher.arrived(sectionId, from);
		const s = st.screen.sections.findIndex((sec) => sec.id === sectionId);
		const rows = st.screen.sections[s]?.rows ?? [];
		for (let i = from; i < Math.min(rows.length, from + FETCH_PAGE) && st.sized; i++) {
			if (s < 0 || heightOf(rows[i], st.measured, st.width) !== rowHeight()) st.invalidateSizes();
		}
		if (s < 0) st.invalidateSizes();
		st.keepAnchorIfUnsized();
		this.schedule();
	}

	/// Shows one applied diff: removed rows slide out, inserted ones slide in, moved
	/// ones travel (their nodes keep their identity), and rows someone else changed flash.
	/** @param {Changes} changes @param {(id: RowId) => boolean} isOwn */
	applyChanges(changes, isOwn) {
		if (this.state.drag?.dropped) this.state.endDrag();
		for (const [from, to] of changes.renamed ?? []) { // an own insert the server has named
			const node = this.cells.get(from);
			if (node) this.cells.delete(from), this.cells.set(to, node), (cellState.get(node).key = to);
		}
		let refocus = null;
		for (const id of changes.removed) {
			this.state.rowRemoved(id);
			const node = this.cells.get(id);
			if (!node) continue;
			if (node.contains(document.activeElement)) refocus = cellState.get(node).pos;
			this.cells.delete(id);
			node.classList.add("removing");
			afterMotion(() => node.remove());
		}
		if (changes.sections) this.buildSections();
		else this.showHeaders();
		this.state.invalidateSizes();
		this.render();
		for (const id of changes.inserted) this.effect(id, "inserting", 400);
		for (const id of changes.updated) if (!isOwn(id)) this.effect(id, "flash", 1200);
		if (changes.removed.size) this.actions.selectionChanged();
		if (refocus) this.focusAt(...refocus);
	}

	/// A transient class that survives the cell being refilled.
	/** @param {RowId} id @param {string} cls @param {number} ms */
	effect(id, cls, ms) {
		const node = this.cells.get(id);
		if (!node) return;
		const fx = cellState.get(node).fx;
		fx.add(cls);
		node.classList.add(cls);
		setTimeout(() => (fx.delete(cls), node.classList.remove(cls)), ms);
	}

	/// The HIG's feedback on coming back: the row you came from highlights, then clears.
	/// `scroll` is where the level was left: a scrollTop, or the id of the first row.
	/** @param {RowId} rowId @param {number | string | null} scroll */
	returnTo(rowId, scroll) {
		const at = typeof scroll === "string" && locate(this.state.screen, scroll);
		if (at) this.render(), this.scrollToRow(...at);
		else if (typeof scroll === "number") this.scroller.scrollTop = scroll;
		this.render();
		this.effect(rowId, "returning", 500);
		const node = this.cells.get(rowId);
		if (node) node.focus({ preventScroll: true });
	}

	/** @param {MouseEvent} e */
	click(e) {
		const t = /** @type {Element} */ (e.target);
		const node = /** @type {HTMLElement | null} */ (t.closest(".cell"));
		// A finger's swipe makes no click: a key's (detail 0) is not the gesture's.
		if (this.state.suppressClick && e.detail) return void this.state.setSuppressClick(false);
		this.state.setSuppressClick(false);
		if (this.state.openSwipe) {
			const act = node === this.state.openSwipe.node && chosenAction(this, node, t.closest(".swipe-actions button"));
			if (act) perform(this, cellState.get(node).row, act);
			return this.closeSwipe();
		}
		const row = node && cellState.get(node).row;
		if (!row) return;
		if (t.closest(".switch")) return this.toggle(node, row);
		if (t.closest(".info")) return this.actions.accessory(row);
		if (t.closest(".delete-confirm")) return this.actions.remove([row.id]);
		if (t.closest(".minus") && !this.state.selected.has(row.id)) {
			this.state.confirm(this.state.confirming === row.id ? null : row.id);
			return this.render();
		}
		this.activate(node, row, false);
	}

	/// A tap on the row itself (or Enter): select, pick for deletion, or insert.
	/** @param {HTMLElement} node @param {Row} row @param {boolean} byKey */
	activate(node, row, byKey) {
		if (this.state.screen.editing) {
			if (row.editing === E.insert) return this.actions.insertAt(this.sectionOf(row).id, this.rowBefore(row)?.id ?? null);
			if (row.editing !== E.delete) return;
			this.state.toggleSelected(row.id);
			this.actions.selectionChanged();
			return this.render();
		}
		if (byKey && row.control && !row.selectable) return this.toggle(node, row);
		if (!row.selectable) return;
		this.effect(row.id, "highlighted", 350);
		this.actions.tap(row);
	}

	/** @param {HTMLElement} node @param {Row} row */
	toggle(node, row) {
		const on = !row.control.on;
		node.querySelector(".switch")?.setAttribute("aria-checked", String(on));
		this.actions.toggle(row, on);
	}

	/** @param {Row} row */
	sectionOf(row) {
		return this.state.screen.sections[locate(this.state.screen, row.id)[0]];
	}

	/** @param {Row} row */
	rowBefore(row) {
		const [s, i] = locate(this.state.screen, row.id);
		return i > 0 ? this.state.screen.sections[s].rows[i - 1] : null;
	}

	closeSwipe() {
		const open = this.state.openSwipe;
		this.state.setOpenSwipe(null);
		if (!open) return;
		const content = /** @type {HTMLElement} */ (open.node.querySelector(".content"));
		content.style.transform = "";
		afterMotion(() => open.node.querySelector(".swipe-actions")?.remove(), 250);
	}
}
