// Opens the WebSocket while the page's code loads: the built page has this script inline,
// so the socket starts as soon as the HTML is read. The hello rides in the upgrade, as a
// second subprotocol (`tableweb.hello.` + base64url of its JSON): the first screen follows
// the upgrade without another round trip. socket.js takes the socket over. A classic
// script, so it cannot import wire.js and access.js, whose names it repeats.
(() => {
	try {
		const link = /^#access=([\w-]+)$/.exec(location.hash);
		const access = link ? link[1] : localStorage.getItem("tableweb.access");
		const hello = JSON.stringify({ type: "hello", session: localStorage.getItem("tableweb.session"), ...(access && { access }) });
		const bytes = String.fromCharCode(...new TextEncoder().encode(hello));
		const url = new URL("ws", location.href);
		url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
		const ws = new WebSocket(url.href, ["tableweb.v1", "tableweb.hello." + btoa(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")]);
		const early = { ws, messages: [], closed: null };
		ws.onmessage = (e) => early.messages.push(e);
		ws.onclose = (e) => (early.closed = e);
		window.tablewebBoot = early;
	} catch { /* no storage: socket.js connects as before */ }
})();
