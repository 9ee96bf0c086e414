// @ts-check
// The page's own words in nl (see words.js), as iOS says them.
export const words = {
	edit: "Wijzig", done: "Gereed", delete: "Verwijder", deleteCount: "Verwijder ({n})", cancel: "Annuleer",
	back: "Terug", backTo: "Terug naar {title}", search: "Zoek", add: "Voeg toe", rename: "Wijzig naam",
	save: "Bewaar", newRow: "Nieuwe rij", loading: "Laden…", reconnecting: "Opnieuw verbinden…",
	insertRow: "Voeg {text} in", deleteRow: "Verwijder {text}", moreInfo: "Meer info over {text}",
	sectionIndex: "Sectie-index", scrollPosition: "Scrollpositie", rowOf: "Rij {i} van {n}",
	results: { one: "{n} resultaat", other: "{n} resultaten" }, noResults: "Geen resultaten",
	checked: "geselecteerd", flagged: "gemarkeerd", toolbar: "Knoppenbalk",
	history: "Geschiedenis", more: "Meer", noHistory: "Geen wijzigingen bewaard.",
	accessNeeded: "Toegang vereist", accessExpired: "De toegangslink van deze browser is niet meer geldig.",
	accessMissing: "Deze server vraagt om een toegangslink.",
	accessAsk: "Vraag er een aan de eigenaar (http://host:port/#access=…) en open hem hier één keer.",
};
