// @ts-check
// The WebSocket: connects, says hello with the stored session token, queues commands
// until welcomed, and reconnects with exponential back-off when the line drops. A
// reconnect says which list and version the page holds (`have`): a server that can
// send the diffs missed meanwhile answers `caughtUp` and no screen, so nothing flashes.
// Every command carries a `commandId` and is kept until it is answered: after a reconnect
// the unanswered ones are sent again (the server applies each id once, so a command whose
// ack was lost is not applied twice), and the edits among them survive a reload of the
// page (sessionStorage).
import * as W from "./wire.js";
import { credential, storedName, showAccessNeeded, showIdentity, UNAUTHORIZED_CLOSE } from "./access.js";
import { warnFrame } from "./warnings.js";

const TOKEN_KEY = "tableweb.session";
const UNSENT_KEY = "tableweb.unsent";
const newCommandId = () => [...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("");
const BACKOFF_MS = [100, 250, 500, 1000, 2000, 4000];

export class Socket {
	/// `onMessage(msg)` gets every server message after `welcome`;
	/// `onStatus("connecting"|"open"|"reconnecting")` follows the line; `have()` is the
	/// {list, version} shown, or null; `onCaughtUp()` runs when a resume needs no screen.
	constructor(url, { onMessage, onStatus, have, onCaughtUp }) {
		this.url = url;
		this.have = have;
		this.onCaughtUp = onCaughtUp;
		this.onMessage = onMessage;
		this.onStatus = onStatus;
		this.unanswered = new Map(); // ref → {cmd, keep}: sent or waiting, not answered yet
		this.welcomed = false;
		this.failures = 0;
		this.nextRef = 1;
		this.ws = null;
		this.restored = []; // {ref, cmd}: edits a reload interrupted, sent again once welcomed
		let kept = [];
		try { kept = JSON.parse(sessionStorage.getItem(UNSENT_KEY)) ?? []; } catch { /* none */ }
		for (const cmd of Array.isArray(kept) ? kept : []) {
			const ref = (cmd[W.K.ref] = this.nextRef++);
			this.unanswered.set(ref, { cmd, keep: true });
			this.restored.push({ ref, cmd });
		}
	}

	/// Keeps the unanswered edits where a reload finds them.
	persist() {
		const kept = [...this.unanswered.values()].filter((u) => u.keep).map((u) => u.cmd);
		try {
			if (kept.length) sessionStorage.setItem(UNSENT_KEY, JSON.stringify(kept));
			else sessionStorage.removeItem(UNSENT_KEY);
		} catch { /* private mode */ }
	}

	get token() {
		try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
	}

	set token(value) {
		try { localStorage.setItem(TOKEN_KEY, value); } catch { /* private mode */ }
	}

	connect() {
		// The first time, the socket boot.js opened with the page; the hello rides in the
		// upgrade either way.
		const boot = window.tablewebBoot;
		window.tablewebBoot = null;
		const hello = W.hello(this.token, credential(), this.token && this.have?.(), storedName());
		const protocols = W.subprotocols(hello);
		const ws = boot?.ws ?? new WebSocket(this.url, protocols);
		this.ws = ws;
		this.welcomed = false;
		this.onStatus(this.failures ? "reconnecting" : "connecting");
		const carried = boot ? boot.carried : protocols.length > 1;
		if (!carried && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(hello));
		else if (!carried) ws.onopen = () => ws.send(JSON.stringify(hello));
		ws.onmessage = (e) => {
			let msg;
			const kind = typeof e.data === "string" ? "text" : "binary";
			try { msg = JSON.parse(e.data); } catch (error) { return warnFrame("dropped a frame that is not JSON", kind, error); }
			if (msg === null || typeof msg !== "object" || Array.isArray(msg)) {
				return warnFrame("dropped a frame that is not a JSON object", kind, String(e.data).slice(0, 80));
			}
			if (msg[W.K.type] === W.WELCOME) {
				this.token = msg[W.K.session];
				this.welcomed = true;
				this.failures = 0;
				this.onStatus("open");
				showIdentity(msg.user, msg.role);
				if (msg.caughtUp) this.onCaughtUp?.();
				for (const { cmd } of this.unanswered.values()) ws.send(JSON.stringify(cmd));
			} else if (this.welcomed) {
				const ref = msg[W.K.ref];
				if ((msg[W.K.type] === W.ACK || msg[W.K.type] === W.ERROR) && this.unanswered.delete(ref)) this.persist();
				this.onMessage(msg);
			} else if (msg[W.K.type] === W.ERROR) {
				this.refusal = msg[W.K.message];
			}
		};
		ws.onclose = (e) => {
			if (this.ws !== ws) return;
			this.welcomed = false;
			// Not let in, or let go: reconnecting would not help; say how to get in.
			if (e.code === UNAUTHORIZED_CLOSE) return showAccessNeeded(this.refusal);
			const delay = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)];
			this.failures++;
			this.onStatus("reconnecting");
			setTimeout(() => this.connect(), delay * (0.75 + Math.random() / 2));
		};
		for (const e of boot?.messages ?? []) ws.onmessage(e);
		if (boot?.closed) ws.onclose(boot.closed);
	}

	/// Sends now if welcomed, else when welcomed, and again after a reconnect until it is
	/// answered; `keep`: an edit, kept over a reload too. Returns the command's `ref`.
	send(cmd, keep = false) {
		const ref = this.nextRef++;
		cmd[W.K.ref] = ref;
		cmd[W.K.commandId] = newCommandId();
		this.unanswered.set(ref, { cmd, keep });
		if (keep) this.persist();
		if (this.welcomed && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(cmd));
		return ref;
	}

	/// Sends `cmd` as it is, without a `ref` (so unanswered) and not kept: news for the
	/// others (`activity`), dropped while the line is down.
	notify(cmd) {
		if (this.welcomed && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(cmd));
	}

	/// Sends only while welcomed (fetches and reloads are re-derived after a reconnect).
	sendIfOpen(cmd) {
		if (this.welcomed) this.send(cmd);
	}
}
