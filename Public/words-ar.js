// @ts-check
// The page's own words in ar (see words.js), as iOS says them.
export const words = {
	edit: "تحرير", done: "تم", delete: "حذف", deleteCount: "حذف ({n})", cancel: "إلغاء", back: "رجوع",
	backTo: "رجوع إلى {title}", search: "بحث", add: "إضافة", rename: "إعادة تسمية", save: "حفظ",
	newRow: "صف جديد", loading: "جارٍ التحميل…", reconnecting: "جارٍ إعادة الاتصال…", insertRow: "إدراج {text}",
	deleteRow: "حذف {text}", moreInfo: "مزيد من المعلومات حول {text}", sectionIndex: "فهرس الأقسام",
	scrollPosition: "موضع التمرير", rowOf: "الصف {i} من {n}",
	results: { zero: "لا نتائج", one: "نتيجة واحدة", two: "نتيجتان", few: "{n} نتائج", many: "{n} نتيجة", other: "{n} نتيجة" },
	noResults: "لا توجد نتائج", checked: "محدد", flagged: "عليه علامة", toolbar: "شريط الأدوات",
	history: "السجل", more: "المزيد", noHistory: "لا توجد تغييرات محفوظة.",
	accessNeeded: "يلزم الوصول", accessExpired: "رابط الوصول في هذا المتصفح لم يعد صالحًا.",
	accessMissing: "يحتاج هذا الخادم إلى رابط وصول.",
	accessAsk: "اطلب رابطًا من مالكه (http://host:port/#access=…) وافتحه هنا مرة واحدة.",
};
