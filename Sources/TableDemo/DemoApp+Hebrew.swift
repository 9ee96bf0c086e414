import TableModel
import TableStore

extension DemoApp {
  /// Given names, most of them common in Israel, written in Hebrew; with the surnames below
  /// they make invented people, as the Contacts list does.
  static let hebrewGivenNames = [
    "אבי", "אורי", "איתי", "אלון", "בתיה", "גיל", "דנה", "הדס", "ורד", "זיו", "חנה", "טל",
    "יעל", "כרמל", "לאה", "מיכל", "נועה", "סיון", "עומר", "פנינה", "צביה", "קרן", "רותם",
    "שירה", "תמר",
  ]
  static let hebrewSurnames = ["כהן", "לוי", "מזרחי", "פרץ", "ביטון", "אברהם", "פרידמן", "שלום"]

  /// A right-to-left screen: an indexed, editable list of people in Hebrew (`language`
  /// "he"), each drilling into a small card, with swipe actions. Its letter sections are
  /// Hebrew's (א–ת) as `UILocalizedIndexedCollation` gives them.
  static func hebrew() -> AppScreen {
    var rows: [AppRow] = []
    for (number, given) in hebrewGivenNames.enumerated() {
      let name = "\(given) \(hebrewSurnames[number % hebrewSurnames.count])"
      let card = AppScreen(
        id: "hebrew-person-\(number + 1)", title: name, style: .grouped,
        sections: [
          AppSection(
            id: "hebrew-person-\(number + 1)-phone",
            rows: [
              // 055-5000xxx: a number kept for fiction.
              AppRow(
                id: "hebrew-person-\(number + 1)-mobile", text: "נייד",
                detail: "+972 55 500 \(String(1000 + number))", style: .value2)
            ])
        ])
      rows.append(
        AppRow(
          id: "hebrew-\(number + 1)", text: name, detail: "ישראל", style: .subtitle,
          children: card))
    }
    var screen = AppScreen(
      id: "hebrew", title: "אנשי קשר", isEditable: true, isIndexed: true,
      sections: [AppSection(id: "hebrew-all", rows: rows)], isSearchable: true)
    screen.language = "he"
    screen.actions = [
      AppAction(
        RowAction(id: "hebrew-flag", title: "סימון", edge: .leading, color: .orange), effect: .flag),
      AppAction(
        RowAction(id: "hebrew-delete", title: "מחיקה", edge: .trailing, color: .red),
        effect: .delete),
    ]
    return screen
  }
}
