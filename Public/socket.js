// The WebSocket: connects, says hello with the stored session token, queues commands
// until welcomed, and reconnects with exponential back-off when the line drops. A
// reconnect says which list and version the page holds (`have`): a server that can
// send the diffs missed meanwhile answers `caughtUp` and no screen, so nothing flashes.
import * as W from "./wire.js";
import { credential, showAccessNeeded, showIdentity, UNAUTHORIZED_CLOSE } from "./access.js";

const TOKEN_KEY = "tableweb.session";
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
		this.queue = [];
		this.welcomed = false;
		this.failures = 0;
		this.nextRef = 1;
		this.ws = null;
	}

	get token() {
		try { return localStorage.getItem(TOKEN_KEY); } catch { return null; }
	}

	set token(value) {
		try { localStorage.setItem(TOKEN_KEY, value); } catch { /* private mode */ }
	}

	connect() {
		// The first time, the socket boot.js opened with the page, its hello sent already.
		const boot = window.tablewebBoot;
		window.tablewebBoot = null;
		const ws = boot?.ws ?? new WebSocket(this.url, W.SUBPROTOCOL);
		this.ws = ws;
		this.welcomed = false;
		this.onStatus(this.failures ? "reconnecting" : "connecting");
		if (!boot) ws.onopen = () => ws.send(JSON.stringify(W.hello(this.token, credential(), this.token && this.have?.())));
		ws.onmessage = (e) => {
			let msg;
			try { msg = JSON.parse(e.data); } catch { return; }
			if (msg[W.K.type] === W.WELCOME) {
				this.token = msg[W.K.session];
				this.welcomed = true;
				this.failures = 0;
				this.onStatus("open");
				showIdentity(msg.user, msg.role);
				for (const cmd of this.queue.splice(0)) ws.send(JSON.stringify(cmd));
				if (msg.caughtUp) this.onCaughtUp?.();
			} else if (this.welcomed) {
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

	/// Sends now if welcomed, else when welcomed. Returns the command's `ref`.
	send(cmd) {
		const ref = this.nextRef++;
		cmd[W.K.ref] = ref;
		if (this.welcomed && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(cmd));
		else this.queue.push(cmd);
		return ref;
	}

	/// Sends only while welcomed (fetches and reloads are re-derived after a reconnect).
	sendIfOpen(cmd) {
		if (this.welcomed) this.send(cmd);
	}
}
