// What the page's scripts share through `window`, for `tsc --noEmit` (Tests/page/tsconfig.json).

/** boot.js's WebSocket, opened while the page's modules load; socket.js takes it over. */
interface TablewebBoot {
	ws: WebSocket;
	carried: boolean;
	messages: MessageEvent[];
	closed: CloseEvent | null;
}

interface Window {
	tablewebBoot?: TablewebBoot | null;
}

interface Window {
	/** warnings.js: the lines logged about frames the page could not use. */
	tablewebWarnings?: string[];
}
