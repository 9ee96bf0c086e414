// @ts-check
// The page's own words in sv (see words.js), as iOS says them.
export const words = {
	edit: "Redigera", done: "Klar", delete: "Radera", deleteCount: "Radera ({n})", cancel: "Avbryt",
	back: "Tillbaka", backTo: "Tillbaka till {title}", search: "Sök", add: "Lägg till", rename: "Byt namn",
	save: "Spara", newRow: "Ny rad", loading: "Läser in…", reconnecting: "Återansluter…",
	insertRow: "Infoga {text}", deleteRow: "Radera {text}", moreInfo: "Mer info om {text}",
	sectionIndex: "Avsnittsindex", scrollPosition: "Rullningsposition", rowOf: "Rad {i} av {n}",
	results: { one: "{n} träff", other: "{n} träffar" }, noResults: "Inga träffar",
	checked: "markerad", flagged: "flaggad", toolbar: "Verktygsfält",
	history: "Historik", more: "Mer", noHistory: "Inga ändringar sparade.",
	accessNeeded: "Åtkomst krävs", accessExpired: "Den här webbläsarens åtkomstlänk gäller inte längre.",
	accessMissing: "Den här servern kräver en åtkomstlänk.",
	accessAsk: "Be ägaren om en (http://host:port/#access=…) och öppna den här en gång.",
};
