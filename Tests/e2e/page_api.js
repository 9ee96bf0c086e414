// The in-page half of webdriver_page.py: finds elements the way Playwright's locators do
// (the subset the page tests use), waits for conditions, and keeps the page's errors and
// the server's answers for the tests. Sent with every script (one statement per call, so
// nothing depends on it having been installed before a navigation).
const TW = (window.__tw ??= (() => {
	const errors = [];
	const answers = [];
	addEventListener("error", (e) => errors.push(String(e.message)));
	addEventListener("unhandledrejection", (e) => errors.push(String(e.reason?.stack ?? e.reason)));
	// The server's ack and error answers: each socket's handler is wrapped the first time
	// the page sends on it, before the answer to what it sent can arrive.
	const send = WebSocket.prototype.send;
	WebSocket.prototype.send = function (data) {
		if (!this.__twWrapped && this.onmessage) {
			const handler = this.onmessage;
			this.__twWrapped = true;
			this.onmessage = (e) => {
				try {
					const msg = JSON.parse(e.data);
					if (msg.type === "ack" || msg.type === "error") answers.push(msg);
				} catch { /* not JSON: the page ignores it too */ }
				return handler.call(this, e);
			};
		}
		return send.call(this, data);
	};

	const norm = (s) => (s ?? "").replace(/\s+/g, " ").trim();
	const visible = (n) => {
		const r = n.getBoundingClientRect();
		return r.width > 0 && r.height > 0 && getComputedStyle(n).visibility !== "hidden";
	};
	// Playwright's pseudo-classes at the end of a selector: :text-is("x"), :text("x"), :visible.
	const PSEUDO = /:(text-is|text|visible)(?:\((["'])(.*?)\2\))?$/;
	function query(root, selector) {
		const filters = [];
		let css = selector.trim();
		for (let m; (m = css.match(PSEUDO)); css = css.slice(0, m.index)) filters.push([m[1], m[3]]);
		let found = [...root.querySelectorAll(css)];
		for (const [kind, text] of filters) {
			if (kind === "visible") found = found.filter(visible);
			else if (kind === "text-is") found = found.filter((n) => norm(n.textContent) === text);
			else found = found.filter((n) => norm(n.textContent).toLowerCase().includes(text.toLowerCase()));
		}
		return found;
	}
	const ROLES = { button: "button, input[type=button], input[type=submit], [role=button]",
		searchbox: "input[type=search], [role=searchbox]", search: "[role=search], search",
		textbox: "input:not([type]), input[type=text], textarea, [role=textbox]", menu: "[role=menu]",
		menuitem: "[role=menuitem]", link: "a[href], [role=link]" };
	const accessibleName = (n) => {
		const by = n.getAttribute("aria-labelledby");
		const label = n.getAttribute("aria-label") ?? (by ? document.getElementById(by)?.textContent : n.textContent);
		return norm(label || n.getAttribute("placeholder") || "");
	};
	// A step: {css | role+name, hasText, has: [steps], nth}; each narrows the last.
	function resolve(steps, root = document) {
		let nodes = [root];
		for (const step of steps) {
			let next = [];
			for (const n of nodes) {
				const found = step.role ? [...n.querySelectorAll(ROLES[step.role] ?? `[role=${step.role}]`)]
					.filter((e) => step.name == null || accessibleName(e).toLowerCase().includes(step.name.toLowerCase()))
					: query(n, step.css);
				for (const e of found) if (!next.includes(e)) next.push(e);
			}
			if (step.hasText != null) {
				const t = step.hasText.toLowerCase();
				next = next.filter((e) => norm(e.textContent).toLowerCase().includes(t));
			}
			if (step.has) next = next.filter((e) => resolve(step.has, e).length > 0);
			if (step.nth != null) next = step.nth < 0 ? next.slice(step.nth).slice(0, 1) : next.slice(step.nth, step.nth + 1);
			nodes = next;
		}
		return nodes;
	}
	function one(steps, what) {
		const found = resolve(steps);
		if (found.length > 1) throw new Error(`strict mode: ${found.length} elements match ${what}`);
		return found[0] ?? null;
	}
	const STATES = {
		attached: (n) => n != null, detached: (n) => n == null,
		visible: (n) => n != null && visible(n), hidden: (n) => n == null || !visible(n),
	};
	async function until(check, timeout, what) {
		const end = performance.now() + timeout;
		for (;;) {
			const v = await check();
			if (v) return v;
			if (performance.now() > end) throw new Error(`Timeout ${timeout}ms exceeded waiting for ${what}`);
			await new Promise((r) => setTimeout(r, 16));
		}
	}
	const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
	// Where a pointer would hit the element, once it is visible, still and not covered
	// (Playwright's actionability checks); scrolled into view first.
	async function target(steps, what, timeout) {
		let last = null;
		return until(async () => {
			const n = one(steps, what);
			if (!n || !visible(n)) return null;
			const box = n.getBoundingClientRect();
			if (box.bottom <= 0 || box.top >= innerHeight || box.right <= 0 || box.left >= innerWidth) {
				n.scrollIntoView({ block: "center", inline: "center" });
				return null;
			}
			await frame();
			const r = n.getBoundingClientRect();
			const still = last && r.x === last.x && r.y === last.y && r.width === last.width && r.height === last.height;
			last = r;
			if (!still) return null;
			const x = Math.round(r.x + r.width / 2), y = Math.round(r.y + r.height / 2);
			const hit = document.elementFromPoint(x, y);
			return hit && (hit === n || n.contains(hit)) ? { x, y } : null;
		}, timeout, `${what} to be visible, stable and receive pointer events`);
	}
	return { errors, answers, resolve, one, until, STATES, target, visible };
})());
