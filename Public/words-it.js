// @ts-check
// The page's own words in it (see words.js), as iOS says them.
export const words = {
	edit: "Modifica", done: "Fine", delete: "Elimina", deleteCount: "Elimina ({n})", cancel: "Annulla",
	back: "Indietro", backTo: "Torna a {title}", search: "Cerca", add: "Aggiungi", rename: "Rinomina",
	save: "Salva", newRow: "Nuova riga", loading: "Caricamento…", reconnecting: "Riconnessione…",
	insertRow: "Inserisci {text}", deleteRow: "Elimina {text}", moreInfo: "Altre informazioni su {text}",
	sectionIndex: "Indice delle sezioni", scrollPosition: "Posizione di scorrimento", rowOf: "Riga {i} di {n}",
	results: { one: "{n} risultato", other: "{n} risultati" }, noResults: "Nessun risultato",
	checked: "selezionato", flagged: "contrassegnato", toolbar: "Barra strumenti",
	history: "Cronologia", more: "Altro", noHistory: "Nessuna modifica conservata.",
	accessNeeded: "Accesso richiesto", accessExpired: "Il link di accesso di questo browser non è più valido.",
	accessMissing: "Questo server richiede un link di accesso.",
	accessAsk: "Chiedine uno al proprietario (http://host:port/#access=…) e aprilo qui una volta.",
};
