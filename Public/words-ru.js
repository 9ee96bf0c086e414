// @ts-check
// The page's own words in ru (see words.js), as iOS says them.
export const words = {
	edit: "Изменить", done: "Готово", delete: "Удалить", deleteCount: "Удалить ({n})", cancel: "Отменить",
	back: "Назад", backTo: "Назад: {title}", search: "Поиск", add: "Добавить", rename: "Переименовать",
	save: "Сохранить", newRow: "Новая строка", loading: "Загрузка…", reconnecting: "Повторное подключение…",
	insertRow: "Вставить «{text}»", deleteRow: "Удалить «{text}»", moreInfo: "Подробнее о «{text}»",
	sectionIndex: "Указатель разделов", scrollPosition: "Положение прокрутки", rowOf: "Строка {i} из {n}",
	results: { one: "{n} результат", few: "{n} результата", many: "{n} результатов", other: "{n} результата" },
	noResults: "Нет результатов", checked: "выбрано", flagged: "с флажком", toolbar: "Панель инструментов",
	history: "История", more: "Ещё", noHistory: "Изменений нет.",
	accessNeeded: "Нужен доступ", accessExpired: "Ссылка доступа в этом браузере больше не действует.",
	accessMissing: "Этому серверу нужна ссылка доступа.",
	accessAsk: "Попросите её у владельца (http://host:port/#access=…) и откройте здесь один раз.",
};
