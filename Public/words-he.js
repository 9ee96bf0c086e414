// @ts-check
// The page's own words in he (see words.js), as iOS says them.
export const words = {
	edit: "עריכה", done: "סיום", delete: "מחיקה", deleteCount: "מחיקה ({n})", cancel: "ביטול", back: "חזרה",
	backTo: "חזרה אל {title}", search: "חיפוש", add: "הוספה", rename: "שינוי שם", save: "שמירה",
	newRow: "שורה חדשה", loading: "טוען…", reconnecting: "מתחבר מחדש…", insertRow: "הוספת {text}",
	deleteRow: "מחיקת {text}", moreInfo: "מידע נוסף על {text}", sectionIndex: "אינדקס מקטעים",
	scrollPosition: "מיקום הגלילה", rowOf: "שורה {i} מתוך {n}",
	results: { one: "תוצאה אחת", two: "{n} תוצאות", other: "{n} תוצאות" }, noResults: "אין תוצאות",
	checked: "מסומן", flagged: "מסומן בדגל", toolbar: "סרגל כלים",
	history: "היסטוריה", more: "עוד", noHistory: "אין שינויים שמורים.",
	accessNeeded: "נדרשת גישה", accessExpired: "קישור הגישה של דפדפן זה אינו תקף עוד.",
	accessMissing: "שרת זה דורש קישור גישה.",
	accessAsk: "בקשו קישור מהבעלים (http://host:port/#access=…) ופתחו אותו כאן פעם אחת.",
};
