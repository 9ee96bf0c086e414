import TableModel

/// Where a row is, the state commands look at, and everything the protocol shows of it,
/// so that a command can return the row it changed without reading it again.
struct RowRecord {
  var id: Int
  var key: String
  var listID: Int
  var blockID: Int
  var pos: Int
  var isVisible: Bool
  var isOn: Bool?
  var isChecked: Bool
  var sectionID: Int
  var text: String
  var detail: String?
  var style: CellStyle
  var showWhenRow: Int?
  /// The selection mode of the child list the row drills into; nil when it has none.
  var childSelection: SelectionMode?
  var image: String?
  var accessory: AccessoryType?
  /// How many rows (visible or not) the row's block held when the record was read.
  var blockSize: Int
  /// The text of the checked option of a single-selection child list.
  var childCheckedText: String?
  /// The most lines the text may take; 0: any.
  var lines: Int
  var isFlagged: Bool
  var values: [String: String]
  /// The ids of the list's actions the row offers; nil: all of them.
  var actions: [String]?

  /// Whether the row drills into a child list.
  var hasChildren: Bool { childSelection != nil }

  /// The record's columns and tables; append a `WHERE` clause. Further columns may follow
  /// at ``columnCount`` and after.
  static func select(_ extraColumns: String = "") -> String {
    """
    SELECT r.id, r.key, r.list_id, r.block_id, r.pos, r.visible, r.switch, r.checked, b.section_id,
      r.text, r.detail, r.style, r.show_when_row, c.selection, r.image, r.accessory, b.size,
      CASE WHEN c.selection = 'single' THEN
        (SELECT o.text FROM row o WHERE o.list_id = c.id AND o.checked ORDER BY o.id LIMIT 1)
      END, r.lines, r.flagged, r.slot_values, r.actions\(extraColumns)
    FROM row r JOIN block b ON b.id = r.block_id LEFT JOIN list c ON c.parent_row = r.id
    """
  }

  static let columnCount = 22
  // Built once: the statement cache hashes the SQL of every statement it hands out.
  static let selectByKey = select() + " WHERE r.key = ?"
  static let selectByID = select() + " WHERE r.id = ?"
  static let selectDependents = select() + " WHERE r.show_when_row = ?"

  init(_ s: Columns) {
    id = s.int(0)
    key = s.string(1)
    listID = s.int(2)
    blockID = s.int(3)
    pos = s.int(4)
    isVisible = s.bool(5)
    isOn = s.optionalBool(6)
    isChecked = s.bool(7)
    sectionID = s.int(8)
    text = s.string(9)
    detail = s.optionalString(10)
    style = CellStyle(rawValue: s.string(11)) ?? .default
    showWhenRow = s.optionalInt(12)
    childSelection = s.optionalString(13).map { SelectionMode(rawValue: $0) ?? .none }
    image = s.optionalString(14)
    accessory = s.optionalString(15).flatMap(AccessoryType.init(rawValue:))
    blockSize = s.int(16)
    childCheckedText = s.optionalString(17)
    lines = s.int(18)
    isFlagged = s.bool(19)
    values = Store.values(stored: s.optionalString(20))
    actions = Store.actions(stored: s.optionalString(21))
  }

  /// The row as `list` shows it (see ``Store/makeRow(id:text:detail:style:image:accessory:isOn:isChecked:hasChildren:borrowedDetail:lines:in:)``).
  func row(in list: ListRecord) -> Row {
    Store.makeRow(
      id: key, text: text, detail: detail, style: style, image: image, accessory: accessory,
      isOn: isOn, isChecked: isChecked, hasChildren: hasChildren,
      borrowedDetail: childSelection == .single ? childCheckedText : nil, lines: lines,
      isFlagged: isFlagged, values: values, actions: actions, in: list)
  }
}
