// @ts-check
// Pointer gestures on a table: swipe-to-delete and drag-to-reorder, by touch or mouse.
import { el } from "./dom.js";
import { cellState, rems, rowHeight } from "./cell.js";
import { actionsFor, perform } from "./actions.js";
import { isRightToLeft } from "./words.js";
/** @typedef {import("./table.js").TableView} TableView */

const SWIPE_SLOP = 8;
const EDGE = 3; // rem: auto-scroll zone at the top and bottom while reordering

// Swipes are measured along the reading direction, as UIKit's: the leading edge is the
// left one, or the right one in a right-to-left language.
const along = () => (isRightToLeft() ? -1 : 1);

/** @param {TableView} view */
export function attachGestures(view) {
	view.scroller.addEventListener("pointerdown", (e) => {
		if (e.button !== 0) return;
		view.state.setSuppressClick(false);
		const node = e.target.closest(".cell");
		if (view.state.openSwipe && node !== view.state.openSwipe.node) {
			view.closeSwipe(); // a tap elsewhere only closes the open row
			view.state.setSuppressClick(true);
			return;
		}
		const row = node && cellState.get(node).row;
		if (!row) return;
		if (e.target.closest(".reorder")) return reorder(view, node, e);
		if (!view.state.screen.editing) swipe(view, node, e);
	});
}

/// Follows the pointer until it is lifted or cancelled; then no listener is left.
function track(onMove, onUp) {
	const done = new AbortController();
	const { signal } = done;
	addEventListener("pointermove", onMove, { signal });
	for (const t of ["pointerup", "pointercancel"]) addEventListener(t, (e) => (done.abort(), onUp(e)), { signal });
}

/// Shows the buttons of `side` behind the row (tab stops; Escape closes them); returns how
/// far the row opens to show them.
/** @param {TableView} view @param {HTMLElement} node @param {"leading" | "trailing"} side */
function addSwipeActions(view, node, side) {
	node.querySelector(".swipe-actions")?.remove();
	const acts = actionsFor(view, cellState.get(node).row)[side];
	// After the content (under it): Tab from where a swipe began reaches them.
	const box = node.appendChild(el("div", `swipe-actions ${side} c-${acts[0]?.color}`));
	box.onkeydown = (e) => { if (e.key === "Escape") view.closeSwipe(), node.focus(); };
	for (const act of acts) box.appendChild(el("button", `c-${act.color}`, act.title)).act = act;
	// As wide as the buttons are drawn: their words and the text size set it.
	const width = [...box.children].reduce((w, b) => w + b.getBoundingClientRect().width, 0);
	return width * (side === "leading" ? 1 : -1);
}

/// A cell refilled while swiped open (its row or its neighbours changed) stays open.
/** @param {TableView} view @param {HTMLElement} node */
export function keepSwipeOpen(view, node) {
	/** @type {HTMLElement} */ (node.querySelector(".content")).style.transform = `translateX(${along() * addSwipeActions(view, node, view.state.openSwipe.side)}px)`;
}

/// The action a tapped button stands for (buttons are rebuilt with their row).
export const chosenAction = (view, node, button) => button?.act ?? null;

/** @param {TableView} view @param {HTMLElement} node @param {PointerEvent} down */
function swipe(view, node, down) {
	const content = /** @type {HTMLElement} */ (node.querySelector(".content"));
	const row = cellState.get(node).row;
	const sets = actionsFor(view, row);
	if (!sets.leading.length && !sets.trailing.length) return;
	const open = view.state.openSwipe?.node === node && view.state.openSwipe;
	const base = open?.dx ?? 0;
	const width = node.clientWidth;
	let swiping = false;
	let dx = base;
	let side = open?.side;
	let full = 0;
	const dir = along();
	track((e) => {
		const mx = dir * (e.clientX - down.clientX);
		const my = e.clientY - down.clientY;
		if (!swiping) {
			if (Math.abs(mx) < SWIPE_SLOP || Math.abs(mx) < Math.abs(my)) return;
			swiping = true;
			node.setPointerCapture(down.pointerId);
			content.style.transition = "none";
		}
		dx = Math.max(sets.trailing.length ? -width : 0, Math.min(sets.leading.length ? width : 0, base + mx));
		const now = dx > 0 ? "leading" : "trailing";
		if (now !== side) (side = now), (full = addSwipeActions(view, node, side));
		content.style.transform = `translateX(${dir * dx}px)`;
	}, () => {
		if (!swiping) return;
		view.state.setSuppressClick(true);
		content.style.transition = "";
		const first = sets[side]?.[0];
		if (first && Math.abs(dx) > width * 0.6) {
			// A full swipe performs the edge's first action; a destructive one slides the row away.
			view.state.setOpenSwipe(null);
			if (first.color === "red") content.style.transform = `translateX(${dir * Math.sign(dx) * width}px)`;
			else view.state.setOpenSwipe({ node }), view.closeSwipe();
			perform(view, row, first);
		} else if (Math.abs(dx) > Math.abs(full) / 2 && Math.sign(dx) === Math.sign(full)) {
			content.style.transform = `translateX(${dir * full}px)`;
			view.state.setOpenSwipe({ node, side, dx: full });
		} else {
			view.state.setOpenSwipe({ node });
			view.closeSwipe();
		}
	});
}

/// Drags a row by its handle, within its section or into another, as moveRowAt:to: allows.
/// `drag.to` is the row's index in section `drag.ts` once it has moved.
/** @param {TableView} view @param {HTMLElement} node @param {PointerEvent} down */
function reorder(view, node, down) {
	down.preventDefault();
	const sc = view.scroller;
	const secs = view.state.screen.sections;
	const state = cellState.get(node);
	const [s, from] = state.pos;
	const H = rowHeight();
	// Where each section's rows start with the dragged row taken out: the slots it can take.
	const tops = secs.map((sec, k) => view.sectionEls.get(sec.id).rows.offsetTop - (k > s ? H : 0));
	const room = (k) => secs[k].rows.length - +(k === s);
	const last = secs.length - 1;
	const start = tops[s] + from * H - down.clientY - sc.scrollTop;
	// Sections came or went, or the row did, while it was held: the drop is called off.
	const gone = () => view.state.screen.sections !== secs || secs.length !== tops.length || !node.isConnected;
	let y = down.clientY;
	const drag = view.state.startDrag({ id: state.key, s, from, ts: s, to: from, tops });
	state.fx.add("dragging");
	node.classList.add("dragging");
	node.setPointerCapture(down.pointerId);
	const update = () => {
		if (gone()) return;
		const top = Math.max(tops[0], Math.min(tops[last] + room(last) * H, start + y + sc.scrollTop));
		let best = Infinity;
		tops.forEach((t, k) => {
			const i = Math.max(0, Math.min(room(k), Math.round((top - t) / H)));
			const d = Math.abs(t + i * H - top);
			if (d < best) (best = d), view.state.dragTo(drag, k, i);
		});
		view.render();
		node.style.transform = `translateY(${top - (/** @type {HTMLElement | null} */ (node.parentNode?.parentNode)?.offsetTop ?? 0)}px)`;
	};
	let frame = requestAnimationFrame(function autoScroll() {
		const r = sc.getBoundingClientRect();
		const edge = rems(EDGE);
		const v = y < r.top + edge ? y - r.top - edge : y > r.bottom - edge ? y - r.bottom + edge : 0;
		if (v) sc.scrollTop += v / 3;
		update(); // also while the sections around the gap resize
		frame = requestAnimationFrame(autoScroll);
	});
	track((e) => ((y = e.clientY), update()), () => {
		cancelAnimationFrame(frame);
		state.fx.delete("dragging");
		node.classList.remove("dragging");
		view.state.setSuppressClick(true);
		const { ts, to } = drag;
		const rows = gone() ? null : secs[ts].rows.filter((r) => r?.id !== drag.id);
		const after = to > 0 ? rows?.[to - 1] : null; // the row that will precede it
		if (!rows || (ts === s && to === from) || (to > 0 && !after)) {
			view.state.endDrag();
			return view.render();
		}
		view.state.dropDrag();
		view.render();
		view.actions.move(state.row, secs[ts].id, after?.id ?? null);
		setTimeout(() => view.state.drag === drag && (view.state.endDrag(drag), view.render()), 2000);
	});
}
