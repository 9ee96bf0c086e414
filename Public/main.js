// @ts-check
// The entry point: connects the socket, the model and the views, and turns what the
// user did into commands.
import * as W from "./wire.js";
import { Socket } from "./socket.js";
import { Model, locate, screenFromWire } from "./model.js";
import { TableView } from "./table.js";
import { NavigationBar, transition } from "./navigation.js";
import { askForText, showAlert } from "./alert.js";
import { takeCredentialFromLink } from "./access.js";
import { SearchField } from "./search.js";
import { Sidebar, wide } from "./split.js";
import { warnFrame } from "./warnings.js";
import { setLanguage, whenWordsChange, word } from "./words.js";
import { Presence } from "./presence.js";
import { cellState } from "./cell.js";

const K = W.K;
/** The page's own elements (index.html), which are always there. @type {(sel: string) => HTMLElement} */
const $ = (sel) => /** @type {HTMLElement} */ (document.querySelector(sel));
const model = new Model();
/** @type {TableView | null} */
let view = null;
let reloading = false;
const trail = []; // depth → {list, row, scrollTop}: where each level was left, for returning
const own = new Map(); // row id → time: rows this page just changed, which do not flash

takeCredentialFromLink();
setLanguage(null); // the browser's, until a screen names the data's
whenWordsChange(() => { // a language's table has arrived: what shows words is drawn again
	if (!model.screen || !view) return;
	nav.show(model.screen, false);
	field.show(model.screen, view.largeTitle);
	view.buildIndex();
	view.render();
	sidebar.view?.render();
	showToolbar();
});
const url = new URL(W.WS_PATH, location.href);
url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
const socket = new Socket(url.href, {
	onMessage: receive,
	onStatus: showStatus,
	have: () => model.screen && { list: model.screen.list, version: model.screen.version },
	onCaughtUp: () => view?.rowsArrived(undefined), // fetches lost with the line are asked again
});

const presence = new Presence($(".nav-presence"), $(".presence-live"));

const nav = new NavigationBar($(".navbar"), {
	onBack: () => goBack(),
	onEdit: () => setEditing(!model.screen.editing),
	onHistory: () => openHistory(),
});

/** The History screen while it shows (history.js, loaded when first opened). @type {any} */
let historyScreen = null;
async function openHistory() {
	const sc = model.screen;
	if (historyScreen || !sc?.list) return;
	const { HistoryScreen } = await import("./history.js");
	if (historyScreen || model.screen !== sc) return;
	historyScreen = new HistoryScreen($("#app"), {
		list: sc.list, back: sc.title, word, lang: () => document.documentElement.lang,
		ask: (before, count) => socket.sendIfOpen(W.history(sc.list, before, count)),
		close: () => { historyScreen = null; view?.scroller.focus({ preventScroll: true }); },
	});
}

const EDITS = new Set([W.TOGGLE, W.DELETE, W.INSERT, W.MOVE, W.UPDATE, W.ACTION, W.TAP]);

/// Sends `cmd` and shows what it does at once (Model.propose), before the server answers.
const send = (cmd, rows = []) => {
	const now = Date.now();
	for (const id of rows) own.set(id, now);
	const edit = cmd[K.type] !== W.TAP || model.screen?.selection !== W.SELECTION.none;
	const ref = socket.send(cmd, edit && EDITS.has(cmd[K.type]));
	const changes = model.propose(ref, cmd);
	if (changes) view.applyChanges(changes, isOwn);
	return ref;
};
const field = new SearchField($(".searchbar"), (cmd) => send(cmd));
const isOwn = (id) => Date.now() - (own.get(id) ?? 0) < 3000;

/// Sends a command that may push or pop, unless one is still unanswered or sliding:
/// as in UIKit, a second tap during a transition does nothing.
let navigating = { ref: 0, at: 0 };
function navigate(cmd, rows) {
	const busy = navigating.ref && performance.now() - navigating.at < 2000;
	if (busy || $(".pages").children.length > 1) return false;
	navigating = { ref: send(cmd, rows), at: performance.now() };
	return true;
}

/// Remembers where this level is left, then sends `tap` or `accessory`; a row that opens a
/// list slides its page in at once (startPush).
function leave(command, row) {
	const sc = model.screen;
	trail[sc.depth] = { list: sc.list, row: row.id, scrollTop: view.scroller.scrollTop };
	const first = view.firstVisible();
	if (navigate(command(sc.list, row.id, (first && sc.sections[first[0]].rows[first[1]]?.id) ?? null), [row.id])
		&& opensList(row) && !wide.matches) startPush(row);
}

/// As UIKit pushes before the next screen has its data: the new page slides in at once,
/// titled after the tapped row, and fills in when its `screen` arrives (showScreen). The
/// answer to the tap without that screen (an error, or no push after all) slides it back.
/** @type {TableView | null} */
let early = null; // the TableView pushed ahead of its screen
function startPush(row) {
	const sc = model.screen;
	early = new TableView(actions);
	early.setScreen(screenFromWire({ [K.screen]: { [K.list]: null, [K.version]: 0, [K.title]: row.text,
		[K.back]: sc.title, [K.style]: sc.style, [K.sections]: [] } }));
	transition($(".pages"), view.page, early.page, W.TRANSITION.push);
	nav.show(early.state.screen, true);
}

function cancelPush() {
	if (!early) return;
	transition($(".pages"), early.page, view.page, W.TRANSITION.pop);
	early = null;
	nav.show(model.screen, true);
}
const goBack = () => navigate(W.back(), []);

const opensList = (row) => [W.ACCESSORY_TYPE.disclosure, W.ACCESSORY_TYPE.detailDisclosure].includes(row.accessory);

/// What a table's rows do to `list()`: the top screen's, or the sidebar's.
const commands = (list) => ({
	toggle: (row, on) => send(W.toggle(list(), row.id, on), [row.id]),
	remove(ids) {
		const texts = ids.map((id) => rowText(id));
		send(W.deleteRows(list(), ids), ids);
		offerUndo(ids.length === 1 && texts[0] != null ? word("deleted", { text: texts[0] }) : word("deletedCount", { n: ids.length }));
	},
	perform: (row, id) => send(W.action(list(), row.id, id), [row.id]),
	move: (row, section, after) => send(W.move(list(), row.id, section, after), [row.id]),
	async insertAt(section, after) {
		const text = await askForText(word("newRow"), "", word("add"));
		if (text) send(W.insert(list(), section, after, text));
	},
	async rename(row) {
		presence.editingRow = row.id;
		reportActivity();
		const text = await askForText(word("rename"), row.text, word("save")).finally(() => {
			presence.editingRow = null;
			reportActivity();
		});
		if (text && text !== row.text) send(W.rename(list(), row.id, text), [row.id]);
	},
	fetch: (section, from, count) => socket.sendIfOpen(W.fetchRows(list(), section, from, count)),
});
const actions = {
	...commands(() => model.screen.list),
	titleExpanded: (on, style) => {
		$(".navbar").classList.toggle("expanded", on);
		$(".navbar").classList.toggle("over-plain", style === W.TABLE_STYLE.plain);
	},
	// A pick in a selection list shows at once; a row that opens a list pushes it.
	tap: (row) => (model.screen.selection !== W.SELECTION.none && !opensList(row)
		? send(W.tap(model.screen.list, row.id, null), [row.id]) : leave(W.tap, row)),
	accessory: (row) => leave(W.accessory, row),
	selectionChanged: () => showToolbar(),
	isPending: (id) => !socket.welcomed && model.isPending(id), // made offline: greyed until sent
	rendered: (/** @type {TableView} */ table) => {
		if (table !== view) return;
		presence.mark(table.cells);
		reportActivity();
	},
};
const sidebar = new Sidebar($(".sidebar"), {
	...commands(() => sidebar.list),
	titleExpanded() {},
	tap: (row) => navigate(W.tap(sidebar.list, row.id), [row.id]), // replaces the top
	accessory: (row) => navigate(W.accessory(sidebar.list, row.id), [row.id]),
	selectionChanged() {},
});
wide.onchange = () => socket.sendIfOpen(W.layout(wide.matches));

function receive(msg) {
	switch (msg[K.type]) {
		case W.SCREEN: return showScreen(msg), sidebar.show(msg);
		case W.DIFF: {
			const took = sidebar.take(msg);
			return took ? took === "gap" && requestReload() : applyDiff(msg);
		}
		case W.ROWS: {
			if (sidebar.take(msg)) return;
			const sec = model.receiveRows(msg) && model.screen.sections[msg[K.section]];
			return view?.rowsArrived(sec?.id, msg[K.from]);
		}
		case W.ACK:
			if (msg[K.ref] === navigating.ref) (navigating.ref = 0), cancelPush();
			return settle(msg[K.ref]);
		case W.ERROR:
			if (msg[K.ref] === navigating.ref) (navigating.ref = 0), cancelPush();
			settle(msg[K.ref]); // a refused command's change goes back
			if (view?.state.drag?.dropped) view.state.endDrag(), view.render();
			if (msg[K.code] === W.CONFLICT) return showAlert(word("cannotUndo"), msg[K.message] || msg[K.code]);
			return toast(msg[K.message] || msg[K.code]);
		case W.NOTICE: return toast(msg[K.text]);
		case W.HISTORY: return historyScreen?.receive(msg);
		case W.PRESENCE:
			if (msg[K.list] !== model.screen?.list) return; // the sidebar's: not shown
			presence.show(msg, (id) => {
				const at = locate(model.screen, id);
				return at ? model.screen.sections[at[0]].rows[at[1]]?.text : undefined;
			});
			if (view) presence.mark(view.cells); // drawn again with every render after
			return;
	}
}

/// Tells the others what this page is doing on its top list, when that changed: the row
/// dragged in editing mode (moving), the row whose text is being edited (editing), the
/// row whose actions a swipe revealed (swiping), or nothing.
function reportActivity() {
	const st = view?.state;
	let row = null, kind = null;
	if (st?.drag && !st.drag.dropped) (row = st.drag.id), (kind = W.ACTIVITY_KIND.moving);
	else if (presence.editingRow) (row = presence.editingRow), (kind = W.ACTIVITY_KIND.editing);
	else if (view) {
		const node = st?.openSwipe?.dx ? st.openSwipe.node
			: /** @type {HTMLElement | null} */ ([...view.page.querySelectorAll(".cell")].find((c) =>
				c.querySelector(":scope > .swipe-actions") && /** @type {HTMLElement} */ (c.querySelector(".content"))?.style.transform) ?? null);
		const id = node && cellState.get(node)?.row?.id;
		if (id) (row = id), (kind = W.ACTIVITY_KIND.swiping);
	}
	const cmd = presence.report(model.screen?.list ?? null, row, kind);
	if (cmd) socket.notify(cmd);
}
let activityCheck = 0;
for (const type of ["pointermove", "pointerup", "pointercancel", "keyup"]) {
	document.addEventListener(type, () => {
		if (!activityCheck) activityCheck = setTimeout(() => ((activityCheck = 0), reportActivity()));
	}, { passive: true });
}

function settle(ref) {
	const changes = ref != null && model.settle(ref);
	if (changes && view) view.applyChanges(changes, isOwn);
}

function showScreen(msg) {
	const previous = model.screen;
	let result;
	try {
		result = model.setScreen(msg);
		for (const { ref, cmd } of socket.restored.splice(0)) model.propose(ref, cmd); // kept over a reload
	} catch (error) {
		warnFrame(`could not show the screen of list ${msg[K.screen]?.[K.list]}; asking for it again`, W.SCREEN, error);
		return requestReload();
	}
	reloading = false;
	const sc = model.screen;
	if (historyScreen && historyScreen.list !== sc.list) historyScreen.close(false);
	if (previous?.list !== sc.list) presence.clear();
	setLanguage(sc.language);
	$(".loading").hidden = true;
	if (view && previous?.list === sc.list && sc.transition === W.TRANSITION.none) {
		view.setScreen(sc);
		if (previous.search !== sc.search) view.scroller.scrollTop = 0; // new results start at the top
	} else {
		const old = view;
		if (early && sc.transition === W.TRANSITION.push) view = early; // slid in already
		else {
			view = new TableView(actions);
			transition($(".pages"), early?.page ?? old?.page, view.page, sc.transition);
		}
		early = null;
		view.setScreen(sc);
		const back = trail[sc.depth]?.list === sc.list ? trail[sc.depth] : null;
		if (sc.transition === W.TRANSITION.pop && (back || sc.selected || sc.scroll)) {
			view.returnTo(sc.selected ?? back?.row, back ? back.scrollTop : sc.scroll);
		} else view.scroller.focus({ preventScroll: true });
	}
	trail.length = sc.depth + 1;
	if (trail[sc.depth]?.list !== sc.list) trail[sc.depth] = undefined;
	nav.show(sc, sc.transition !== W.TRANSITION.none);
	field.show(sc, view.largeTitle);
	showToolbar();
	if (result.gap) requestReload();
}

function applyDiff(msg) {
	let result;
	try {
		result = model.receiveDiff(msg);
	} catch (error) {
		warnFrame(`could not apply the diff of list ${msg[K.list]} from version ${msg[K.from]} to ${msg[K.to]}; asking for the screen again`, W.DIFF, error);
		return requestReload();
	}
	for (const changes of result.changes) view.applyChanges(changes, isOwn);
	field.show(model.screen, view.largeTitle);
	if (result.gap) requestReload();
}

function requestReload() {
	if (reloading) return;
	reloading = true;
	socket.sendIfOpen(W.reload());
}

function setEditing(on) {
	view.closeSwipe();
	view.setEditing(on);
	nav.show(model.screen, false);
	showToolbar();
	send(W.editing(on));
}

function showToolbar() {
	const sc = model.screen;
	const bar = $(".toolbar");
	bar.hidden = !(sc?.editing && sc.editable);
	if (bar.hidden || !view) return;
	const n = view.state.selected.size;
	const del = /** @type {HTMLButtonElement} */ ($(".tb-delete"));
	del.disabled = n === 0;
	del.textContent = n ? word("deleteCount", { n }) : word("delete");
	/** @type {HTMLButtonElement} */ ($(".tb-rename")).disabled = n !== 1;
}

$(".tb-delete").onclick = () => view.state.selected.size && actions.remove([...view.state.selected]);
$(".tb-rename").onclick = () => {
	const at = locate(model.screen, [...view.state.selected][0]);
	if (at) actions.rename(model.screen.sections[at[0]].rows[at[1]]);
};
// Adds at the end of the last section (before its "insert" row), or first when the end
// is not fetched.
$(".tb-add").onclick = () => {
	const sec = model.screen.sections.at(-1);
	if (sec) actions.insertAt(sec.id, sec.rows.findLast((r) => r?.editing !== W.EDITING_STYLE.insert)?.id ?? null);
};

function showStatus(status) {
	$(".banner").hidden = status !== "reconnecting";
	view?.render(); // edits made offline show greyed while the line is down
	if (status === "open" && wide.matches) socket.send(W.layout(true));
	if (status === "open") historyScreen?.refresh(); // a new connection watches anew
}

let toastTimer = 0;
function toast(text) {
	const t = $(".toast");
	t.textContent = text;
	t.hidden = false;
	clearTimeout(toastTimer);
	toastTimer = setTimeout(() => (t.hidden = true), 3500);
}

/// The text of a row of the top screen (or the sidebar's), if it is loaded.
function rowText(id) {
	for (const sc of [model.screen, sidebar.view?.state.screen]) {
		const at = sc && locate(sc, id);
		if (at) return sc.sections[at[0]].rows[at[1]]?.text ?? null;
	}
	return null;
}

/// After a delete, as iOS Mail does: "Deleted “Milk” — Undo" for 5 s; its button undoes.
let undoTimer = 0;
const undoToast = $(".undo-toast");
function offerUndo(text) {
	/** @type {HTMLElement} */ (undoToast.firstElementChild).textContent = text;
	undoToast.hidden = false;
	clearTimeout(undoTimer);
	undoTimer = setTimeout(() => (undoToast.hidden = true), 5000);
}
/** @type {HTMLButtonElement} */ (undoToast.querySelector("button")).onclick = () => {
	clearTimeout(undoTimer);
	undoToast.hidden = true;
	socket.send(W.undo());
	view?.scroller.focus({ preventScroll: true });
};

// ⌘Z / Ctrl+Z undoes, ⇧⌘Z / Ctrl+Y redoes: the session's own changes, on the server.
// Not in a text field, whose own undo it is.
document.addEventListener("keydown", (e) => {
	if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
	const target = /** @type {Element} */ (e.target);
	if (target.closest?.("input, textarea, [contenteditable], .scrim")) return;
	const key = e.key.toLowerCase();
	const redo = (key === "z" && e.shiftKey) || (key === "y" && e.ctrlKey && !e.shiftKey);
	if (key !== "z" && !redo) return;
	e.preventDefault();
	socket.send(redo ? W.redo() : W.undo());
});

// A tap anywhere but on the row swiped open closes it (taps on the table say so themselves).
document.addEventListener("pointerdown", (e) => {
	if (view?.state.openSwipe && !view.scroller.contains(e.target)) view.closeSwipe();
});

document.addEventListener("keydown", (e) => {
	if (!view || /** @type {Element} */ (e.target).closest?.("input, .scrim, .swipe-actions") || e.ctrlKey || e.metaKey) return;
	if (e.key === "/" && !$(".searchbar").hidden) $(".searchbar input").focus(); // as Cmd-F on iPad
	else if (e.key === "Escape") {
		if (historyScreen) historyScreen.close();
		else if (view.state.openSwipe || view.state.confirming) {
			view.closeSwipe();
			view.state.confirm(null);
			view.render();
		} else if (model.screen.back != null) goBack();
	} else if (!(sidebar.view?.page.contains(e.target) ? sidebar.view : view).key(e)) return;
	e.preventDefault();
});

socket.connect();
