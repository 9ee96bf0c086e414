// @ts-check
// UISplitViewController on wide windows: the level beneath the top in a column beside
// it, live (the server sends its diffs too), the row leading to the top highlighted; a
// tap there replaces the top. Narrower: the phone layout, same stack.
import * as W from "./wire.js";
import { Model } from "./model.js";
import { TableView } from "./table.js";
import { warnFrame } from "./warnings.js";

export const wide = matchMedia("(min-width: 1000px)");

export class Sidebar {
	constructor(root, actions) {
		this.root = root;
		this.title = root.firstElementChild;
		this.model = new Model();
		this.actions = actions;
		this.view = null;
	}

	get list() { return this.view && this.model.screen?.list; }

	/// Shows the sidebar a `screen` message carries, or none.
	show(msg) {
		const side = msg.sidebar;
		document.body.classList.toggle("split", !!side);
		this.root.hidden = !side;
		if (!side) return this.view?.page.remove(), (this.view = null);
		this.model.setScreen(side);
		const sc = this.model.screen;
		if (this.view?.state.screen.list !== sc.list) {
			this.view?.page.remove();
			this.view = new TableView(this.actions);
			this.root.appendChild(this.view.page);
		}
		this.view.state.setCurrent(side[W.K.selected]);
		this.title.textContent = sc.title;
		this.root.setAttribute("aria-label", sc.title);
		this.view.setScreen(sc);
	}

	/// Takes a diff or rows of the sidebar's list; false for the top screen's.
	take(msg) {
		if (msg[W.K.list] !== this.list) return false;
		if (msg[W.K.type] === W.ROWS) {
			const sec = this.model.receiveRows(msg) && this.model.screen.sections[msg[W.K.section]];
			this.view.rowsArrived(sec?.id, msg[W.K.from]);
			return true;
		}
		let result;
		try {
			result = this.model.receiveDiff(msg);
		} catch (error) {
			warnFrame(`could not apply the diff of the sidebar's list ${msg[W.K.list]} from version ${msg[W.K.from]} to ${msg[W.K.to]}; asking for the screen again`, W.DIFF, error);
			return "gap";
		}
		for (const changes of result.changes) this.view.applyChanges(changes, () => false);
		return result.gap ? "gap" : true;
	}
}
