// The page's service worker (an app shell): a warm visit is answered from this cache, so it
// waits for one round trip (the WebSocket's upgrade, answered with the first screen) instead
// of two (the HTML's revalidation first). The EmbedPage plugin fills in BUILD (the page
// build's hash) and FILES (the HTML's ETag, the content-hashed code and style); this file
// changes with every build, so the browser's own check of `sw.js` on each visit finds a new
// build: the new worker caches the new files and takes over, and the next load shows the
// new page (the one that found it still showed the old one, as with every installed app).
// Unfilled (this file as it is in Public/, served by `--public` or `--no-page-worker`) it
// caches nothing, answers nothing (the browser then skips it) and drops what a built one
// cached, so that turning the worker off reaches every browser that has one.
const BUILD = null;
const FILES = { html: null, assets: [] };

const PREFIX = "tableweb-page-";
const CACHE = PREFIX + BUILD;
// Content-hashed names, of this build or an older one: the same name is the same bytes.
const HASHED = /^(page-[0-9a-f]{12}\.js|style-[0-9a-f]{12}\.css)$/;

self.addEventListener("install", (event) => {
	self.skipWaiting();
	if (!BUILD) return;
	event.waitUntil(cacheBuild());
	// Where the browser takes static routes (Chromium), it answers the page and its files
	// from the cache itself, without starting this worker first; elsewhere `answer` does.
	if (event.addRoutes && typeof URLPattern === "function") {
		const base = new URL(scope()).pathname;
		event.waitUntil(event.addRoutes([
			{ condition: { requestMode: "navigate", urlPattern: new URLPattern({ pathname: base }) },
				source: { cacheName: CACHE } },
			{ condition: { urlPattern: new URLPattern({ pathname: base + "(page|style)-:hash.:ext", search: "" }) },
				source: "cache" },
		]).catch(() => {}));
	}
});

self.addEventListener("activate", (event) => {
	event.waitUntil(dropOldCaches().then(() => self.clients.claim()));
});

if (BUILD) self.addEventListener("fetch", answer);

/** Caches this build's HTML and files; fails (the old worker stays) if the HTML the server
 * sends now is another build's, as while servers behind one address are being replaced. */
async function cacheBuild() {
	const cache = await caches.open(CACHE);
	const html = await fetch(scope(), { cache: "no-cache" });
	const etag = (html.headers.get("etag") || "").replace(/^W\//, "");
	if (!html.ok || html.redirected || (etag && etag !== FILES.html)) throw new Error("the server has another page build");
	await cache.addAll(FILES.assets);
	await cache.put(scope(), html);
}

/** Keeps this build's cache and the one before it: a page the old worker answered may still
 * be fetching its code, which a newer server no longer has. */
async function dropOldCaches() {
	const older = (await caches.keys()).filter((name) => name.startsWith(PREFIX) && name !== CACHE);
	const keep = BUILD ? older.slice(-1) : [];
	await Promise.all(older.filter((name) => !keep.includes(name)).map((name) => caches.delete(name)));
}

function scope() {
	return self.registration.scope;
}

function answer(event) {
	const request = event.request;
	if (request.method !== "GET") return;
	const url = new URL(request.url);
	const base = new URL(scope());
	if (url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) return;
	const name = url.pathname.slice(base.pathname.length);
	if (request.mode === "navigate") {
		if (name === "" || name === "index.html") event.respondWith(cached(scope(), request, CACHE));
	} else if (HASHED.test(name) && !url.search) {
		event.respondWith(cached(url.href, request));
	}
}

/** The cached answer (from `cacheName`, else from any build's cache), else the network's. */
async function cached(key, request, cacheName) {
	const found = cacheName
		? await caches.open(cacheName).then((cache) => cache.match(key))
		: await caches.match(key);
	return found || fetch(request);
}
