import TableModel

extension Store {
  /// Inserts a row into an editable list, right after `after` (first when nil) in
  /// `section`. In an indexed list the row goes where its text sorts; `section` may then
  /// be any section of the list.
  public func insertRow(in list: String, section: String, after: String?, _ content: NewRow)
    throws(StoreError) -> StoreChange
  {
    try write { () throws(StoreError) in
      let record = try requireList(list)
      guard record.isEditable else { throw .notAllowed("list \(list) is not editable") }
      let sectionID: Int
      var afterRow: RowRecord?
      if record.isIndexed {
        // Stored order does not matter in an indexed list: keep rows in its first section.
        guard let first = try storedSections(of: record).first else {
          throw .notFound("section \(section) in list \(list)")
        }
        sectionID = first.id
        afterRow = nil
      } else {
        sectionID = try requireSection(section, in: record)
        if let after {
          let row = try requireVisibleRow(after, in: record)
          guard row.sectionID == sectionID else { throw .notFound("row \(after) in section \(section)") }
          afterRow = row
        }
      }
      // No style given: the list's usual style, that of the neighbouring row.
      var style = content.style
      if style == nil {
        var neighbour = afterRow?.id
        if neighbour == nil { neighbour = try firstRow(ofSection: sectionID) }
        if let neighbour {
          style = try fetchOne("SELECT style FROM row WHERE id = ?", [neighbour], { CellStyle(rawValue: $0.string(0)) }) ?? nil
        }
      }
      let key = try makeKey("R")
      let (block, pos) = try slot(inSection: sectionID, after: afterRow)
      guard let rowID = try fetchInt(
        """
        INSERT INTO row (key, list_id, block_id, pos, text, detail, style, image, accessory, switch,
          checked, visible)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 1) RETURNING id
        """, key, record.id, block, pos, content.text, content.detail, (style ?? .default).rawValue,
        content.image, content.accessory?.rawValue, content.isOn)
      else { throw .notFound("list \(list)") }
      try didAddRow(toBlock: block, visible: true)
      let row = try loadRow(id: rowID, in: record)
      let edit: RowEdit
      if record.isIndexed {
        let position = IndexCollation.position(of: row, among: try allVisibleRows(of: record), list: record.key)
        edit = .insert(row, section: position.section, after: position.after)
      } else {
        edit = .insert(row, section: section, after: after)
      }
      return StoreChange(lists: [ListChange(list: list, version: try bumpVersion(of: record.id), edits: [edit])])
    }
  }

  /// Deletes rows of an editable list. A row with children takes its whole subtree; rows
  /// whose `showWhen` names a deleted switch row go with it.
  public func deleteRows(_ rows: [String], in list: String) throws(StoreError) -> StoreChange {
    try write { () throws(StoreError) in
      let record = try requireList(list)
      guard record.isEditable else { throw .notAllowed("list \(list) is not editable") }
      guard !rows.isEmpty else { return StoreChange() }
      let lent = try lentDetail(of: record)
      var doomed: [RowRecord] = []
      var seen = Set<Int>()
      for key in rows {
        let row = try requireVisibleRow(key, in: record)
        if seen.insert(row.id).inserted { doomed.append(row) }
      }
      // Dependents of deleted switch rows, and theirs.
      var index = 0
      while index < doomed.count {
        let dependents = try fetchAll(
          "SELECT \(RowRecord.columns) FROM row r JOIN block b ON b.id = r.block_id WHERE r.show_when_row = ?",
          [doomed[index].id], RowRecord.init)
        for dependent in dependents where seen.insert(dependent.id).inserted { doomed.append(dependent) }
        index += 1
      }
      var removedLists: [String] = []
      for row in doomed {
        removedLists += try fetchAll(
          """
          WITH RECURSIVE subtree(id, depth) AS (
            SELECT id, 0 FROM list WHERE parent_row = ?
            UNION ALL
            SELECT l.id, s.depth + 1 FROM subtree s JOIN row r ON r.list_id = s.id JOIN list l ON l.parent_row = r.id
          )
          SELECT l.key FROM subtree s JOIN list l ON l.id = s.id ORDER BY s.depth, l.id
          """, [row.id], { $0.string(0) })
      }
      // Every dependent is doomed too: unlink them so that no deletion cascades to a row
      // whose block counts would then go stale. Each row is re-read, as an earlier
      // deletion may have merged its block into the next.
      for row in doomed { try execute("UPDATE row SET show_when_row = NULL WHERE id = ?", row.id) }
      for row in doomed {
        guard let current = try rowRecord(id: row.id) else { continue }
        try execute("DELETE FROM row WHERE id = ?", current.id)
        try didRemoveRow(current)
      }
      let edits = doomed.filter(\.isVisible).map { RowEdit.delete(row: $0.key) }
      var change = StoreChange(removedLists: removedLists)
      if !edits.isEmpty {
        change.lists.append(ListChange(list: list, version: try bumpVersion(of: record.id), edits: edits))
      }
      if let parent = try parentChange(of: record, lent: lent) { change.lists.append(parent) }
      return change
    }
  }

  /// Moves a row of an editable list to right after `after` (first when nil) in `toSection`.
  /// Moving a row to where it already is changes nothing.
  public func moveRow(_ row: String, in list: String, toSection: String, after: String?)
    throws(StoreError) -> StoreChange
  {
    try write { () throws(StoreError) in
      let record = try requireList(list)
      guard record.isEditable else { throw .notAllowed("list \(list) is not editable") }
      guard !record.isIndexed else { throw .notAllowed("list \(list) is sorted by its index") }
      let moving = try requireVisibleRow(row, in: record)
      let sectionID = try requireSection(toSection, in: record)
      var afterRow: RowRecord?
      if let after {
        guard after != row else { throw .notAllowed("a row cannot move after itself") }
        let found = try requireVisibleRow(after, in: record)
        guard found.sectionID == sectionID else { throw .notFound("row \(after) in section \(toSection)") }
        afterRow = found
      }
      if moving.sectionID == sectionID, try previousVisibleRow(moving) == after { return StoreChange() }
      try didRemoveRow(moving, keepEmpty: true)
      let (block, pos) = try slot(inSection: sectionID, after: afterRow)
      try execute("UPDATE row SET block_id = ?, pos = ? WHERE id = ?", block, pos, moving.id)
      try didAddRow(toBlock: block, visible: true)
      if block != moving.blockID { try execute("DELETE FROM block WHERE id = ? AND size = 0", moving.blockID) }
      let edit = RowEdit.move(row: row, section: toSection, after: after)
      return StoreChange(lists: [ListChange(list: list, version: try bumpVersion(of: record.id), edits: [edit])])
    }
  }

  /// Gives a row of an editable list new text and/or detail (nil: unchanged; `.some(nil)`
  /// clears the detail). In an indexed list a new text may move the row.
  public func updateRow(_ row: String, in list: String, text: String?, detail: String??)
    throws(StoreError) -> StoreChange
  {
    try write { () throws(StoreError) in
      let record = try requireList(list)
      guard record.isEditable else { throw .notAllowed("list \(list) is not editable") }
      let found = try requireVisibleRow(row, in: record)
      let newText = text ?? found.text
      let newDetail = detail ?? found.detail
      guard newText != found.text || newDetail != found.detail else { return StoreChange() }
      let lent = try lentDetail(of: record)
      let before = try loadRow(id: found.id, in: record)
      try execute("UPDATE row SET text = ?, detail = ? WHERE id = ?", newText, newDetail, found.id)
      let updated = try loadRow(id: found.id, in: record)
      var edits: [RowEdit] = []
      if record.isIndexed && newText != found.text {
        let rows = try allVisibleRows(of: record)
        let old = IndexCollation.position(of: before, among: rows, list: record.key)
        let new = IndexCollation.position(of: updated, among: rows, list: record.key)
        if old != new { edits.append(.move(row: row, section: new.section, after: new.after)) }
      }
      edits.append(.update(updated))
      var change = StoreChange(lists: [ListChange(list: list, version: try bumpVersion(of: record.id), edits: edits)])
      if let parent = try parentChange(of: record, lent: lent) { change.lists.append(parent) }
      return change
    }
  }

  /// The id of a section's first row, visible or not.
  func firstRow(ofSection sectionID: Int) throws(StoreError) -> Int? {
    guard let block = try fetchInt("SELECT id FROM block WHERE section_id = ? ORDER BY pos LIMIT 1", sectionID)
    else { return nil }
    return try fetchInt("SELECT id FROM row WHERE block_id = ? ORDER BY pos LIMIT 1", block)
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
