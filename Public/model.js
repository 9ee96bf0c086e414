// @ts-check
// The screen as plain data, kept current by the server's screen, diff and rows messages.
// No DOM here: the patcher reads this and the browser tests drive it directly.
import * as W from "./wire.js";
const { K } = W;

/** A row's id as the page keys it: the wire's id as a string.
 * @typedef {string} RowId */
/** One row as the page holds it (rowFromWire).
 * @typedef {ReturnType<typeof rowFromWire>} Row */
/** A section; `rows` has `count` entries, null for rows not fetched yet.
 * @typedef {{id: string, header: string | null, footer: string | null, rows: (Row | null)[]}} Section */
/** The screen shown (screenFromWire).
 * @typedef {ReturnType<typeof screenFromWire>} Screen */
/** What one applied diff touched (applyOps); `renamed`: own inserts the server has named.
 * @typedef {{removed: Set<RowId>, inserted: Set<RowId>, moved: Set<RowId>, updated: Set<RowId>, sections: boolean, renamed?: [RowId, RowId][]}} Changes */

/// A section's `rows` always has `count` entries; rows not fetched yet are `null`.
export function rowFromWire(w) {
	const c = w[K.control];
	return {
		id: String(w[K.id]),
		style: w[K.style] || W.CELL_STYLE.default,
		text: w[K.text] ?? "",
		detail: w[K.detail] ?? null,
		lines: w.values ? 0 : Number.isInteger(w[K.lines]) && w[K.lines] >= 0 ? w[K.lines] : 1, // v1.1; 0: any
		flagged: w.flagged === true, // extension: a row action's flag
		values: w.values && typeof w.values === "object" ? w.values : null, // extension: custom cell
		actions: Array.isArray(w.actions) ? w.actions : null, // extension: its own actions
		image: w[K.image] ?? null,
		accessory: w[K.accessory] || W.ACCESSORY_TYPE.none,
		control: c && c[K.kind] === W.CONTROL_SWITCH ? { on: !!c[K.on] } : null,
		editing: w[K.editing] || W.EDITING_STYLE.none,
		movable: !!w[K.movable],
		selectable: w[K.selectable] !== false,
	};
}

/** @returns {Section} */
export function sectionFromWire(w) {
	const sent = w[K.rows] || [];
	const rows = new Array(Math.max(w[K.count] ?? sent.length, sent.length)).fill(null);
	sent.forEach((r, i) => (rows[i] = rowFromWire(r)));
	return { id: String(w[K.id]), header: w[K.header] ?? null, footer: w[K.footer] ?? null, rows };
}

export function screenFromWire(msg) {
	const s = msg[K.screen];
	return {
		transition: msg[K.transition] || W.TRANSITION.none,
		depth: msg[K.depth] ?? 0,
		stack: msg[K.stack] || [],
		scroll: msg[K.scroll] ?? null, // on a pop: the row to scroll to the top
		selected: msg[K.selected] ?? null, // on a pop: the row that was tapped to leave

		list: s[K.list],
		version: s[K.version],
		title: s[K.title] ?? "",
		back: s[K.back] ?? null,
		style: s[K.style] || W.TABLE_STYLE.plain,
		editing: !!s[K.editing],
		editable: !!s[K.editable],
		selection: s[K.selection] || W.SELECTION.none,
		indexTitles: s[K.indexTitles] || null,
		header: s[K.header] ?? null,
		footer: s[K.footer] ?? null,
		searchable: !!s[K.searchable],
		search: s[K.search] ?? null, // the query these are the results of
		language: s[K.language] ?? null, // v1.2: sets the page's lang, dir and words
		sections: (s[K.sections] || []).map(sectionFromWire),
		actions: s.actions || [], // extension: row actions
		cell: s.cell?.slots ? s.cell : null, // extension: custom cell layout
	};
}

const byIndexDesc = (a, b) => b[1] - a[1];
const byPathAsc = (a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1];

/// Applies one diff's ops to `sections` in place, as docs/protocol.md says (sections leave
/// after their rows and arrive before them). Returns the ids each kind of op touched.
export function applyOps(sections, ops) {
	const changes = {
		removed: new Set(), inserted: new Set(), moved: new Set(), updated: new Set(),
		sections: false,
	};
	const old = sections.slice();
	const leaving = new Map(); // section → [row indexes] in the old list
	const landing = []; // {at, row}
	const leave = (s, r) => {
		const sec = old[s];
		if (!sec || r < 0 || r >= sec.rows.length) throw new RangeError(`no row at [${s},${r}]`);
		if (!leaving.has(sec)) leaving.set(sec, []);
		leaving.get(sec).push([sec, r]);
		return sec.rows[r];
	};
	for (const op of ops) {
		switch (op[K.op]) {
			case W.OP_DELETE: {
				const row = leave(...op[K.at]);
				if (row) changes.removed.add(row.id);
				break;
			}
			case W.OP_MOVE: {
				const row = leave(...op[K.from]);
				landing.push({ at: op[K.to], row });
				if (row) changes.moved.add(row.id);
				break;
			}
			case W.OP_INSERT: {
				const row = rowFromWire(op[K.row]);
				landing.push({ at: op[K.at], row });
				changes.inserted.add(row.id);
				break;
			}
		}
	}
	for (const list of leaving.values())
		for (const [sec, r] of list.sort(byIndexDesc)) sec.rows.splice(r, 1);

	const gone = new Set(ops.filter((o) => o[K.op] === W.OP_DELETE_SECTION).map((o) => old[o[K.at]]));
	if (gone.size) {
		for (const sec of gone) sec?.rows.forEach((r) => r && changes.removed.add(r.id));
		sections.splice(0, sections.length, ...sections.filter((s) => !gone.has(s)));
		changes.sections = true;
	}
	const newSections = ops.filter((o) => o[K.op] === W.OP_INSERT_SECTION)
		.sort((a, b) => a[K.at] - b[K.at]);
	for (const o of newSections) {
		const sec = sectionFromWire(o[K.section]);
		sections.splice(o[K.at], 0, sec);
		sec.rows.forEach((r) => r && changes.inserted.add(r.id));
		changes.sections = true;
	}
	for (const { at: [s, r], row } of landing.sort(byPathAsc)) {
		const sec = sections[s];
		if (!sec || r > sec.rows.length) throw new RangeError(`cannot place a row at [${s},${r}]`);
		sec.rows.splice(r, 0, row);
	}
	for (const op of ops) {
		if (op[K.op] === W.OP_UPDATE) {
			const [s, r] = op[K.at];
			const row = rowFromWire(op[K.row]);
			if (!sections[s] || r >= sections[s].rows.length) throw new RangeError(`no row at [${s},${r}]`);
			sections[s].rows[r] = row;
			changes.updated.add(row.id);
		} else if (op[K.op] === W.OP_UPDATE_SECTION) {
			const sec = sections[op[K.at]];
			if (!sec) throw new RangeError(`no section ${op[K.at]}`);
			if (K.header in op) sec.header = op[K.header];
			if (K.footer in op) sec.footer = op[K.footer];
			changes.sections = true;
		}
	}
	return changes;
}

/** Where row `rowId` is: [section, index], or null.
 * @param {{sections: Section[]}} screen @param {RowId} rowId @returns {[number, number] | null} */
export function locate(screen, rowId) {
	for (let s = 0; s < screen.sections.length; s++) {
		const r = screen.sections[s].rows.findIndex((row) => row?.id === rowId);
		if (r >= 0) return [s, r];
	}
	return null;
}

const PENDING_LIMIT = 500;
const { ACCESSORY_TYPE: A } = W;

/// Applies one of this page's own commands to `sections` (copies: rows are replaced, never
/// changed), as the server will: what a person did shows before the server answers. A
/// command whose rows are gone does nothing; the server's answer has the last word.
/// `own`: {cmd, temp (the id an inserted row has until the server names it)}.
function applyCommand(sections, own, screen) {
	const { cmd } = own;
	const find = (id) => {
		for (let s = 0; s < sections.length; s++) {
			const r = sections[s].rows.findIndex((row) => row?.id === id);
			if (r >= 0) return [s, r];
		}
		return null;
	};
	const replace = (id, change) => {
		const at = find(id);
		if (at) sections[at[0]].rows[at[1]] = { ...sections[at[0]].rows[at[1]], ...change(sections[at[0]].rows[at[1]]) };
	};
	const place = (row, sectionId, after) => {
		const sec = sections.find((x) => x.id === sectionId);
		if (!sec) return;
		const i = after == null ? 0 : sec.rows.findIndex((r) => r?.id === after) + 1;
		sec.rows.splice(i > 0 || after == null ? i : sec.rows.length, 0, row);
	};
	const take = (id) => {
		const at = find(id);
		return at && sections[at[0]].rows.splice(at[1], 1)[0];
	};
	switch (cmd[K.type]) {
		case W.TOGGLE:
			return replace(cmd[K.row], (r) => r.control && { control: { on: cmd[K.on] } });
		case W.UPDATE:
			return replace(cmd[K.row], () => ({
				...(K.text in cmd && { text: cmd[K.text] }), ...(K.detail in cmd && { detail: cmd[K.detail] }) }));
		case W.DELETE:
			return cmd[K.rows].forEach(take);
		case W.MOVE: {
			const row = take(cmd[K.row]);
			return row && place(row, cmd[K.section], cmd[K.after]);
		}
		case W.INSERT: {
			if (own.landed) return;
			const like = sections.find((x) => x.id === cmd[K.section])?.rows.find((r) => r?.id === cmd[K.after]);
			const w = cmd[K.row];
			return place({ ...rowFromWire({ id: own.temp, text: w[K.text], detail: w[K.detail] }),
				style: like?.style ?? W.CELL_STYLE.default, editing: like?.editing ?? W.EDITING_STYLE.none,
				movable: like?.movable ?? false }, cmd[K.section], cmd[K.after]);
		}
		case W.ACTION: { // a row action whose effect the screen names (a data file's)
			const effect = screen.actions.find((a) => a.id === cmd.action)?.effect;
			if (effect === "delete") return void take(cmd[K.row]);
			if (effect === "flag") return replace(cmd[K.row], (r) => ({ flagged: !r.flagged }));
			if (effect === "check") return replace(cmd[K.row], (r) => ({ accessory: r.accessory === A.checkmark ? A.none : A.checkmark }));
			return;
		}
		case W.TAP: { // only a pick in a selection list is shown before the answer
			const multiple = screen.selection === W.SELECTION.multiple;
			const picked = find(cmd[K.row]);
			if (!picked) return;
			const wasChecked = sections[picked[0]].rows[picked[1]].accessory === A.checkmark;
			if (!multiple && wasChecked) return;
			for (const sec of sections) {
				sec.rows.forEach((r, i) => {
					const on = r?.id === cmd[K.row] ? !wasChecked : multiple ? null : false;
					if (r && on != null && (r.accessory === A.checkmark) !== on) sec.rows[i] = { ...r, accessory: on ? A.checkmark : A.none };
				});
			}
		}
	}
}

/// What the view must show going from `before` to `after` (the changes applyOps returns),
/// found by row id.
function compare(before, after) {
	const rows = (sections) => {
		const m = new Map();
		for (const sec of sections) for (const r of sec.rows) if (r) m.set(r.id, r);
		return m;
	};
	const old = rows(before);
	const now = rows(after);
	const changes = { removed: new Set(), inserted: new Set(), moved: new Set(), updated: new Set(), sections: false };
	for (const id of old.keys()) if (!now.has(id)) changes.removed.add(id);
	for (const [id, row] of now) {
		if (!old.has(id)) changes.inserted.add(id);
		else if (old.get(id) !== row && JSON.stringify(old.get(id)) !== JSON.stringify(row)) changes.updated.add(id);
	}
	changes.sections = before.length !== after.length ||
		before.some((s, i) => s.id !== after[i].id || s.header !== after[i].header || s.footer !== after[i].footer);
	return changes;
}

/// The screen plus diffs that came early, and this page's own commands not answered yet.
/// A diff is dropped when the screen has it, or as the oldest of more than PENDING_LIMIT;
/// a hole in the versions is a gap: reload.
///
/// `screen.sections` is what the person sees: the server's rows (`confirmed`) with every
/// own command still unanswered applied on top, in the order they were made. Each diff
/// applies to the server's rows and the own commands are applied again on top (a rebase),
/// so that someone else's change never undoes one's own on screen; an answer (ack or
/// error) takes its command out, and the screen is then the server's.
export class Model {
	constructor() {
		this.screen = null;
		this.confirmed = null; // the server's sections at screen.version
		this.pending = []; // diffs not applicable yet, in arrival order
		this.own = []; // {ref, cmd, temp, landed}: own commands not answered yet, in order
	}

	/// Returns {changes, gap} after applying whatever held diffs continue the new screen.
	setScreen(msg) {
		this.screen = screenFromWire(msg);
		this.confirmed = this.screen.sections;
		const changes = this.drain();
		if (this.layered()) this.relayer();
		return { changes, gap: this.hasGap() };
	}

	/// Returns {changes: [per applied diff], gap}.
	receiveDiff(msg) {
		this.pending.push(msg);
		if (this.pending.length > PENDING_LIMIT) this.pending.shift();
		const before = this.screen?.sections;
		const changes = this.drain();
		if (changes.length && (this.layered() || before !== this.confirmed)) return { changes: [this.relayer(before)], gap: this.hasGap() };
		return { changes, gap: this.hasGap() };
	}

	/// Fills fetched rows in; false when they belong to another list or version.
	receiveRows(msg) {
		const sc = this.screen;
		if (!sc || msg[K.list] !== sc.list || msg[K.version] !== sc.version) return false;
		const sec = this.confirmed[msg[K.section]]; // an index at `version`
		if (!sec) return false;
		const from = msg[K.from];
		(msg[K.rows] || []).forEach((w, i) => {
			if (from + i < sec.rows.length) sec.rows[from + i] = rowFromWire(w);
		});
		if (this.layered()) this.relayer();
		return true;
	}

	/// Shows `cmd` (sent as `ref`) at once, when it changes the screen's rows. Returns the
	/// changes to show, or null.
	propose(ref, cmd) {
		const sc = this.screen;
		if (!sc || cmd[K.list] !== sc.list) return null;
		if (cmd[K.type] === W.TAP && sc.selection === W.SELECTION.none) return null;
		this.own.push({ ref, cmd, temp: `pending-${ref}`, landed: null });
		return this.relayer(sc.sections);
	}

	/// The server answered `ref` (ack or error): the screen shows the server's rows for it.
	/// Returns the changes to show, or null when `ref` was not shown ahead.
	settle(ref) {
		const i = this.own.findIndex((o) => o.ref === ref);
		if (i < 0) return null;
		this.own.splice(i, 1);
		return this.relayer(this.screen.sections);
	}

	/// Whether row `id` shows an own command the server has not answered yet.
	isPending(id) {
		return this.own.some(({ cmd, temp }) => temp === id || cmd[K.row] === id || cmd[K.rows]?.includes(id));
	}

	layered() {
		return this.own.some((o) => o.cmd[K.list] === this.screen?.list);
	}

	/// Rebuilds the sections shown from the server's and the own commands; returns what
	/// changed since `before`.
	relayer(before = this.screen.sections) {
		const sc = this.screen;
		if (!this.layered()) sc.sections = this.confirmed;
		else {
			sc.sections = this.confirmed.map((sec) => ({ ...sec, rows: sec.rows.slice() }));
			for (const own of this.own) if (own.cmd[K.list] === sc.list) applyCommand(sc.sections, own, sc);
		}
		const changes = compare(before, sc.sections);
		changes.renamed = [];
		for (const { temp, landed } of this.own) {
			if (landed && changes.removed.has(temp) && changes.inserted.has(landed)) {
				changes.removed.delete(temp);
				changes.inserted.delete(landed);
				changes.renamed.push([temp, landed]);
			}
		}
		return changes;
	}

	drain() {
		const sc = this.screen;
		const applied = [];
		if (!sc) return applied;
		for (;;) {
			this.pending = this.pending.filter((d) => d[K.list] !== sc.list || d[K.to] > sc.version);
			const next = this.pending.find((d) => d[K.list] === sc.list && d[K.from] === sc.version);
			if (!next) return applied;
			this.pending.splice(this.pending.indexOf(next), 1);
			const changes = applyOps(this.confirmed, next[K.ops] || []);
			this.land(changes.inserted);
			applied.push(changes);
			sc.version = next[K.to];
		}
	}

	/// An own insert whose row the server has placed (the diff comes before the ack): the
	/// row the diff brought, in the same section with the same text, takes its place.
	land(inserted) {
		for (const own of this.own) {
			if (own.cmd[K.type] !== W.INSERT || own.landed || own.cmd[K.list] !== this.screen.list) continue;
			for (const sec of this.confirmed) {
				if (sec.id !== own.cmd[K.section]) continue;
				const row = sec.rows.find((r) => r && inserted.has(r.id) && r.text === own.cmd[K.row][K.text]);
				if (row && !this.own.some((o) => o.landed === row.id)) own.landed = row.id;
			}
		}
	}

	hasGap() {
		return !!this.screen && this.pending.some((d) => d[K.list] === this.screen.list);
	}
}
