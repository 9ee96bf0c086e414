// @ts-check
// Access (v1.1): an access link's credential, who you are, and "Access needed".
import { word } from "./words.js";

const KEY = "tableweb.access";
export const UNAUTHORIZED_CLOSE = 4401;
const $ = (s) => document.querySelector(s);
const add = (parent, tag, cls, text) => {
	const e = parent.appendChild(document.createElement(tag));
	e.className = cls;
	e.textContent = text;
	return e;
};

// A fragment never reaches a server: move it into localStorage, out of the address bar.
export function takeCredentialFromLink() {
	const m = /^#access=([\w-]+)$/.exec(location.hash);
	if (!m) return;
	try { localStorage.setItem(KEY, m[1]); } catch { /* private mode */ }
	history.replaceState(null, "", location.pathname + location.search);
}

/// The name this browser goes by for others (Presence), set once under `tableweb.name`.
export function storedName() {
	try { return localStorage.getItem("tableweb.name"); } catch { return null; }
}

export function credential() {
	try { return localStorage.getItem(KEY); } catch { return null; }
}

export function showIdentity(user, role) {
	$(".whoami")?.remove();
	if (role) add($("#app"), "div", "whoami", user ? `${user} · ${role}` : role);
}

export function showAccessNeeded(message) {
	if ($(".access-needed")) return;
	const s = add($("#app"), "section", "access-needed", "");
	s.setAttribute("role", "alert");
	add(s, "h2", "", word("accessNeeded"));
	add(s, "p", "", word(credential() ? "accessExpired" : "accessMissing"));
	add(s, "p", "", word("accessAsk"));
	if (message) add(s, "p", "detail", message);
	for (const e of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".loading, .banner"))) e.hidden = true;
}
