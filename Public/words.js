// The page's own words (the data's words come from the server), one table per language,
// and the document's `lang` and `dir`. The language is the data's (`screen.language`),
// else the browser's; words missing from a table are English. `{name}` is filled in.

const TABLES = {
	en: {
		edit: "Edit", done: "Done", delete: "Delete", deleteCount: "Delete ({n})", cancel: "Cancel", back: "Back",
		backTo: "Back to {title}", search: "Search", add: "Add", rename: "Rename", save: "Save", newRow: "New Row",
		loading: "Loading…", reconnecting: "Reconnecting…", insertRow: "Insert {text}", deleteRow: "Delete {text}",
		moreInfo: "More info about {text}", sectionIndex: "Section index", scrollPosition: "Scroll position",
		rowOf: "Row {i} of {n}", results: { one: "{n} result", other: "{n} results" }, noResults: "No Results",
		checked: "checked", flagged: "flagged", toolbar: "Toolbar",
		accessNeeded: "Access needed", accessExpired: "This browser's access link is no longer valid.",
		accessMissing: "This server needs an access link.",
		accessAsk: "Ask its owner for one (http://host:port/#access=…) and open it here once.",
	},
	de: {
		edit: "Bearbeiten", done: "Fertig", delete: "Löschen", deleteCount: "Löschen ({n})", cancel: "Abbrechen",
		back: "Zurück", backTo: "Zurück zu {title}", search: "Suchen", add: "Hinzufügen", rename: "Umbenennen",
		save: "Sichern", newRow: "Neue Zeile", loading: "Wird geladen …", reconnecting: "Verbindung wird wiederhergestellt …",
		insertRow: "{text} einfügen", deleteRow: "{text} löschen", moreInfo: "Weitere Infos zu {text}",
		sectionIndex: "Abschnittsindex", scrollPosition: "Scrollposition", rowOf: "Zeile {i} von {n}",
		results: { one: "{n} Ergebnis", other: "{n} Ergebnisse" }, noResults: "Keine Ergebnisse",
		checked: "ausgewählt", flagged: "markiert", toolbar: "Symbolleiste",
		accessNeeded: "Zugang erforderlich", accessExpired: "Der Zugangslink dieses Browsers ist nicht mehr gültig.",
		accessMissing: "Dieser Server braucht einen Zugangslink.",
		accessAsk: "Bitte den Betreiber um einen (http://host:port/#access=…) und öffne ihn hier einmal.",
	},
	fr: {
		edit: "Modifier", done: "OK", delete: "Supprimer", deleteCount: "Supprimer ({n})", cancel: "Annuler",
		back: "Retour", backTo: "Retour à {title}", search: "Rechercher", add: "Ajouter", rename: "Renommer",
		save: "Enregistrer", newRow: "Nouvelle ligne", loading: "Chargement…", reconnecting: "Reconnexion…",
		insertRow: "Insérer {text}", deleteRow: "Supprimer {text}", moreInfo: "Plus d’infos sur {text}",
		sectionIndex: "Index des sections", scrollPosition: "Position de défilement", rowOf: "Ligne {i} sur {n}",
		results: { one: "{n} résultat", other: "{n} résultats" }, noResults: "Aucun résultat",
		checked: "coché", flagged: "signalé", toolbar: "Barre d’outils",
		accessNeeded: "Accès requis", accessExpired: "Le lien d’accès de ce navigateur n’est plus valide.",
		accessMissing: "Ce serveur demande un lien d’accès.",
		accessAsk: "Demandez-en un à son propriétaire (http://host:port/#access=…) et ouvrez-le ici une fois.",
	},
	es: {
		edit: "Editar", done: "OK", delete: "Eliminar", deleteCount: "Eliminar ({n})", cancel: "Cancelar",
		back: "Atrás", backTo: "Volver a {title}", search: "Buscar", add: "Añadir", rename: "Renombrar",
		save: "Guardar", newRow: "Nueva fila", loading: "Cargando…", reconnecting: "Reconectando…",
		insertRow: "Insertar {text}", deleteRow: "Eliminar {text}", moreInfo: "Más información sobre {text}",
		sectionIndex: "Índice de secciones", scrollPosition: "Posición de desplazamiento", rowOf: "Fila {i} de {n}",
		results: { one: "{n} resultado", other: "{n} resultados" }, noResults: "No hay resultados",
		checked: "marcado", flagged: "con indicador", toolbar: "Barra de herramientas",
		accessNeeded: "Se necesita acceso", accessExpired: "El enlace de acceso de este navegador ya no es válido.",
		accessMissing: "Este servidor necesita un enlace de acceso.",
		accessAsk: "Pide uno a su propietario (http://host:port/#access=…) y ábrelo aquí una vez.",
	},
	it: {
		edit: "Modifica", done: "Fine", delete: "Elimina", deleteCount: "Elimina ({n})", cancel: "Annulla",
		back: "Indietro", backTo: "Torna a {title}", search: "Cerca", add: "Aggiungi", rename: "Rinomina",
		save: "Salva", newRow: "Nuova riga", loading: "Caricamento…", reconnecting: "Riconnessione…",
		insertRow: "Inserisci {text}", deleteRow: "Elimina {text}", moreInfo: "Altre informazioni su {text}",
		sectionIndex: "Indice delle sezioni", scrollPosition: "Posizione di scorrimento", rowOf: "Riga {i} di {n}",
		results: { one: "{n} risultato", other: "{n} risultati" }, noResults: "Nessun risultato",
		checked: "selezionato", flagged: "contrassegnato", toolbar: "Barra strumenti",
		accessNeeded: "Accesso richiesto", accessExpired: "Il link di accesso di questo browser non è più valido.",
		accessMissing: "Questo server richiede un link di accesso.",
		accessAsk: "Chiedine uno al proprietario (http://host:port/#access=…) e aprilo qui una volta.",
	},
	pt: {
		edit: "Editar", done: "OK", delete: "Apagar", deleteCount: "Apagar ({n})", cancel: "Cancelar",
		back: "Voltar", backTo: "Voltar para {title}", search: "Buscar", add: "Adicionar", rename: "Renomear",
		save: "Salvar", newRow: "Nova linha", loading: "Carregando…", reconnecting: "Reconectando…",
		insertRow: "Inserir {text}", deleteRow: "Apagar {text}", moreInfo: "Mais informações sobre {text}",
		sectionIndex: "Índice de seções", scrollPosition: "Posição de rolagem", rowOf: "Linha {i} de {n}",
		results: { one: "{n} resultado", other: "{n} resultados" }, noResults: "Nenhum resultado",
		checked: "marcado", flagged: "sinalizado", toolbar: "Barra de ferramentas",
		accessNeeded: "Acesso necessário", accessExpired: "O link de acesso deste navegador não é mais válido.",
		accessMissing: "Este servidor precisa de um link de acesso.",
		accessAsk: "Peça um ao proprietário (http://host:port/#access=…) e abra-o aqui uma vez.",
	},
	nl: {
		edit: "Wijzig", done: "Gereed", delete: "Verwijder", deleteCount: "Verwijder ({n})", cancel: "Annuleer",
		back: "Terug", backTo: "Terug naar {title}", search: "Zoek", add: "Voeg toe", rename: "Wijzig naam",
		save: "Bewaar", newRow: "Nieuwe rij", loading: "Laden…", reconnecting: "Opnieuw verbinden…",
		insertRow: "Voeg {text} in", deleteRow: "Verwijder {text}", moreInfo: "Meer info over {text}",
		sectionIndex: "Sectie-index", scrollPosition: "Scrollpositie", rowOf: "Rij {i} van {n}",
		results: { one: "{n} resultaat", other: "{n} resultaten" }, noResults: "Geen resultaten",
		checked: "geselecteerd", flagged: "gemarkeerd", toolbar: "Knoppenbalk",
		accessNeeded: "Toegang vereist", accessExpired: "De toegangslink van deze browser is niet meer geldig.",
		accessMissing: "Deze server vraagt om een toegangslink.",
		accessAsk: "Vraag er een aan de eigenaar (http://host:port/#access=…) en open hem hier één keer.",
	},
	sv: {
		edit: "Redigera", done: "Klar", delete: "Radera", deleteCount: "Radera ({n})", cancel: "Avbryt",
		back: "Tillbaka", backTo: "Tillbaka till {title}", search: "Sök", add: "Lägg till", rename: "Byt namn",
		save: "Spara", newRow: "Ny rad", loading: "Läser in…", reconnecting: "Återansluter…",
		insertRow: "Infoga {text}", deleteRow: "Radera {text}", moreInfo: "Mer info om {text}",
		sectionIndex: "Avsnittsindex", scrollPosition: "Rullningsposition", rowOf: "Rad {i} av {n}",
		results: { one: "{n} träff", other: "{n} träffar" }, noResults: "Inga träffar",
		checked: "markerad", flagged: "flaggad", toolbar: "Verktygsfält",
		accessNeeded: "Åtkomst krävs", accessExpired: "Den här webbläsarens åtkomstlänk gäller inte längre.",
		accessMissing: "Den här servern kräver en åtkomstlänk.",
		accessAsk: "Be ägaren om en (http://host:port/#access=…) och öppna den här en gång.",
	},
	ru: {
		edit: "Изменить", done: "Готово", delete: "Удалить", deleteCount: "Удалить ({n})", cancel: "Отменить",
		back: "Назад", backTo: "Назад: {title}", search: "Поиск", add: "Добавить", rename: "Переименовать",
		save: "Сохранить", newRow: "Новая строка", loading: "Загрузка…", reconnecting: "Повторное подключение…",
		insertRow: "Вставить «{text}»", deleteRow: "Удалить «{text}»", moreInfo: "Подробнее о «{text}»",
		sectionIndex: "Указатель разделов", scrollPosition: "Положение прокрутки", rowOf: "Строка {i} из {n}",
		results: { one: "{n} результат", few: "{n} результата", many: "{n} результатов", other: "{n} результата" },
		noResults: "Нет результатов", checked: "выбрано", flagged: "с флажком", toolbar: "Панель инструментов",
		accessNeeded: "Нужен доступ", accessExpired: "Ссылка доступа в этом браузере больше не действует.",
		accessMissing: "Этому серверу нужна ссылка доступа.",
		accessAsk: "Попросите её у владельца (http://host:port/#access=…) и откройте здесь один раз.",
	},
	ja: {
		edit: "編集", done: "完了", delete: "削除", deleteCount: "削除（{n}）", cancel: "キャンセル", back: "戻る",
		backTo: "{title}に戻る", search: "検索", add: "追加", rename: "名称変更", save: "保存", newRow: "新規行",
		loading: "読み込み中…", reconnecting: "再接続中…", insertRow: "{text}を挿入", deleteRow: "{text}を削除",
		moreInfo: "{text}の詳細情報", sectionIndex: "セクションインデックス", scrollPosition: "スクロール位置",
		rowOf: "{n}行中{i}行目", results: { other: "{n}件の結果" }, noResults: "結果なし",
		checked: "チェック済み", flagged: "フラグ付き", toolbar: "ツールバー",
		accessNeeded: "アクセスが必要です", accessExpired: "このブラウザのアクセスリンクはもう有効ではありません。",
		accessMissing: "このサーバにはアクセスリンクが必要です。",
		accessAsk: "所有者にリンク（http://host:port/#access=…）を頼み、ここで一度開いてください。",
	},
	"zh-Hans": {
		edit: "编辑", done: "完成", delete: "删除", deleteCount: "删除（{n}）", cancel: "取消", back: "返回",
		backTo: "返回{title}", search: "搜索", add: "添加", rename: "重新命名", save: "存储", newRow: "新行",
		loading: "正在载入…", reconnecting: "正在重新连接…", insertRow: "插入“{text}”", deleteRow: "删除“{text}”",
		moreInfo: "关于“{text}”的更多信息", sectionIndex: "分区索引", scrollPosition: "滚动位置",
		rowOf: "第{i}行，共{n}行", results: { other: "{n}个结果" }, noResults: "无结果",
		checked: "已选中", flagged: "已标记", toolbar: "工具栏",
		accessNeeded: "需要访问权限", accessExpired: "此浏览器的访问链接已失效。",
		accessMissing: "此服务器需要访问链接。",
		accessAsk: "请向其所有者索取一个（http://host:port/#access=…）并在此处打开一次。",
	},
	ko: {
		edit: "편집", done: "완료", delete: "삭제", deleteCount: "삭제({n})", cancel: "취소", back: "뒤로",
		backTo: "{title}(으)로 돌아가기", search: "검색", add: "추가", rename: "이름 변경", save: "저장",
		newRow: "새로운 행", loading: "로드 중…", reconnecting: "다시 연결하는 중…", insertRow: "{text} 삽입",
		deleteRow: "{text} 삭제", moreInfo: "{text}에 관한 추가 정보", sectionIndex: "섹션 색인",
		scrollPosition: "스크롤 위치", rowOf: "{n}개 행 중 {i}번째", results: { other: "결과 {n}개" },
		noResults: "결과 없음", checked: "선택됨", flagged: "깃발 표시됨", toolbar: "도구 막대",
		accessNeeded: "접근 권한 필요", accessExpired: "이 브라우저의 접근 링크는 더 이상 유효하지 않습니다.",
		accessMissing: "이 서버에는 접근 링크가 필요합니다.",
		accessAsk: "소유자에게 링크(http://host:port/#access=…)를 요청하여 여기에서 한 번 여십시오.",
	},
	ar: {
		edit: "تحرير", done: "تم", delete: "حذف", deleteCount: "حذف ({n})", cancel: "إلغاء", back: "رجوع",
		backTo: "رجوع إلى {title}", search: "بحث", add: "إضافة", rename: "إعادة تسمية", save: "حفظ",
		newRow: "صف جديد", loading: "جارٍ التحميل…", reconnecting: "جارٍ إعادة الاتصال…", insertRow: "إدراج {text}",
		deleteRow: "حذف {text}", moreInfo: "مزيد من المعلومات حول {text}", sectionIndex: "فهرس الأقسام",
		scrollPosition: "موضع التمرير", rowOf: "الصف {i} من {n}",
		results: { zero: "لا نتائج", one: "نتيجة واحدة", two: "نتيجتان", few: "{n} نتائج", many: "{n} نتيجة", other: "{n} نتيجة" },
		noResults: "لا توجد نتائج", checked: "محدد", flagged: "عليه علامة", toolbar: "شريط الأدوات",
		accessNeeded: "يلزم الوصول", accessExpired: "رابط الوصول في هذا المتصفح لم يعد صالحًا.",
		accessMissing: "يحتاج هذا الخادم إلى رابط وصول.",
		accessAsk: "اطلب رابطًا من مالكه (http://host:port/#access=…) وافتحه هنا مرة واحدة.",
	},
	he: {
		edit: "עריכה", done: "סיום", delete: "מחיקה", deleteCount: "מחיקה ({n})", cancel: "ביטול", back: "חזרה",
		backTo: "חזרה אל {title}", search: "חיפוש", add: "הוספה", rename: "שינוי שם", save: "שמירה",
		newRow: "שורה חדשה", loading: "טוען…", reconnecting: "מתחבר מחדש…", insertRow: "הוספת {text}",
		deleteRow: "מחיקת {text}", moreInfo: "מידע נוסף על {text}", sectionIndex: "אינדקס מקטעים",
		scrollPosition: "מיקום הגלילה", rowOf: "שורה {i} מתוך {n}",
		results: { one: "תוצאה אחת", two: "{n} תוצאות", other: "{n} תוצאות" }, noResults: "אין תוצאות",
		checked: "מסומן", flagged: "מסומן בדגל", toolbar: "סרגל כלים",
		accessNeeded: "נדרשת גישה", accessExpired: "קישור הגישה של דפדפן זה אינו תקף עוד.",
		accessMissing: "שרת זה דורש קישור גישה.",
		accessAsk: "בקשו קישור מהבעלים (http://host:port/#access=…) ופתחו אותו כאן פעם אחת.",
	},
};

/// The languages the page has words for.
export const LANGUAGES = Object.keys(TABLES);

/// Scripts written right to left (ISO 15924), for `dir`.
const RTL = new Set(["Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg", "Mand", "Samr"]);

let table = TABLES.en;
let tag = "en"; // the table's language
let lang = ""; // the document's language

/// The table for a BCP 47 tag: its own (zh: by script), else its language's, else null.
export function tableFor(wanted) {
	let loc;
	try { loc = new Intl.Locale(wanted).maximize(); } catch { return null; }
	if (loc.language === "zh") return loc.script === "Hans" || loc.script === "Hant" ? "zh-Hans" : null;
	return TABLES[loc.language] ? loc.language : null;
}

const valid = (language) => {
	try { return language ? Intl.getCanonicalLocales(language)[0] : null; } catch { return null; }
};

const rtl = (language) => {
	try { return RTL.has(new Intl.Locale(language).maximize().script); } catch { return false; }
};

/// Sets the document's `lang` and `dir` and the words' language from the data's language
/// (null: the browser's); returns whether anything changed.
export function setLanguage(dataLanguage) {
	const wanted = valid(dataLanguage) ?? valid(navigator.language) ?? "en"; // WebKitGTK under LANG=C says "C"
	if (wanted === lang) return false;
	lang = wanted;
	tag = tableFor(wanted) ?? "en";
	table = TABLES[tag];
	const root = document.documentElement;
	root.lang = wanted;
	root.dir = rtl(wanted) ? "rtl" : "ltr";
	for (const node of document.querySelectorAll("[data-word]")) node.textContent = word(node.dataset.word);
	for (const node of document.querySelectorAll("[data-word-label]")) node.setAttribute("aria-label", word(node.dataset.wordLabel));
	for (const node of document.querySelectorAll("[data-word-placeholder]")) node.placeholder = word(node.dataset.wordPlaceholder);
	return true;
}

export const isRightToLeft = () => document.documentElement.dir === "rtl";

/// The page's word `key`, with `{name}` filled from `values` (numbers in the language's digits).
export function word(key, values = {}) {
	let text = table[key] ?? TABLES.en[key];
	if (typeof text === "object") {
		const forms = text;
		text = forms[new Intl.PluralRules(tag).select(values.n)] ?? forms.other;
	}
	return text.replace(/\{(\w+)\}/g, (_, k) => (typeof values[k] === "number" ? values[k].toLocaleString(lang) : values[k] ?? ""));
}
