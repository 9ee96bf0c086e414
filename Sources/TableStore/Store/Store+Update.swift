import TableModel

extension Store {
  /// Gives a row of an editable list new text, detail, flag and custom cell values (nil:
  /// unchanged; `.some(nil)` clears the detail; `values` replaces them all, checked against
  /// the list's cell). In an indexed list a new text may move the row. `author`: who changes
  /// it, recorded in the change log with the change.
  public func updateRow(
    _ row: String, in list: String, text: String?, detail: String??, flagged: Bool? = nil,
    values: [String: String]? = nil, by author: ChangeAuthor? = nil
  ) throws(StoreError) -> TableChange {
    try write(
      recording: ChangeRecord(author, command: "update", list: list), locking: .lists([list])
    ) {
      (context: inout WriteContext) throws(StoreError) in
      let (record, read) = try requireList(list, readingRow: row)
      guard record.isEditable else { throw .notAllowed("list \(list) is not editable") }
      let found = try requireVisible(read, row, in: record)
      if let values {
        guard let cell = try cell(ofList: record.id) else {
          throw .invalidData(path: "values", message: "list \(list) has no custom cell")
        }
        if let (slot, message) = cell.problem(with: values) {
          throw .invalidData(path: "values.\(slot)", message: message)
        }
      }
      var changed = found
      changed.text = text ?? found.text
      changed.detail = detail ?? found.detail
      changed.isFlagged = flagged ?? found.isFlagged
      changed.values = values ?? found.values
      let newText = changed.text
      guard
        newText != found.text || changed.detail != found.detail
          || changed.isFlagged != found.isFlagged
          || changed.values != found.values
      else { return TableChange() }
      let lent = try lentDetail(of: record)
      try notePrior(
        found, in: record, placed: record.isIndexed && newText != found.text, into: &context)
      // On PostgreSQL the list's version goes up in the same statement (one statement an
      // edit less; `bumpVersion(of:)` sends its own otherwise).
      let bumpsVersion = dialect == .postgres
      try executeLater(
        bumpsVersion
          ? """
          WITH bumped AS (UPDATE list SET version = version + 1 WHERE id = ?6)
          UPDATE row SET text = ?1, detail = ?2, flagged = ?3, slot_values = ?4 WHERE id = ?5
          """
          : "UPDATE row SET text = ?1, detail = ?2, flagged = ?3, slot_values = ?4 WHERE id = ?5",
        arguments: [
          newText, changed.detail, changed.isFlagged, Store.storedValues(changed.values), found.id,
        ] + (bumpsVersion ? [record.id] : []))
      let updated = changed.row(in: record)
      var edits: [RowEdit] = []
      if record.isIndexed, newText != found.text {
        let before = found.row(in: record)
        let rows = try allVisibleRows(of: record)
        let collation = record.collation
        let old = collation.position(of: before, among: rows, list: record.key)
        let new = collation.position(of: updated, among: rows, list: record.key)
        if old != new { edits.append(.move(row: row, section: new.section, after: new.after)) }
      }
      edits.append(.update(updated))
      var change = TableChange(lists: [
        TableChange.ListChange(
          list: list, version: bumpsVersion ? record.version + 1 : try bumpVersion(of: record),
          edits: edits)
      ])
      if let parent = try parentChange(of: record, lent: lent, into: &context) {
        change.lists.append(parent)
      }
      return change
    }
  }

  /// Every visible row of a list, in stored order.
  func allVisibleRows(of list: ListRecord) throws(StoreError) -> [Row] {
    try fetchAll(
      Store.rowSelect
        + """
         JOIN block b ON b.id = r.block_id JOIN section s ON s.id = b.section_id
        WHERE s.list_id = ? AND r.visible ORDER BY s.pos, b.pos, r.pos
        """, [list.id], { makeRow($0, in: list) })
  }
}
