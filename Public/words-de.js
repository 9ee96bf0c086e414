// @ts-check
// The page's own words in de (see words.js), as iOS says them.
export const words = {
	edit: "Bearbeiten", done: "Fertig", delete: "Löschen", deleteCount: "Löschen ({n})", cancel: "Abbrechen",
	back: "Zurück", backTo: "Zurück zu {title}", search: "Suchen", add: "Hinzufügen", rename: "Umbenennen",
	save: "Sichern", newRow: "Neue Zeile", loading: "Wird geladen …", reconnecting: "Verbindung wird wiederhergestellt …",
	insertRow: "{text} einfügen", deleteRow: "{text} löschen", moreInfo: "Weitere Infos zu {text}",
	sectionIndex: "Abschnittsindex", scrollPosition: "Scrollposition", rowOf: "Zeile {i} von {n}",
	results: { one: "{n} Ergebnis", other: "{n} Ergebnisse" }, noResults: "Keine Ergebnisse",
	checked: "ausgewählt", flagged: "markiert", toolbar: "Symbolleiste",
	history: "Verlauf", more: "Mehr", noHistory: "Keine Änderungen gespeichert.",
	accessNeeded: "Zugang erforderlich", accessExpired: "Der Zugangslink dieses Browsers ist nicht mehr gültig.",
	accessMissing: "Dieser Server braucht einen Zugangslink.",
	accessAsk: "Bitte den Betreiber um einen (http://host:port/#access=…) und öffne ihn hier einmal.",
	undo: "Widerrufen", deleted: "„{text}“ gelöscht", deletedCount: { one: "{n} Zeile gelöscht", other: "{n} Zeilen gelöscht" }, cannotUndo: "Widerrufen nicht möglich", ok: "OK",
	presenceHere: "Auch hier: {names}", presenceSwiping: "{name} wischt über „{text}“",
	presenceEditing: "{name} bearbeitet „{text}“", presenceMoving: "{name} verschiebt „{text}“",
};
