// @ts-check
// Asks the server, once each, for rows about to scroll into view.
export const FETCH_PAGE = 100;

export class RowFetcher {
	/// `fetch(sectionId, from, count)` sends the request.
	constructor(fetch) {
		this.fetch = fetch;
		this.inflight = new Map(); // "section~from" → {id, from, to}: fetches not answered yet
	}

	clear() {
		this.inflight.clear();
	}

	/// Asks for the unfetched rows among `first...last`, from the first one missing, unless
	/// a fetch already covers them. The server may answer with fewer rows; the next render
	/// asks for the rest.
	fetchMissing(sec, first, last) {
		for (let i = first; i <= last; i++) {
			if (sec.rows[i]) continue;
			const covering = [...this.inflight.values()].find((f) => f.id === sec.id && f.from <= i && i < f.to);
			if (covering) {
				i = covering.to - 1;
				continue;
			}
			const count = Math.min(FETCH_PAGE, sec.rows.length - i);
			this.inflight.set(`${sec.id}~${i}`, { id: sec.id, from: i, to: i + count });
			this.fetch(sec.id, i, count);
			i += count - 1;
		}
	}

	/// `sectionId` is undefined when the rows were stale: then every fetch is asked again.
	arrived(sectionId, from) {
		if (sectionId) this.inflight.delete(`${sectionId}~${from}`);
		else this.inflight.clear();
	}
}
