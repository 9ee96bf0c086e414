// @ts-check
// Lists taller than a browser lays out. Chromium caps an element at 33,554,432 px (a
// million 44 px rows is 44,000,000), so a long section's rows area is drawn shorter
// (`h` instead of its real `R`), and while the viewport passes through it the rows are
// offset by how far the real list is ahead of the scroll position, as large grids do.
// Scrolling through such a section moves R/h times faster; every row can be reached.
const CAP = 16_000_000; // rows px in the page at most: below every browser's limit

/// The drawn height of each section's rows area, given their real heights.
export function drawnHeights(real, view) {
	const total = real.reduce((a, b) => a + b, 0);
	if (total <= CAP) return real;
	const k = CAP / total;
	return real.map((r) => Math.min(r, Math.max(r * k, view * 4)));
}

/// For each section: how far its rows are drawn above their place (px), with the
/// rows areas at `tops` (drawn `h`, real `real`) and the viewport's top at `p`. A
/// section adds its share over the scroll positions from its top to its end less a
/// viewport, so every drawn area starts and ends exactly where the real one would.
export function rowOffsets(tops, h, real, p, view) {
	const part = tops.map((t, s) =>
		h[s] < real[s] ? (real[s] - h[s]) * Math.max(0, Math.min(1, (p - t) / (h[s] - view))) : 0);
	const total = part.reduce((a, b) => a + b, 0);
	let before = 0;
	return part.map((_, s) => {
		const o = total - before;
		before += real[s] - h[s];
		return o;
	});
}

/// The scroll position that puts real offset `y` of a rows area at the viewport's top.
export function scrollFor(top, h, real, y, view) {
	if (h >= real) return top + y;
	return top + Math.max(0, Math.min(1, y / (real - view))) * (h - view);
}
