// @ts-check
// The page's own words in fr (see words.js), as iOS says them.
export const words = {
	edit: "Modifier", done: "OK", delete: "Supprimer", deleteCount: "Supprimer ({n})", cancel: "Annuler",
	back: "Retour", backTo: "Retour à {title}", search: "Rechercher", add: "Ajouter", rename: "Renommer",
	save: "Enregistrer", newRow: "Nouvelle ligne", loading: "Chargement…", reconnecting: "Reconnexion…",
	insertRow: "Insérer {text}", deleteRow: "Supprimer {text}", moreInfo: "Plus d’infos sur {text}",
	sectionIndex: "Index des sections", scrollPosition: "Position de défilement", rowOf: "Ligne {i} sur {n}",
	results: { one: "{n} résultat", other: "{n} résultats" }, noResults: "Aucun résultat",
	checked: "coché", flagged: "signalé", toolbar: "Barre d’outils",
	history: "Historique", more: "Plus", noHistory: "Aucune modification conservée.",
	accessNeeded: "Accès requis", accessExpired: "Le lien d’accès de ce navigateur n’est plus valide.",
	accessMissing: "Ce serveur demande un lien d’accès.",
	accessAsk: "Demandez-en un à son propriétaire (http://host:port/#access=…) et ouvrez-le ici une fois.",
	undo: "Annuler", deleted: "« {text} » supprimé", deletedCount: { one: "{n} ligne supprimée", other: "{n} lignes supprimées" }, cannotUndo: "Impossible d’annuler", ok: "OK",
};
