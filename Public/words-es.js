// @ts-check
// The page's own words in es (see words.js), as iOS says them.
export const words = {
	edit: "Editar", done: "OK", delete: "Eliminar", deleteCount: "Eliminar ({n})", cancel: "Cancelar",
	back: "Atrás", backTo: "Volver a {title}", search: "Buscar", add: "Añadir", rename: "Renombrar",
	save: "Guardar", newRow: "Nueva fila", loading: "Cargando…", reconnecting: "Reconectando…",
	insertRow: "Insertar {text}", deleteRow: "Eliminar {text}", moreInfo: "Más información sobre {text}",
	sectionIndex: "Índice de secciones", scrollPosition: "Posición de desplazamiento", rowOf: "Fila {i} de {n}",
	results: { one: "{n} resultado", other: "{n} resultados" }, noResults: "No hay resultados",
	checked: "marcado", flagged: "con indicador", toolbar: "Barra de herramientas",
	history: "Historial", more: "Más", noHistory: "No hay cambios guardados.",
	accessNeeded: "Se necesita acceso", accessExpired: "El enlace de acceso de este navegador ya no es válido.",
	accessMissing: "Este servidor necesita un enlace de acceso.",
	accessAsk: "Pide uno a su propietario (http://host:port/#access=…) y ábrelo aquí una vez.",
	undo: "Deshacer", deleted: "«{text}» eliminado", deletedCount: { one: "{n} fila eliminada", other: "{n} filas eliminadas" }, cannotUndo: "No se puede deshacer", ok: "Aceptar",
};
