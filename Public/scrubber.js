// @ts-check
// A draggable thumb for long lists without an index strip (the index does its job on
// those that have one): dragging it anywhere reaches any row of a list of millions,
// which a native scroll thumb a few pixels tall cannot, and it says which row it is at.
import { el } from "./dom.js";
import { rems } from "./cell.js";
import { word } from "./words.js";

const LONG = 20; // viewports: a list this long gets a scrubber
let made = 0;

export class Scrubber {
	/** @param {import("./table.js").TableView} view */
	constructor(view) {
		this.view = view;
		this.grab = null; // px from the thumb's top where the pointer holds it
		const root = (this.root = el("div", "scrubber"));
		root.hidden = true;
		const sc = view.scroller;
		sc.id = `scroller-${++made}`;
		root.setAttribute("role", "scrollbar");
		root.setAttribute("aria-controls", sc.id);
		root.setAttribute("aria-orientation", "vertical");
		root.setAttribute("aria-valuemin", "0");
		root.setAttribute("aria-valuemax", "100");
		this.thumb = root.appendChild(el("div", "thumb"));
		this.bubble = this.thumb.appendChild(el("div", "bubble"));
		root.addEventListener("pointerdown", (e) => {
			e.preventDefault();
			root.setPointerCapture(e.pointerId);
			const t = this.thumb.getBoundingClientRect();
			this.grab = e.target === this.thumb ? e.clientY - t.top : t.height / 2;
			root.classList.add("dragging");
			this.drag(e);
		});
		root.addEventListener("pointermove", (e) => root.hasPointerCapture(e.pointerId) && this.drag(e));
		const end = () => ((this.grab = null), root.classList.remove("dragging"));
		root.addEventListener("pointerup", end);
		root.addEventListener("pointercancel", end);
		view.page.appendChild(root);
	}

	drag(e) {
		const r = this.root.getBoundingClientRect();
		const room = r.height - this.thumb.offsetHeight;
		const f = Math.max(0, Math.min(1, (e.clientY - r.top - this.grab) / room));
		const sc = this.view.scroller;
		sc.scrollTop = f * (sc.scrollHeight - sc.clientHeight);
		this.view.render();
	}

	/// Called by each render, reading no layout: `tops` where each section's rows are
	/// drawn (less their offset), `p` the scroll position, `max` its largest.
	/** @param {number[]} tops @param {number} p @param {number} max @param {number} view */
	update(tops, p, max, view) {
		const v = this.view;
		const secs = v.state.screen.sections;
		const total = v.state.heights.reduce((n, [real]) => n + real, 0);
		this.root.hidden = !!v.strip || total < LONG * view;
		v.page.classList.toggle("scrubbed", !this.root.hidden);
		if (this.root.hidden) return;
		const f = Math.min(1, p / Math.max(1, max));
		// .thumb is 2.75rem tall; the track is the scroller less .25rem at each end.
		this.thumb.style.transform = `translateY(${f * (view - rems(3.25))}px)`;
		let s = 0;
		while (s + 1 < secs.length && tops[s + 1] <= p) s++;
		const n = secs[s].rows.length;
		const i = Math.min(n - 1, v.state.rowHeights[s].indexAt(p - tops[s]));
		const text = word("rowOf", { i: i + 1, n });
		this.bubble.textContent = secs[s].header ? `${secs[s].header}: ${text}` : text;
		this.root.setAttribute("aria-label", word("scrollPosition"));
		this.root.setAttribute("aria-valuenow", String(Math.round(f * 100)));
		this.root.setAttribute("aria-valuetext", this.bubble.textContent);
	}
}
