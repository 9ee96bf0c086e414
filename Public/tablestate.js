// @ts-check
// What one TableView knows besides its DOM: the screen it shows, the user's picks and
// gestures in progress, and its layout's measurements. Other modules read these fields;
// only the named methods below change them, so every write is one place to look.
/** @typedef {import("./heights.js").SectionHeights} SectionHeights */
/** @typedef {import("./model.js").Screen} Screen */
/** @typedef {import("./model.js").RowId} RowId */

/** A row swiped open: its node, the side whose buttons show, and how far it is open.
 * `{node}` alone is a swipe being closed.
 * @typedef {{node: HTMLElement, side?: "leading" | "trailing", dx?: number}} OpenSwipe */

/** A row being reordered by pointer: its id, section `s` and index `from` when lifted,
 * the section `ts` and index `to` it would land at, where each section's rows start with
 * it taken out, and whether it was dropped (its move sent, not answered yet).
 * @typedef {{id: string, s: number, from: number, ts: number, to: number, tops: number[], dropped?: boolean}} Drag */

/** [section, index, row id, top]: the first row on screen at the last layout.
 * @typedef {[number, number, string, number]} Anchor */

export class TableState {
	/** @type {Screen | null} */ #screen = null;
	/** @type {boolean | null} */ #expanded = null;
	/** @type {Set<RowId>} */ #selected = new Set();
	/** @type {RowId | null} */ #confirming = null;
	/** @type {RowId | null} */ #current = null;
	/** @type {OpenSwipe | null} */ #openSwipe = null;
	/** @type {Drag | null} */ #drag = null;
	#suppressClick = false;
	/** @type {number[]} */ #offsets = [];
	/** @type {[number, number][]} */ #heights = [];
	/** @type {SectionHeights[]} */ #rowHeights = [];
	#sized = false;
	/** @type {Map<RowId, number>} */ #measured = new Map();
	#width = 0;
	#rem = 0;
	/** @type {Anchor | null} */ #anchor = null;
	#keepAnchor = false;

	/** The screen shown. Null only before TableView.setScreen, when only layOut, which
	 * checks, reads it: typed as always there.
	 * @returns {Screen} */
	get screen() { return /** @type {Screen} */ (this.#screen); }
	/** Whether the large title shows (root screens, scrolled to the top); null: not known. */
	get expanded() { return this.#expanded; }
	/** Rows picked in editing mode for "Delete (n)".
	 * @returns {ReadonlySet<RowId>} */
	get selected() { return this.#selected; }
	/** The row whose minus control was turned. */
	get confirming() { return this.#confirming; }
	/** split.js: the row the top screen was opened from, highlighted in the sidebar. */
	get current() { return this.#current; }
	/** At most one row swiped open.
	 * @returns {Readonly<OpenSwipe> | null} */
	get openSwipe() { return this.#openSwipe; }
	/** A row being reordered by pointer.
	 * @returns {Readonly<Drag> | null} */
	get drag() { return this.#drag; }
	/** A gesture just ended: the click it makes is not a tap. */
	get suppressClick() { return this.#suppressClick; }
	/** Section → px its rows are drawn above their place (scale.js).
	 * @returns {readonly number[]} */
	get offsets() { return this.#offsets; }
	/** Section → [real, drawn] height of its rows area.
	 * @returns {readonly (readonly [number, number])[]} */
	get heights() { return this.#heights; }
	/** Section → its rows' heights; rebuilt when `sized` is false.
	 * @returns {readonly SectionHeights[]} */
	get rowHeights() { return this.#rowHeights; }
	get sized() { return this.#sized; }
	/** Row id → px: self-sizing rows as drawn at `width`.
	 * @returns {ReadonlyMap<RowId, number>} */
	get measured() { return this.#measured; }
	get width() { return this.#width; }
	/** px per rem when the rows were last sized: a text-size change sizes them again. */
	get rem() { return this.#rem; }
	/** The first row on screen at the last layout.
	 * @returns {Readonly<Anchor> | null} */
	get anchor() { return this.#anchor; }
	/** Heights changed under the viewport: the next layout keeps `anchor` still. */
	get keepAnchor() { return this.#keepAnchor; }

	// The screen and editing mode.

	/** A new screen (or the same list's again): the title's state and the sizes are redone.
	 * @param {Screen} screen */
	showScreen(screen) {
		this.#screen = screen;
		this.#expanded = null;
		this.#sized = false;
	}

	/** @param {boolean} on */
	setEditing(on) {
		if (this.#screen) this.#screen.editing = on;
	}

	/** Records whether the large title shows; returns whether that changed.
	 * @param {boolean} on */
	titleExpanded(on) {
		if (on === this.#expanded) return false;
		this.#expanded = on;
		return true;
	}

	/** @param {RowId | null} id */
	setCurrent(id) {
		this.#current = id;
	}

	// Picks in editing mode.

	/** Ends editing mode's picks: none selected, none confirming. */
	clearSelection() {
		this.#selected.clear();
		this.#confirming = null;
	}

	/** Keeps only the picks `has` still finds.
	 * @param {(id: RowId) => unknown} has */
	keepSelected(has) {
		for (const id of this.#selected) if (!has(id)) this.#selected.delete(id);
	}

	/** Picks or unpicks `id` for deletion; any confirmation is called off.
	 * @param {RowId} id */
	toggleSelected(id) {
		if (this.#selected.has(id)) this.#selected.delete(id);
		else this.#selected.add(id);
		this.#confirming = null;
	}

	/** A row that went: no longer picked or confirming.
	 * @param {RowId} id */
	rowRemoved(id) {
		this.#selected.delete(id);
		if (this.#confirming === id) this.#confirming = null;
	}

	/** @param {RowId | null} id */
	confirm(id) {
		this.#confirming = id;
	}

	// Gestures.

	/** @param {OpenSwipe | null} swipe */
	setOpenSwipe(swipe) {
		this.#openSwipe = swipe;
	}

	/** @param {boolean} on */
	setSuppressClick(on) {
		this.#suppressClick = on;
	}

	/** Starts a drag; what it returns is read-only: it changes through the methods below.
	 * @param {Drag} drag
	 * @returns {Readonly<Drag>} */
	startDrag(drag) {
		this.#drag = drag;
		return drag;
	}

	/** The dragged row was let go where it moves: its move is sent. */
	dropDrag() {
		if (this.#drag) this.#drag.dropped = true;
	}

	/** The row `drag` lifted would land in section `ts` at index `to`.
	 * @param {Readonly<Drag>} drag @param {number} ts @param {number} to */
	dragTo(drag, ts, to) {
		const d = /** @type {Drag} */ (drag);
		d.ts = ts;
		d.to = to;
	}

	/** Ends the drag, or only `drag` when it is still the one in progress.
	 * @param {Readonly<Drag>} [drag] */
	endDrag(drag) {
		if (!drag || this.#drag === drag) this.#drag = null;
	}

	// Layout.

	/** Sizes are estimated again at the next layout. */
	invalidateSizes() {
		this.#sized = false;
	}

	/** The scroller's width changed: measured rows are measured again. */
	resized() {
		this.#measured.clear();
		this.#sized = false;
	}

	/** Self-sizing rows came out taller or shorter than estimated: sizes are redone, keeping
	 * the row on screen still. */
	remeasured() {
		this.#sized = false;
		this.#keepAnchor = true;
	}

	/** Rows arrived: the row on screen stays still if they change the sizes. */
	keepAnchorIfUnsized() {
		this.#keepAnchor ||= !this.#sized;
	}

	/** @param {number} width @param {SectionHeights[]} rowHeights @param {number} rem */
	sizedTo(width, rowHeights, rem) {
		this.#width = width;
		this.#rem = rem;
		this.#rowHeights = rowHeights;
		this.#sized = true;
	}

	/** Returns `keepAnchor` and clears it: one layout uses it. */
	takeKeepAnchor() {
		const keep = this.#keepAnchor;
		this.#keepAnchor = false;
		return keep;
	}

	/** @param {[number, number][]} heights */
	setHeights(heights) {
		this.#heights = heights;
	}

	/** @param {number[]} offsets */
	setOffsets(offsets) {
		this.#offsets = offsets;
	}

	/** @param {Anchor | null} anchor */
	setAnchor(anchor) {
		this.#anchor = anchor;
	}

	/** @param {RowId} id @param {number} height */
	setMeasured(id, height) {
		this.#measured.set(id, height);
	}
}
