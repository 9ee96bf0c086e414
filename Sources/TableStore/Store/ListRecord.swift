import TableModel

/// A list's stored settings.
struct ListRecord {
  var id: Int
  var key: String
  var parentRow: Int?
  var title: String
  var style: TableStyle
  var selection: SelectionMode
  var isEditable: Bool
  var isIndexed: Bool
  var header: String?
  var footer: String?
  var version: Int
  var isSearchable: Bool
  /// The list's own `language`, as imported (and exported).
  var ownLanguage: String?
  /// The language its screens are in: its own, else that of the screen leading to it, up
  /// to the root's (worked out at import).
  var language: String?

  static let columns =
    "id, key, parent_row, title, style, selection, editable, indexed, header, footer, version, searchable, language, "
    + "screen_language"
  // Built once: the statement cache hashes the SQL of every statement it hands out.
  static let selectByKey = "SELECT \(columns) FROM list WHERE key = ?"
  static let selectByID = "SELECT \(columns) FROM list WHERE id = ?"

  init(_ s: Columns) {
    id = s.int(0)
    key = s.string(1)
    parentRow = s.optionalInt(2)
    title = s.string(3)
    style = TableStyle(rawValue: s.string(4)) ?? .plain
    selection = SelectionMode(rawValue: s.string(5)) ?? .none
    isEditable = s.bool(6)
    isIndexed = s.bool(7)
    header = s.optionalString(8)
    footer = s.optionalString(9)
    version = s.int(10)
    isSearchable = s.bool(11)
    ownLanguage = s.optionalString(12)
    language = s.optionalString(13)
  }

  /// How the list is indexed, when it is: by its language, which only an import changes.
  var collation: IndexCollation { IndexCollation(language: language) }

  /// The list's snapshot before its sections are read.
  var emptySnapshot: TableSnapshot {
    var snapshot = TableSnapshot(
      list: key, version: version, title: title, style: style, selection: selection,
      isEditable: isEditable, header: header, footer: footer, isSearchable: isSearchable)
    snapshot.language = language
    return snapshot
  }
}
