import TableModel

extension Store {
  /// Inserts a row into an editable list, right after `after` (first when nil) in
  /// `section`. In an indexed list the row goes where its text sorts; `section` may then
  /// be any section of the list.
  /// `author`: who inserts it, recorded in the change log with the change.
  public func insertRow(
    in list: String, section: String, after: String?, _ content: NewRow,
    by author: ChangeAuthor? = nil
  ) throws(StoreError) -> TableChange {
    try write(
      recording: ChangeRecord(author, command: "insert", list: list), locking: .lists([list])
    ) {
      (_: inout WriteContext) throws(StoreError) in
      let record = try requireList(list)
      guard record.isEditable else { throw .notAllowed("list \(list) is not editable") }
      let sectionID: Int
      var afterRow: RowRecord?
      if record.isIndexed {
        // Stored order does not matter in an indexed list: the row goes where its text
        // sorts, and is kept in the list's first stored section.
        let stored = try storedSections(of: record)
        let letters = record.collation.titles.map {
          IndexCollation.sectionKey(list: list, title: $0)
        }
        guard let first = stored.first,
          letters.contains(section) || stored.contains(where: { $0.key == section })
        else { throw .notFound("section \(section) in list \(list)") }
        sectionID = first.id
        afterRow = nil
      } else {
        sectionID = try requireSection(section, in: record)
        if let after {
          let row = try requireVisibleRow(after, in: record)
          guard row.sectionID == sectionID else {
            throw .notFound("row \(after) in section \(section)")
          }
          afterRow = row
        }
      }
      // No style given: the list's usual style, that of the neighbouring row.
      var style = content.style
      if style == nil {
        if let afterRow {
          style = afterRow.style
        } else if let first = try firstRow(ofSection: sectionID) {
          style =
            try fetchOne(
              "SELECT style FROM row WHERE id = ?", [first], { CellStyle(rawValue: $0.string(0)) })
            ?? nil
        }
      }
      let key = try makeKey("R")
      let target = try slot(inSection: sectionID, after: afterRow)
      try execute(
        """
        INSERT INTO row (key, list_id, block_id, pos, text, detail, style, checked, visible)
        VALUES (?, ?, ?, ?, ?, ?, ?, FALSE, TRUE)
        """, key, record.id, target.block, target.pos, content.text, content.detail,
        (style ?? .default).rawValue)
      try didAddRow(to: target, visible: true)
      try addVisibleRows(1, toSection: sectionID)
      let row = Store.makeRow(
        id: key, text: content.text, detail: content.detail, style: style ?? .default,
        image: nil, accessory: nil, isOn: nil, isChecked: false, hasChildren: false,
        borrowedDetail: nil, in: record)
      let edit: RowEdit
      if record.isIndexed {
        let position = record.collation.position(
          of: row, among: try allVisibleRows(of: record), list: record.key)
        edit = .insert(row, section: position.section, after: position.after)
      } else {
        edit = .insert(row, section: section, after: after)
      }
      return TableChange(lists: [
        TableChange.ListChange(list: list, version: try bumpVersion(of: record), edits: [edit])
      ])
    }
  }

  /// The id of a section's first row, visible or not.
  func firstRow(ofSection sectionID: Int) throws(StoreError) -> Int? {
    guard
      let block = try fetchInt(
        "SELECT id FROM block WHERE section_id = ? ORDER BY pos LIMIT 1", sectionID)
    else { return nil }
    return try fetchInt("SELECT id FROM row WHERE block_id = ? ORDER BY pos LIMIT 1", block)
  }
}
