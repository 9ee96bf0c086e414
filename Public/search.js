// @ts-check
// UISearchController's field on searchable screens: what is typed goes to the server,
// which filters the whole list and sends the results as the screen; Escape or Cancel
// ends the search.
import { search } from "./wire.js";
import { word } from "./words.js";

export class SearchField {
	constructor(root, send) {
		this.root = root;
		this.input = root.querySelector("input");
		this.cancel = root.querySelector(".search-cancel");
		this.status = root.querySelector(".search-status");
		this.send = send;
		this.bar = root.previousElementSibling;
		this.list = null;
		let timer = 0;
		this.input.oninput = () => {
			clearTimeout(timer);
			timer = setTimeout(() => this.send(search(this.list, this.input.value)), 150);
			this.showCancel();
		};
		this.input.onfocus = () => this.showCancel();
		this.input.onkeydown = (e) => {
			if (e.key === "Escape") e.preventDefault(), e.stopPropagation(), this.clear();
		};
		this.cancel.onclick = () => this.clear();
	}

	showCancel() {
		this.cancel.hidden = !(this.input.value || document.activeElement === this.input);
	}

	clear() {
		const had = this.input.value;
		this.input.value = "";
		this.input.blur();
		this.cancel.hidden = true;
		if (had) this.send(search(this.list, ""));
	}

	/// Follows the screen: shown on searchable ones, holding the query of the results;
	/// under the large title when it shows one (as on iOS), else under the bar.
	show(screen, title) {
		const place = title.hidden ? this.bar : title;
		if (this.root.previousElementSibling !== place) place.after(this.root);
		this.root.hidden = !screen.searchable;
		if (this.list !== screen.list || document.activeElement !== this.input) {
			this.input.value = screen.search ?? "";
		}
		this.list = screen.list;
		this.showCancel();
		const found = screen.sections.reduce((n, s) => n + s.rows.length, 0);
		this.status.textContent = screen.search == null ? "" : found ? word("results", { n: found }) : word("noResults");
		this.root.classList.toggle("empty", screen.search != null && !found);
	}
}
