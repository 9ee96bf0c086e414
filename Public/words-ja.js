// @ts-check
// The page's own words in ja (see words.js), as iOS says them.
export const words = {
	edit: "編集", done: "完了", delete: "削除", deleteCount: "削除（{n}）", cancel: "キャンセル", back: "戻る",
	backTo: "{title}に戻る", search: "検索", add: "追加", rename: "名称変更", save: "保存", newRow: "新規行",
	loading: "読み込み中…", reconnecting: "再接続中…", insertRow: "{text}を挿入", deleteRow: "{text}を削除",
	moreInfo: "{text}の詳細情報", sectionIndex: "セクションインデックス", scrollPosition: "スクロール位置",
	rowOf: "{n}行中{i}行目", results: { other: "{n}件の結果" }, noResults: "結果なし",
	checked: "チェック済み", flagged: "フラグ付き", toolbar: "ツールバー",
	history: "履歴", more: "さらに表示", noHistory: "変更履歴はありません。",
	accessNeeded: "アクセスが必要です", accessExpired: "このブラウザのアクセスリンクはもう有効ではありません。",
	accessMissing: "このサーバにはアクセスリンクが必要です。",
	accessAsk: "所有者にリンク（http://host:port/#access=…）を頼み、ここで一度開いてください。",
};
