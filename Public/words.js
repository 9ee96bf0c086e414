// @ts-check
// The page's own words (the data's words come from the server), one table per language
// (English here, the others in words-TAG.js), and the document's `lang` and `dir`. The
// language is the data's (`screen.language`), else the browser's; words missing from a
// table are English. `{name}` is filled in.

// English, the page's words where a language has no table or its table lacks one.
const ENGLISH = {
	edit: "Edit", done: "Done", delete: "Delete", deleteCount: "Delete ({n})", cancel: "Cancel", back: "Back",
	backTo: "Back to {title}", search: "Search", add: "Add", rename: "Rename", save: "Save", newRow: "New Row",
	loading: "Loading…", reconnecting: "Reconnecting…", insertRow: "Insert {text}", deleteRow: "Delete {text}",
	moreInfo: "More info about {text}", sectionIndex: "Section index", scrollPosition: "Scroll position",
	rowOf: "Row {i} of {n}", results: { one: "{n} result", other: "{n} results" }, noResults: "No Results",
	checked: "checked", flagged: "flagged", toolbar: "Toolbar",
	history: "History", more: "More", noHistory: "No changes are kept.",
	accessNeeded: "Access needed", accessExpired: "This browser's access link is no longer valid.",
	accessMissing: "This server needs an access link.",
	accessAsk: "Ask its owner for one (http://host:port/#access=…) and open it here once.",
	undo: "Undo", deleted: "Deleted \"{text}\"", deletedCount: { one: "Deleted {n} row", other: "Deleted {n} rows" },
	cannotUndo: "Cannot Undo", ok: "OK",
	presenceMore: "+{n}", presenceHere: "Also here: {names}", presenceSwiping: "{name} is swiping “{text}”",
	presenceEditing: "{name} is editing “{text}”", presenceMoving: "{name} is moving “{text}”",
};

/// The languages the page has words for: English here, each other in words-TAG.js,
/// loaded when the page first speaks it, so that the first screen carries one table.
export const LANGUAGES = ["en", "de", "fr", "es", "it", "pt", "nl", "sv", "ru", "ja", "zh-Hans", "ko", "ar", "he"];
const loaded = new Map([["en", ENGLISH]]);


/// Scripts written right to left (ISO 15924), for `dir`.
const RTL = new Set(["Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg", "Mand", "Samr"]);

let table = ENGLISH;
let tag = "en"; // the language of the words wanted
let lang = ""; // the document's language
let version = 0; // grows when the words shown change
let changed = () => {};

/// The table for a BCP 47 tag: its own (zh: by script), else its language's, else null.
export function tableFor(wanted) {
	let loc;
	try { loc = new Intl.Locale(wanted).maximize(); } catch { return null; }
	if (loc.language === "zh") return loc.script === "Hans" || loc.script === "Hant" ? "zh-Hans" : null;
	return LANGUAGES.includes(loc.language) ? loc.language : null;
}

const valid = (language) => {
	try { return language ? /** @type {any} */ (Intl).getCanonicalLocales(language)[0] : null; } catch { return null; }
};

const rtl = (language) => {
	try { return RTL.has(new Intl.Locale(language).maximize().script); } catch { return false; }
};

/// `onChange` is called when words arrive after setLanguage (a table loaded): what shows
/// words is drawn again.
export function whenWordsChange(onChange) {
	changed = onChange;
}

/// How many times the words shown have changed: part of what a drawn cell depends on.
export const wordsVersion = () => version;

/// Sets the document's `lang` and `dir` and the words' language from the data's language
/// (null: the browser's). A table not loaded yet is fetched; English shows until it comes.
export function setLanguage(dataLanguage) {
	const wanted = valid(dataLanguage) ?? valid(navigator.language) ?? "en"; // WebKitGTK under LANG=C says "C"
	if (wanted === lang) return;
	lang = wanted;
	const root = document.documentElement;
	root.lang = wanted;
	root.dir = rtl(wanted) ? "rtl" : "ltr";
	tag = tableFor(wanted) ?? "en";
	const known = loaded.get(tag);
	if (known) return show(known);
	show(ENGLISH);
	const want = tag;
	import(`./words-${want}.js`).then(({ words }) => {
		loaded.set(want, words);
		if (tag === want) show(words), changed();
	}, () => {}); // unreachable (offline, say): English stays
}

function show(words) {
	if (words === table && version) return;
	table = words;
	version++;
	for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-word]"))) node.textContent = word(node.dataset.word);
	for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-word-label]"))) node.setAttribute("aria-label", word(node.dataset.wordLabel));
	for (const node of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("[data-word-placeholder]"))) node.placeholder = word(node.dataset.wordPlaceholder);
}

export const isRightToLeft = () => document.documentElement.dir === "rtl";

/// The page's word `key`, with `{name}` filled from `values` (numbers in the language's digits).
export function word(key, values = {}) {
	let text = table[key] ?? ENGLISH[key];
	if (typeof text === "object") {
		const forms = text;
		text = forms[new Intl.PluralRules(table === ENGLISH ? "en" : tag).select(values.n)] ?? forms.other;
	}
	return text.replace(/\{(\w+)\}/g, (_, k) => (typeof values[k] === "number" ? values[k].toLocaleString(lang) : values[k] ?? ""));
}
