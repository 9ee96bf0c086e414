// @ts-check
// UINavigationController's chrome: the bar (title, back button named after the
// previous screen, Edit/Done) and the slide between pages on push and pop.
import { afterMotion, reducedMotion } from "./dom.js";
import { TRANSITION } from "./wire.js";
import { word } from "./words.js";

export class NavigationBar {
	constructor(root, { onBack, onEdit, onHistory }) {
		this.root = root;
		this.title = root.querySelector(".nav-title");
		this.backButton = root.querySelector(".nav-back");
		this.backLabel = this.backButton.querySelector(".label");
		this.editButton = root.querySelector(".nav-edit");
		this.backButton.onclick = onBack;
		this.editButton.onclick = onEdit;
		this.historyButton = root.querySelector(".nav-history");
		this.historyButton.onclick = onHistory;
	}

	show(screen, animated) {
		this.title.textContent = screen.title;
		document.title = screen.title;
		this.editButton.hidden = !screen.editable;
		this.editButton.textContent = word(screen.editing ? "done" : "edit");
		this.editButton.classList.toggle("done", screen.editing);
		this.historyButton.hidden = !screen.list || screen.editing;
		this.historyButton.textContent = word("history");
		this.backButton.hidden = screen.back == null;
		this.backLabel.hidden = false;
		this.backLabel.textContent = screen.back ?? "";
		// As UINavigationBar does, a previous title that does not fit becomes "Back".
		if (this.backLabel.scrollWidth > this.backLabel.clientWidth) this.backLabel.textContent = word("back");
		// …and one where even that does not fit (large text) leaves the chevron alone.
		this.backLabel.hidden = this.backLabel.scrollWidth > this.backLabel.clientWidth;
		this.backButton.setAttribute("aria-label", word("backTo", { title: screen.back ?? "" }));
		if (animated) {
			this.root.classList.remove("fade");
			void this.root.offsetWidth; // restarts the fade
			this.root.classList.add("fade");
		}
	}
}

/// Puts `next` in place of `current`: from the right on push, from under it on pop.
export function transition(container, current, next, kind) {
	if (!current || kind === TRANSITION.none || reducedMotion()) {
		container.appendChild(next);
		current?.remove();
		return;
	}
	const push = kind === TRANSITION.push;
	next.classList.add(push ? "right" : "under");
	if (push) container.appendChild(next);
	else container.insertBefore(next, current);
	void next.offsetWidth; // commits the start position before sliding
	next.classList.add("slide");
	current.classList.add("slide");
	next.classList.remove(push ? "right" : "under");
	current.classList.add(push ? "under" : "right");
	afterMotion(() => {
		current.remove();
		next.classList.remove("slide");
	}, 380);
}
