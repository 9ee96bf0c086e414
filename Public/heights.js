// @ts-check
// Row heights for self-sizing rows (data format v1.1 `lines`). A row is ROW_HEIGHT tall
// unless its style is taller (subtitle) or its text may wrap: such a row is estimated
// until it has been drawn and measured, then known. Positions are i × ROW_HEIGHT plus
// the sum of the differences of the rows before, kept as a sorted list of exceptions
// so that a million uniform rows cost nothing.
import { rems, rowHeight } from "./cell.js";
import { CELL_STYLE } from "./wire.js";

const SUBTITLE = 3.5; // rem: UITableViewCell.subtitle, a 17 pt line over a 12 pt one
const LINE = 1.3125; // rem: one more line of 17 pt text

/// How tall `row` is: as measured (`measured`: id → px), else estimated.
export function heightOf(row, measured, width) {
	if (!row) return rowHeight();
	const base = row.style === CELL_STYLE.subtitle ? rems(SUBTITLE) : rowHeight();
	if (row.lines === 1) return base;
	const known = measured.get(row.id);
	if (known) return known;
	const perLine = Math.max(10, (width - rems(5)) / rems(.53)); // characters of 17 pt text
	const wanted = Math.ceil(Math.max(row.text.length, row.detail?.length ?? 0) / perLine);
	const lines = row.lines > 0 ? Math.min(row.lines, wanted) : wanted;
	return base + Math.max(0, lines - 1) * rems(LINE);
}

/// The heights of one section's rows.
export class SectionHeights {
	constructor(rows, measured, width) {
		this.n = rows.length;
		const H = (this.h = rowHeight()); // the rows' height at this text size
		this.at = []; // indexes of the rows not H tall, ascending
		this.extra = []; // extra[k]: the differences of the rows at[0...k-1] (prefix sums)
		let sum = 0;
		rows.forEach((row, i) => {
			const d = row ? heightOf(row, measured, width) - H : 0;
			if (!d) return;
			this.at.push(i);
			this.extra.push(sum);
			sum += d;
		});
		this.extra.push(sum);
	}

	/// How many exceptions lie before row i.
	count(i) {
		let lo = 0, hi = this.at.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (this.at[mid] < i) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}

	top(i) {
		return i * this.h + this.extra[this.count(i)];
	}

	height(i) {
		return this.top(i + 1) - this.top(i);
	}

	get total() {
		return this.top(this.n);
	}

	/// The row at offset y (clamped to the section).
	indexAt(y) {
		let lo = 0, hi = this.n - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (this.top(mid) <= y) lo = mid;
			else hi = mid - 1;
		}
		return Math.max(0, lo);
	}
}
