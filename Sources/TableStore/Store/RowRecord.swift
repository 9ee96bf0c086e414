import TableModel

/// Where a row is and the state commands look at.
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
  /// Whether the row drills into a child list.
  var hasChildren: Bool

  static let columns = """
    r.id, r.key, r.list_id, r.block_id, r.pos, r.visible, r.switch, r.checked, b.section_id, r.text,
      r.detail, r.style, r.show_when_row, EXISTS (SELECT 1 FROM list c WHERE c.parent_row = r.id)
    """

  init(_ s: Statement) {
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
    hasChildren = s.bool(13)
  }
}
