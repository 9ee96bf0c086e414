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
import { word, wordsVersion } from "./words.js";

export class TableView {
	/// `actions` carries out what the user did: tap, accessory, toggle, remove(ids),
	/// insertAt(sectionId, afterId), move(row, sectionId, afterId), rename(row),
	/// fetch(sectionId, from, count), selectionChanged(), titleExpanded(on, style).
	constructor(actions) {
		this.actions = actions;
		this.page = el("div", "page");
		this.scroller = this.page.appendChild(el("div", "scroller"));
		this.scroller.tabIndex = 0;
		this.table = this.scroller.appendChild(el("div", "table"));
		this.largeTitle = this.table.appendChild(el("div", "large-title")); // the bar's h1 names it
		this.largeTitle.setAttribute("aria-hidden", "true");
		this.expanded = null; // whether the large title shows (root screens, scrolled to the top)
		this.tableHeader = this.table.appendChild(el("div", "table-header"));
		this.tableFooter = this.table.appendChild(el("div", "table-footer"));
		this.strip = null;
		this.scrubber = new Scrubber(this);
		this.offsets = []; // section → px its rows are drawn above their place (scale.js)
		this.heights = []; // section → [real, drawn] height of its rows area
		this.rowHeights = []; // section → SectionHeights; rebuilt when `sized` is false
		this.sized = false;
		this.measured = new Map(); // row id → px: self-sizing rows as drawn at `width`
		this.width = 0;
		this.anchor = null; // [s, i, id, top]: the first row on screen at the last layout
		this.keepAnchor = false; // heights changed under the viewport: keep that row still
		this.cells = new Map(); // row id, or "~section~index" for a row not fetched yet → node
		this.sectionEls = new Map(); // section id → {root, header, rows, footer}
		this.selected = new Set(); // rows picked in editing mode for "Delete (n)"
		this.confirming = null; // the row whose minus control was turned
		this.openSwipe = null; // {node}: at most one row swiped open
		this.drag = null; // {id, s, from, ts, to, tops, dropped}: a row being reordered by pointer
		this.suppressClick = false; // a gesture just ended: the click it makes is not a tap
		this.fetcher = new RowFetcher((id, from, count) => actions.fetch(id, from, count));
		this.screen = null;
		this.frame = 0;
		this.scroller.addEventListener("scroll", () => this.schedule(), { passive: true });
		this.scroller.addEventListener("click", (e) => this.click(e));
		this.rem = 0; // px per rem when the rows were last sized
		const probe = this.page.appendChild(el("div", "rem-probe")); // 1rem wide: resized with the text size
		const resized = new ResizeObserver(() => {
			if (this.scroller.clientWidth !== this.width || readRem() !== this.rem) this.measured.clear(), (this.sized = false);
			this.fitIndex();
			this.schedule();
		});
		resized.observe(this.scroller);
		resized.observe(probe);
		attachGestures(this);
		attachMenu(this);
		Object.assign(this, keyboard);
	}

	setScreen(screen) {
		const sameList = this.screen?.list === screen.list;
		this.screen = screen;
		this.page.className = `page ${screen.style}${screen.indexTitles ? " indexed" : ""}`;
		this.page.classList.toggle("editing", screen.editing);
		this.largeTitle.textContent = screen.title;
		this.largeTitle.hidden = screen.back != null; // large titles on root screens, as in Settings
		this.expanded = null;
		this.fetcher.clear();
		this.sized = false;
		if (!sameList || !screen.editing) this.endEditingState();
		for (const id of this.selected) if (!locate(screen, id)) this.selected.delete(id);
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
	scrollToRow(s, i, pad = 0, bottom = false) {
		const els = this.sectionEls.get(this.screen.sections[s].id);
		const view = this.scroller.clientHeight;
		const [real, drawn] = this.heights[s] ?? [Infinity, Infinity];
		const hs = this.rowHeights[s];
		const y = bottom ? hs.top(i + 1) - view : hs.top(i) - pad;
		this.scroller.scrollTop = scrollFor(els.rows.offsetTop, drawn, real, y, view);
	}

	/// Where row `i` of section `s` is drawn in the scroller now.
	rowTop(s, i) {
		const at = this.rowHeights[s]?.top(i) ?? i * rowHeight();
		return this.sectionEls.get(this.screen.sections[s].id).rows.offsetTop + at - (this.offsets[s] ?? 0);
	}

	setEditing(on) {
		this.screen.editing = on;
		this.page.classList.toggle("editing", on);
		if (!on) this.endEditingState();
		this.closeSwipe();
		this.render();
	}

	endEditingState() {
		this.selected.clear();
		this.confirming = null;
		this.actions.selectionChanged();
	}

	buildSections() {
		const seen = new Set();
		for (const sec of this.screen.sections) {
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
		for (const sec of this.screen.sections) {
			const e = this.sectionEls.get(sec.id);
			e.header.hidden = e.footer.hidden = !!this.screen.indexTitles && !sec.rows.length;
		}
	}

	buildIndex() {
		this.strip?.remove();
		this.strip = null;
		const titles = this.screen.indexTitles;
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
		const titles = this.screen?.indexTitles;
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
	scrollToIndexTitle(k) {
		const has = (s) => s.rows.length;
		const sec = this.screen.sections.slice(k).find(has) ?? this.screen.sections.findLast(has);
		if (!sec) return;
		this.scroller.scrollTop = this.sectionEls.get(sec.id).root.offsetTop;
		this.render();
	}

	schedule() {
		if (!this.frame) this.frame = requestAnimationFrame(() => ((this.frame = 0), this.render()));
	}

	/// Where row `i` of section `s` is drawn, taking a drag in progress into account: the
	/// dragged row leaves a gap in section `d.s` and opens one in `d.ts`.
	rowY(s, i, id) {
		const d = this.drag;
		if (!d) return this.rowHeights[s].top(i);
		const H = rowHeight();
		if (id === d.id) return d.tops[d.ts] + d.to * H - d.tops[s] - (s > d.ts ? H : 0); // dropped
		if (s === d.s && i > d.from) i--;
		if (s === d.ts && i >= d.to) i++;
		return i * H;
	}

	render() {
		for (let pass = 0; pass < 3 && this.layOut(); pass++); // again while measuring moved rows
	}

	/// Draws the rows near the viewport; returns whether self-sizing rows measured
	/// otherwise than estimated (and so were drawn in the wrong place).
	layOut() {
		const sc = this.screen;
		if (!sc || !this.page.isConnected) return false;
		const sections = sc.sections;
		const els = sections.map((sec) => this.sectionEls.get(sec.id));
		const d = this.drag;
		const view = this.scroller.clientHeight || 800;
		if (!this.sized) {
			this.width = this.scroller.clientWidth;
			this.rem = readRem();
			this.rowHeights = sections.map((sec) => new SectionHeights(sec.rows, this.measured, this.width));
			this.sized = true;
		}
		const hs = this.rowHeights;
		const real = sections.map((sec, s) => hs[s].total + (d ? (s === d.ts) - (s === d.s) : 0) * rowHeight());
		const drawn = drawnHeights(real, view);
		this.heights = real.map((r, s) => [r, drawn[s]]);
		sections.forEach((sec, s) => {
			els[s].rows.style.height = `${drawn[s]}px`;
			els[s].rows.classList.toggle("lifted", d?.s === s);
			els[s].rows.classList.toggle("scaled", drawn[s] < real[s]);
		});
		let p = this.scroller.scrollTop;
		const a = this.keepAnchor && this.anchor;
		this.page.classList.toggle("still", this.keepAnchor); // rows measured, not moved: no glide
		this.keepAnchor = false;
		if (a && sections[a[0]]?.rows[a[1]]?.id === a[2] && !drawn.some((h, s) => h < real[s])) {
			const moved = els[a[0]].rows.offsetTop + hs[a[0]].top(a[1]) - a[3];
			// Rows above it grew or shrank. Read back: Firefox keeps whole pixels.
			if (moved) (this.scroller.scrollTop = p + moved), (p = this.scroller.scrollTop);
		}
		const o = (this.offsets = rowOffsets(els.map((e) => e.rows.offsetTop), drawn, real, p, view));
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
		for (const keep of [this.drag?.id, focused?.key]) {
			if (!keep || wanted.has(keep)) continue;
			const at = keep.startsWith("~") ? null : locate(sc, keep);
			if (at) want(...at);
		}
		for (const [key, node] of this.cells) {
			if (wanted.has(key)) continue;
			node.remove();
			this.cells.delete(key);
		}
		const grown = []; // [node, row, s, i]: self-sizing rows to measure
		for (const [key, [s, i, row]] of wanted) {
			const n = sections[s].rows.length;
			const state = {
				editing: sc.editing, selected: row && this.selected.has(row.id),
				confirming: row && this.confirming === row.id, last: i === n - 1, posinset: i + 1, setsize: n,
				current: row && this.current === row.id, pending: !!row && !!this.actions.isPending?.(row.id),
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
				if (this.openSwipe?.node === node) row && !sc.editing ? keepSwipeOpen(this, node) : (this.openSwipe = null);
				for (const c of cs.fx) node.classList.add(c);
				cs.row = row;
				cs.sig = sig;
				cs.width = 0;
			}
			if (row && row.lines !== 1 && cs.width !== this.width) grown.push([node, row, s, i]);
			cs.pos = [s, i];
			if (this.drag?.id === key && !this.drag.dropped) continue;
			node.style.transform = `translateY(${this.rowY(s, i, key) - base[s]}px)`;
			if (node.parentNode !== els[s].layer) els[s].layer.appendChild(node);
		}
		if (focused?.key.startsWith("~") && !wanted.has(focused.key)) {
			const row = sections[focused.pos[0]]?.rows[focused.pos[1]]; // a focused placeholder's row came
			if (row) this.cells.get(row.id)?.focus({ preventScroll: true });
		}
		this.scrubber.update(tops, p, max, view);
		const expanded = !this.largeTitle.hidden && p < this.largeTitle.offsetHeight - 4; // collapses into the bar
		if (expanded !== this.expanded) this.actions.titleExpanded((this.expanded = expanded), sc.style);
		let anchor = null;
		for (const [key, [s, i, row]] of wanted) {
			const top = tops[s] + hs[s].top(i);
			if (row && top + hs[s].height(i) > p && (!anchor || top < anchor[3])) anchor = [s, i, key, top];
		}
		this.anchor = anchor;
		return this.measure(grown);
	}

	/// Measures self-sizing rows just drawn; a row that is taller or shorter than
	/// estimated moves those after it, but not what is on screen (see `anchor`), so
	/// scrolling up into rows not measured yet never jumps.
	measure(grown) {
		let changed = false;
		for (const [node, row] of grown) {
			const h = node.getBoundingClientRect().height;
			cellState.get(node).width = this.width;
			if (h !== heightOf(row, this.measured, this.width)) changed = true;
			this.measured.set(row.id, h);
		}
		if (changed) this.sized = false, (this.keepAnchor = true);
		return changed;
	}

	rowsArrived(sectionId, from) {
		this.fetcher.arrived(sectionId, from);
		const s = this.screen.sections.findIndex((sec) => sec.id === sectionId);
		const rows = this.screen.sections[s]?.rows ?? [];
		for (let i = from; i < Math.min(rows.length, from + FETCH_PAGE) && this.sized; i++) {
			if (s < 0 || heightOf(rows[i], this.measured, this.width) !== rowHeight()) this.sized = false;
		}
		if (s < 0) this.sized = false;
		this.keepAnchor ||= !this.sized;
		this.schedule();
	}

	/// Shows one applied diff: removed rows slide out, inserted ones slide in, moved
	/// ones travel (their nodes keep their identity), and rows someone else changed flash.
	applyChanges(changes, isOwn) {
		if (this.drag?.dropped) this.drag = null;
		for (const [from, to] of changes.renamed ?? []) { // an own insert the server has named
			const node = this.cells.get(from);
			if (node) this.cells.delete(from), this.cells.set(to, node), (cellState.get(node).key = to);
		}
		let refocus = null;
		for (const id of changes.removed) {
			this.selected.delete(id);
			if (this.confirming === id) this.confirming = null;
			const node = this.cells.get(id);
			if (!node) continue;
			if (node.contains(document.activeElement)) refocus = cellState.get(node).pos;
			this.cells.delete(id);
			node.classList.add("removing");
			afterMotion(() => node.remove());
		}
		if (changes.sections) this.buildSections();
		else this.showHeaders();
		this.sized = false;
		this.render();
		for (const id of changes.inserted) this.effect(id, "inserting", 400);
		for (const id of changes.updated) if (!isOwn(id)) this.effect(id, "flash", 1200);
		if (changes.removed.size) this.actions.selectionChanged();
		if (refocus) this.focusAt(...refocus);
	}

	/// A transient class that survives the cell being refilled.
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
	returnTo(rowId, scroll) {
		const at = typeof scroll === "string" && locate(this.screen, scroll);
		if (at) this.render(), this.scrollToRow(...at);
		else if (typeof scroll === "number") this.scroller.scrollTop = scroll;
		this.render();
		this.effect(rowId, "returning", 500);
		const node = this.cells.get(rowId);
		if (node) node.focus({ preventScroll: true });
	}

	click(e) {
		const node = e.target.closest(".cell");
		// A finger's swipe makes no click: a key's (detail 0) is not the gesture's.
		if (this.suppressClick && e.detail) return void (this.suppressClick = false);
		this.suppressClick = false;
		if (this.openSwipe) {
			const act = node === this.openSwipe.node && chosenAction(this, node, e.target.closest(".swipe-actions button"));
			if (act) perform(this, cellState.get(node).row, act);
			return this.closeSwipe();
		}
		const row = node && cellState.get(node).row;
		if (!row) return;
		const t = e.target;
		if (t.closest(".switch")) return this.toggle(node, row);
		if (t.closest(".info")) return this.actions.accessory(row);
		if (t.closest(".delete-confirm")) return this.actions.remove([row.id]);
		if (t.closest(".minus") && !this.selected.has(row.id)) {
			this.confirming = this.confirming === row.id ? null : row.id;
			return this.render();
		}
		this.activate(node, row, false);
	}

	/// A tap on the row itself (or Enter): select, pick for deletion, or insert.
	activate(node, row, byKey) {
		if (this.screen.editing) {
			if (row.editing === E.insert) return this.actions.insertAt(this.sectionOf(row).id, this.rowBefore(row)?.id ?? null);
			if (row.editing !== E.delete) return;
			if (this.selected.has(row.id)) this.selected.delete(row.id);
			else this.selected.add(row.id);
			this.confirming = null;
			this.actions.selectionChanged();
			return this.render();
		}
		if (byKey && row.control && !row.selectable) return this.toggle(node, row);
		if (!row.selectable) return;
		this.effect(row.id, "highlighted", 350);
		this.actions.tap(row);
	}

	toggle(node, row) {
		const on = !row.control.on;
		node.querySelector(".switch")?.setAttribute("aria-checked", String(on));
		this.actions.toggle(row, on);
	}

	sectionOf(row) {
		return this.screen.sections[locate(this.screen, row.id)[0]];
	}

	rowBefore(row) {
		const [s, i] = locate(this.screen, row.id);
		return i > 0 ? this.screen.sections[s].rows[i - 1] : null;
	}

	closeSwipe() {
		const open = this.openSwipe;
		this.openSwipe = null;
		if (!open) return;
		const content = open.node.querySelector(".content");
		content.style.transform = "";
		afterMotion(() => open.node.querySelector(".swipe-actions")?.remove(), 250);
	}
}
