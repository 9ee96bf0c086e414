// @ts-check
// The page's own words in zh-Hans (see words.js), as iOS says them.
export const words = {
	edit: "编辑", done: "完成", delete: "删除", deleteCount: "删除（{n}）", cancel: "取消", back: "返回",
	backTo: "返回{title}", search: "搜索", add: "添加", rename: "重新命名", save: "存储", newRow: "新行",
	loading: "正在载入…", reconnecting: "正在重新连接…", insertRow: "插入“{text}”", deleteRow: "删除“{text}”",
	moreInfo: "关于“{text}”的更多信息", sectionIndex: "分区索引", scrollPosition: "滚动位置",
	rowOf: "第{i}行，共{n}行", results: { other: "{n}个结果" }, noResults: "无结果",
	checked: "已选中", flagged: "已标记", toolbar: "工具栏",
	history: "历史记录", more: "更多", noHistory: "没有保留的更改。",
	accessNeeded: "需要访问权限", accessExpired: "此浏览器的访问链接已失效。",
	accessMissing: "此服务器需要访问链接。",
	accessAsk: "请向其所有者索取一个（http://host:port/#access=…）并在此处打开一次。",
};
