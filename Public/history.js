// @ts-check
// The History screen (the `history` extension, docs/protocol.md): a list's changes, newest
// first, each naming who, what and when ("Ann deleted "Milk" · 2 minutes ago"), pushed over
// the list like a screen. New entries arrive live while it shows; older ones load on
// scroll or with "More". Loaded the first time it opens, so the first screen does not
// carry it; it imports nothing (main.js hands it what it needs), so that it shares the
// page's words rather than loading a second copy of them.

const PAGE = 50; // entries asked for at a time
const UNITS = /** @type {const} */ ([["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]]);

/// "2 minutes ago" in `lang`, for a time `seconds` before now.
export function ago(seconds, lang) {
	const format = new Intl.RelativeTimeFormat(lang || undefined, { numeric: "auto" });
	for (const [unit, size] of UNITS) {
		if (seconds >= size || unit === "second") return format.format(-Math.floor(seconds / size), unit);
	}
	return "";
}

export class HistoryScreen {
	/**
	 * @param {HTMLElement} app where the screen goes (over the navigation bar and the list)
	 * @param {{ list: string, back: string, word: (key: string, fill?: object) => string,
	 *   lang: () => string, ask: (before: number | null, count: number) => void, close: () => void }} options
	 */
	constructor(app, { list, back, word, lang, ask, close }) {
		this.list = list;
		this.word = word;
		this.lang = lang;
		this.ask = ask;
		this.onClose = close;
		/** @type {{ id: number, at: string, summary: string }[]} */
		this.entries = [];
		this.more = false;
		this.waiting = false; // an older page asked for and not come yet
		const el = (tag, cls) => Object.assign(document.createElement(tag), { className: cls });
		this.root = el("section", "history-screen right");
		this.root.setAttribute("aria-label", word("history"));
		const bar = el("header", "navbar");
		const backButton = el("button", "nav-back");
		backButton.type = "button";
		const label = el("span", "label");
		label.textContent = back;
		backButton.append(Object.assign(el("span", "chev"), { ariaHidden: "true" }), label);
		backButton.setAttribute("aria-label", word("backTo", { title: back }));
		backButton.onclick = () => this.close();
		const title = el("h1", "nav-title");
		title.textContent = word("history");
		bar.append(backButton, title);
		this.scroller = el("div", "history-scroll");
		this.items = el("ol", "history-list");
		this.scroller.onscroll = () => {
			const s = this.scroller;
			if (s.scrollHeight - s.scrollTop - s.clientHeight < 200) this.older();
		};
		this.status = el("p", "history-empty");
		this.moreButton = el("button", "history-more");
		this.moreButton.type = "button";
		this.moreButton.onclick = () => this.older();
		this.scroller.append(this.items, this.status, this.moreButton);
		this.root.append(bar, this.scroller);
		app.append(this.root);
		void this.root.offsetWidth; // commits the start position before sliding
		this.root.classList.remove("right");
		this.timer = setInterval(() => this.render(), 30_000); // "2 minutes ago" moves on
		this.render();
		this.refresh();
		backButton.focus({ preventScroll: true });
	}

	/// Asks for the newest entries again (on open, and after a reconnect).
	refresh() {
		this.waiting = false;
		this.ask(null, PAGE);
	}

	older() {
		if (!this.more || this.waiting || !this.entries.length) return;
		this.waiting = true;
		this.ask(this.entries[this.entries.length - 1].id, PAGE);
	}

	/// A `history` message: new entries on top (`live`), an older page at the end, or the newest.
	receive(msg) {
		if (msg.list !== this.list) return;
		const known = new Set(this.entries.map((e) => e.id));
		const fresh = msg.entries.filter((e) => !known.has(e.id));
		if (msg.live) {
			if (msg.more) return this.refresh(); // some were left out: start again
			this.entries = [...fresh, ...this.entries];
		} else if (this.waiting) {
			this.entries = [...this.entries, ...fresh];
			this.more = msg.more;
			this.waiting = false;
		} else {
			this.entries = msg.entries;
			this.more = msg.more;
		}
		this.render();
	}

	render() {
		const now = Date.now();
		const lang = this.lang();
		const rows = this.entries.map((entry) => {
			const li = document.createElement("li");
			li.dataset.id = String(entry.id);
			const summary = document.createElement("span");
			summary.className = "history-summary";
			summary.textContent = entry.summary;
			const when = document.createElement("time");
			when.className = "history-when";
			when.dateTime = entry.at;
			when.textContent = " · " + ago(Math.max(0, (now - Date.parse(entry.at)) / 1000), lang);
			li.append(summary, when);
			return li;
		});
		this.status.textContent = this.word("noHistory");
		this.moreButton.textContent = this.word("more");
		this.items.replaceChildren(...rows);
		this.status.hidden = this.entries.length > 0;
		this.moreButton.hidden = !this.more;
	}

	/// Slides the screen away; `animated` false when the list itself went.
	close(animated = true) {
		clearInterval(this.timer);
		const root = this.root;
		if (!animated) root.remove();
		else {
			root.classList.add("right");
			setTimeout(() => root.remove(), 400);
		}
		this.onClose();
	}
}
