// @ts-check
// Opens the WebSocket while the page's code loads: the built page has this script inline,
// so the socket starts as soon as the HTML is read. The hello rides in the upgrade, as a
// second subprotocol (`tableweb.hello.` + base64url of its JSON), when it fits in the
// 128 bytes of the header libwebsockets reads: the first screen follows the upgrade
// without another round trip (else socket.js sends the hello once open). socket.js takes
// the socket over. A classic script, so it cannot import wire.js and access.js, whose
// names it repeats.
(() => {
	try {
		const link = /^#access=([\w-]+)$/.exec(location.hash);
		const access = link ? link[1] : localStorage.getItem("tableweb.access");
		const name = localStorage.getItem("tableweb.name");
		const hello = JSON.stringify({ type: "hello", session: localStorage.getItem("tableweb.session"), ...(access && { access }), ...(name && { name }) });
		const carried = "tableweb.hello." + btoa(String.fromCharCode(...new TextEncoder().encode(hello)))
			.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
		const fits = carried.length + 13 <= 120; // libwebsockets reads 128 bytes of the header
		const url = new URL("ws", location.href);
		url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
		const ws = new WebSocket(url.href, fits ? ["tableweb.v1", carried] : ["tableweb.v1"]);
		const early = { ws, carried: fits, messages: [], closed: null };
		ws.onmessage = (e) => early.messages.push(e);
		ws.onclose = (e) => (early.closed = e);
		window.tablewebBoot = early;
	} catch { /* no storage: socket.js connects as before */ }
})();
// The built page (this script inline, not `boot.js` from a folder) installs its service
// worker once loaded, out of the first screen's way: the next visit is answered from its
// cache (sw.js). Where there is none (plain http off localhost, an old browser), the page
// loads as before.
if (!(/** @type {HTMLScriptElement | null} */ (document.currentScript))?.src && "serviceWorker" in navigator) {
	addEventListener("load", () => navigator.serviceWorker.register("sw.js").catch(() => {}));
}
