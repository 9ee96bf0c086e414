// The screen as plain data, kept current by the server's screen, diff and rows messages.
// No DOM here: the patcher reads this and the browser tests drive it directly.
import * as W from "./wire.js";
const { K } = W;

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

export function locate(screen, rowId) {
	for (let s = 0; s < screen.sections.length; s++) {
		const r = screen.sections[s].rows.findIndex((row) => row?.id === rowId);
		if (r >= 0) return [s, r];
	}
	return null;
}

const PENDING_LIMIT = 500;

/// The screen plus diffs that came early. A diff is dropped when the screen has it, or
/// as the oldest of more than PENDING_LIMIT; a hole in the versions is a gap: reload.
export class Model {
	constructor() {
		this.screen = null;
		this.pending = []; // diffs not applicable yet, in arrival order
	}

	/// Returns {gap} after applying whatever held diffs continue the new screen.
	setScreen(msg) {
		this.screen = screenFromWire(msg);
		const changes = this.drain();
		return { changes, gap: this.hasGap() };
	}

	/// Returns {changes: [per applied diff], gap}.
	receiveDiff(msg) {
		this.pending.push(msg);
		if (this.pending.length > PENDING_LIMIT) this.pending.shift();
		const changes = this.drain();
		return { changes, gap: this.hasGap() };
	}

	/// Fills fetched rows in; false when they belong to another list or version.
	receiveRows(msg) {
		const sc = this.screen;
		if (!sc || msg[K.list] !== sc.list || msg[K.version] !== sc.version) return false;
		const sec = sc.sections[msg[K.section]]; // an index at `version`
		if (!sec) return false;
		const from = msg[K.from];
		(msg[K.rows] || []).forEach((w, i) => {
			if (from + i < sec.rows.length) sec.rows[from + i] = rowFromWire(w);
		});
		return true;
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
			applied.push(applyOps(sc.sections, next[K.ops] || []));
			sc.version = next[K.to];
		}
	}

	hasGap() {
		return !!this.screen && this.pending.some((d) => d[K.list] === this.screen.list);
	}
}
