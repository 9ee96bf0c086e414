// @ts-check
// Every wire key and message type name of protocol-core, in one place.

export const SUBPROTOCOL = "tableweb.v1";
export const WS_PATH = "ws";

// Server → client
export const WELCOME = "welcome";
export const SCREEN = "screen";
export const DIFF = "diff";
export const ROWS = "rows";
export const ACK = "ack";
export const ERROR = "error";
export const NOTICE = "notice";
export const HISTORY = "history"; // extension: a list's history, also a command
export const PRESENCE = "presence"; // extension: who else shows the list

// Client → server
export const HELLO = "hello";
export const TAP = "tap";
export const ACCESSORY = "accessory";
export const BACK = "back";
export const EDITING = "editing";
export const DELETE = "delete";
export const INSERT = "insert";
export const MOVE = "move";
export const TOGGLE = "toggle";
export const UPDATE = "update";
export const FETCH = "fetch";
export const RELOAD = "reload";
export const SEARCH = "search";
export const ACTION = "action"; // extension
export const LAYOUT = "layout"; // extension: split view
export const UNDO = "undo"; // extension
export const REDO = "redo"; // extension
export const CONFLICT = "conflict"; // error code (extension): an undo over someone else's change
export const ACTIVITY = "activity"; // extension: presence

// Diff ops
export const OP_DELETE = "delete";
export const OP_INSERT = "insert";
export const OP_MOVE = "move";
export const OP_UPDATE = "update";
export const OP_DELETE_SECTION = "deleteSection";
export const OP_INSERT_SECTION = "insertSection";
export const OP_UPDATE_SECTION = "updateSection";

// Keys
export const K = Object.freeze({
	type: "type", ref: "ref", session: "session", resumed: "resumed",
	transition: "transition", depth: "depth", stack: "stack", screen: "screen",
	list: "list", version: "version", title: "title", back: "back", style: "style",
	editing: "editing", editable: "editable", selection: "selection",
	indexTitles: "indexTitles", header: "header", footer: "footer",
	sections: "sections", id: "id", count: "count", rows: "rows", row: "row",
	text: "text", detail: "detail", lines: "lines", image: "image", accessory: "accessory",
	control: "control", kind: "kind", on: "on", movable: "movable",
	selectable: "selectable", from: "from", to: "to", ops: "ops", op: "op",
	at: "at", section: "section", after: "after", code: "code",
	message: "message",
	scroll: "scroll", selected: "selected", // extensions (docs/protocol.md)
	searchable: "searchable", search: "search", query: "query", // v1.1
	commandId: "commandId", // extension: a command sent again is applied once
	language: "language", // v1.2: the data's language, a BCP 47 tag
	name: "name", viewers: "viewers", // extension: presence
});

// The one control kind
export const CONTROL_SWITCH = "switch";

// Enum values: TRANSITION.pop === "pop".
const names = (...v) => Object.freeze(Object.fromEntries(v.map((n) => [n, n])));
export const TRANSITION = names("none", "push", "pop");
export const CELL_STYLE = names("default", "subtitle", "value1", "value2");
export const ACCESSORY_TYPE = names("none", "disclosure", "detailDisclosure", "detail", "checkmark");
export const EDITING_STYLE = names("none", "delete", "insert");
export const TABLE_STYLE = names("plain", "grouped", "insetGrouped");
export const SELECTION = names("none", "single", "multiple");
export const ACTIVITY_KIND = names("swiping", "editing", "moving");

/// The subprotocols to ask for: with a second one carrying `hello` (base64url of its JSON),
/// which the server takes as the connection's first message (no round trip between the
/// upgrade and `welcome`), when it fits in what libwebsockets reads of the header (128
/// bytes; boot.js says the same); else none, and the hello goes as a message.
export function subprotocols(msg) {
	const carried = "tableweb.hello." +
		btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(msg)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
	return SUBPROTOCOL.length + 2 + carried.length <= HELLO_HEADER_MAX ? [SUBPROTOCOL, carried] : [SUBPROTOCOL];
}
const HELLO_HEADER_MAX = 120;

// Commands, built here so that no other module spells a wire key.
export const hello = (session, access, have, name) =>
	({ [K.type]: HELLO, [K.session]: session, ...(access && { access }), ...(have && { have }), ...(name && { name }) });
/// `scroll`: the first row visible on the screen being left, for the server to remember.
export const tap = (list, row, scroll) =>
	({ [K.type]: TAP, [K.list]: list, [K.row]: row, [K.scroll]: scroll });
export const accessory = (list, row, scroll) =>
	({ [K.type]: ACCESSORY, [K.list]: list, [K.row]: row, [K.scroll]: scroll });
export const back = () => ({ [K.type]: BACK });
export const reload = () => ({ [K.type]: RELOAD });
export const editing = (on) => ({ [K.type]: EDITING, [K.on]: on });
export const toggle = (list, row, on) =>
	({ [K.type]: TOGGLE, [K.list]: list, [K.row]: row, [K.on]: on });
export const deleteRows = (list, rows) => ({ [K.type]: DELETE, [K.list]: list, [K.rows]: rows });
export const insert = (list, section, after, text) => ({
	[K.type]: INSERT, [K.list]: list, [K.section]: section, [K.after]: after,
	[K.row]: { [K.text]: text },
});
export const move = (list, row, section, after) =>
	({ [K.type]: MOVE, [K.list]: list, [K.row]: row, [K.section]: section, [K.after]: after });
export const rename = (list, row, text) =>
	({ [K.type]: UPDATE, [K.list]: list, [K.row]: row, [K.text]: text });
export const search = (list, query) => ({ [K.type]: SEARCH, [K.list]: list, [K.query]: query });
export const layout = (split) => ({ [K.type]: LAYOUT, split });
export const undo = () => ({ [K.type]: UNDO });
export const redo = () => ({ [K.type]: REDO });
export const action = (list, row, id) => ({ [K.type]: ACTION, [K.list]: list, [K.row]: row, action: id });
/// A page of `list`'s history older than entry `before` (null: the newest, then new ones live).
export const history = (list, before, count) => ({ [K.type]: HISTORY, [K.list]: list, before, [K.count]: count });
export const fetchRows = (list, section, from, count) => ({
	[K.type]: FETCH, [K.list]: list, [K.section]: section, [K.from]: from, [K.count]: count,
});
