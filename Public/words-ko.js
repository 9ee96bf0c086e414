// @ts-check
// The page's own words in ko (see words.js), as iOS says them.
export const words = {
	edit: "편집", done: "완료", delete: "삭제", deleteCount: "삭제({n})", cancel: "취소", back: "뒤로",
	backTo: "{title}(으)로 돌아가기", search: "검색", add: "추가", rename: "이름 변경", save: "저장",
	newRow: "새로운 행", loading: "로드 중…", reconnecting: "다시 연결하는 중…", insertRow: "{text} 삽입",
	deleteRow: "{text} 삭제", moreInfo: "{text}에 관한 추가 정보", sectionIndex: "섹션 색인",
	scrollPosition: "스크롤 위치", rowOf: "{n}개 행 중 {i}번째", results: { other: "결과 {n}개" },
	noResults: "결과 없음", checked: "선택됨", flagged: "깃발 표시됨", toolbar: "도구 막대",
	history: "기록", more: "더 보기", noHistory: "보관된 변경 사항이 없습니다.",
	accessNeeded: "접근 권한 필요", accessExpired: "이 브라우저의 접근 링크는 더 이상 유효하지 않습니다.",
	accessMissing: "이 서버에는 접근 링크가 필요합니다.",
	accessAsk: "소유자에게 링크(http://host:port/#access=…)를 요청하여 여기에서 한 번 여십시오.",
};
