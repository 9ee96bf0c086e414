import TableModel

extension Store {
  /// The columns ``makeRow(_:in:)`` reads: the row, its child list, and the text of the
  /// child's checked option (for a row that shows it as its detail).
  static let rowSelect = """
    SELECT r.id, r.key, r.text, r.detail, r.style, r.image, r.accessory, r.switch, r.checked,
      c.id, c.selection,
      (SELECT o.text FROM row o WHERE o.list_id = c.id AND o.checked ORDER BY o.id LIMIT 1),
      r.lines, r.flagged, r.slot_values, r.actions
    FROM row r LEFT JOIN list c ON c.parent_row = r.id
    """
  static let rowSelectByID = rowSelect + " WHERE r.id = ?"

  /// The row as the protocol shows it, from a ``rowSelect`` result.
  func makeRow(_ s: Columns, in list: ListRecord) -> Row {
    let hasChildren = !s.isNull(9)
    let childSelection = s.optionalString(10).flatMap(SelectionMode.init(rawValue:))
    return Store.makeRow(
      id: s.string(1), text: s.string(2), detail: s.optionalString(3),
      style: CellStyle(rawValue: s.string(4)) ?? .default, image: s.optionalString(5),
      accessory: s.optionalString(6).flatMap(AccessoryType.init(rawValue:)),
      isOn: s.optionalBool(7),
      isChecked: s.bool(8), hasChildren: hasChildren,
      borrowedDetail: childSelection == .single ? s.optionalString(11) : nil, lines: s.int(12),
      isFlagged: s.bool(13), values: Store.values(stored: s.optionalString(14)),
      actions: Store.actions(stored: s.optionalString(15)), in: list)
  }

  /// The row as the protocol shows it: defaults, checkmarks and borrowed details applied.
  static func makeRow(
    id: String, text: String, detail: String?, style: CellStyle, image: String?,
    accessory stored: AccessoryType?,
    isOn: Bool?, isChecked: Bool, hasChildren: Bool, borrowedDetail: String?, lines: Int = 1,
    isFlagged: Bool = false, values: [String: String] = [:], actions: [String]? = nil,
    in list: ListRecord
  ) -> Row {
    var accessory = stored ?? (hasChildren ? .disclosureIndicator : .none)
    if list.selection != .none {
      if isChecked {
        accessory = .checkmark
      } else if accessory == .checkmark {
        accessory = .none
      }
    }
    var row = Row(
      id: id, style: style, text: text, detail: detail ?? borrowedDetail, image: image,
      accessory: accessory,
      control: isOn.map { .switch(isOn: $0) },
      editingStyle: list.isEditable ? .delete : .none,
      isMovable: list.isEditable && !list.isIndexed,
      isSelectable: hasChildren || isOn == nil || list.selection != .none, lines: lines)
    row.isFlagged = isFlagged
    row.values = values
    row.actions = actions
    return row
  }

  func loadRow(id: Int, in list: ListRecord) throws(StoreError) -> Row {
    guard
      let row = try fetchOne(Store.rowSelectByID, [id], { makeRow($0, in: list) })
    else { throw .notFound("row #\(id)") }
    return row
  }

  func listRecord(key: String) throws(StoreError) -> ListRecord? {
    try fetchOne(ListRecord.selectByKey, [key], ListRecord.init)
  }

  func listRecord(id: Int) throws(StoreError) -> ListRecord? {
    try fetchOne(ListRecord.selectByID, [id], ListRecord.init)
  }

  func requireList(_ key: String) throws(StoreError) -> ListRecord {
    guard let list = try listRecord(key: key) else { throw .notFound("list \(key)") }
    return list
  }

  func rowRecord(key: String) throws(StoreError) -> RowRecord? {
    try fetchOne(RowRecord.selectByKey, [key], RowRecord.init)
  }

  func rowRecord(id: Int) throws(StoreError) -> RowRecord? {
    try fetchOne(RowRecord.selectByID, [id], RowRecord.init)
  }

  /// The row `key` of `list` as the list shows it now; hidden rows (`showWhen`) count as
  /// missing, since no one can see them to name them.
  func requireVisibleRow(_ key: String, in list: ListRecord) throws(StoreError) -> RowRecord {
    try requireVisible(try rowRecord(key: key), key, in: list)
  }

  /// ``requireList(_:)``, and the row `row` read in the same round trip on PostgreSQL in
  /// a group (by its key, which is unique): check it with ``requireVisible(_:_:in:)``
  /// when the list's own checks have passed, so that refusals come in the usual order.
  func requireList(_ key: String, readingRow row: String) throws(StoreError)
    -> (ListRecord, RowRecord?)
  {
    var list: ListRecord?
    var found: RowRecord?
    try database.firstRows([(ListRecord.selectByKey, [key]), (RowRecord.selectByKey, [row])]) {
      index, columns in
      if index == 0 { list = ListRecord(columns) } else { found = RowRecord(columns) }
    }
    guard let list else { throw .notFound("list \(key)") }
    return (list, found)
  }

  /// `found` (row `key` as read) when it is a visible row of `list`.
  func requireVisible(_ found: RowRecord?, _ key: String, in list: ListRecord) throws(StoreError)
    -> RowRecord
  {
    guard let found, found.listID == list.id, found.isVisible else {
      throw .notFound("row \(key) in list \(list.key)")
    }
    return found
  }

  /// The stored section `key` of `list`.
  func requireSection(_ key: String, in list: ListRecord) throws(StoreError) -> Int {
    guard
      let id = try fetchInt("SELECT id FROM section WHERE key = ? AND list_id = ?", key, list.id)
    else {
      throw .notFound("section \(key) in list \(list.key)")
    }
    return id
  }

  func sectionKey(id: Int) throws(StoreError) -> String {
    guard let key = try fetchOne("SELECT key FROM section WHERE id = ?", [id], { $0.string(0) })
    else {
      throw .notFound("section #\(id)")
    }
    return key
  }

  /// Adds one to the list's version and returns the new one. `list` must have been read
  /// in the same write transaction, so that its version is the current one.
  ///
  /// No `RETURNING` here or in the other per-command updates: SQLite gathers a
  /// RETURNING statement's rows in a temporary table, which costs more than the update.
  func bumpVersion(of list: ListRecord) throws(StoreError) -> Int {
    // Sent ahead, its count is not known; the list was read in this transaction, under
    // the write lock, so it is there.
    let ahead = try executeLater("UPDATE list SET version = version + 1 WHERE id = ?", list.id)
    guard ahead || database.changes == 1 else { throw .notFound("list \(list.key)") }
    return list.version + 1
  }
}
