// @ts-check
// The page's own words in pt (see words.js), as iOS says them.
export const words = {
	edit: "Editar", done: "OK", delete: "Apagar", deleteCount: "Apagar ({n})", cancel: "Cancelar",
	back: "Voltar", backTo: "Voltar para {title}", search: "Buscar", add: "Adicionar", rename: "Renomear",
	save: "Salvar", newRow: "Nova linha", loading: "Carregando…", reconnecting: "Reconectando…",
	insertRow: "Inserir {text}", deleteRow: "Apagar {text}", moreInfo: "Mais informações sobre {text}",
	sectionIndex: "Índice de seções", scrollPosition: "Posição de rolagem", rowOf: "Linha {i} de {n}",
	results: { one: "{n} resultado", other: "{n} resultados" }, noResults: "Nenhum resultado",
	checked: "marcado", flagged: "sinalizado", toolbar: "Barra de ferramentas",
	history: "Histórico", more: "Mais", noHistory: "Nenhuma alteração guardada.",
	accessNeeded: "Acesso necessário", accessExpired: "O link de acesso deste navegador não é mais válido.",
	accessMissing: "Este servidor precisa de um link de acesso.",
	accessAsk: "Peça um ao proprietário (http://host:port/#access=…) e abra-o aqui uma vez.",
};
