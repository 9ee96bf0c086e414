import TableModel

extension Store {
  /// Deletes rows of an editable list. A row with children takes its whole subtree; rows
  /// whose `showWhen` names a deleted switch row go with it.
  /// `author`: who deletes them, recorded in the change log with the change.
  public func deleteRows(_ rows: [String], in list: String, by author: ChangeAuthor? = nil)
    throws(StoreError) -> TableChange
  {
    try deleteRows(rows, in: list, recording: ChangeRecord(author, command: "delete", list: list))
  }

  func deleteRows(_ rows: [String], in list: String, recording record: ChangeRecord?)
    throws(StoreError) -> TableChange
  {
    try write(recording: record, locking: .lists([list])) {
      (context: inout WriteContext) throws(StoreError) in
      let record = try requireList(list)
      guard record.isEditable else { throw .notAllowed("list \(list) is not editable") }
      guard !rows.isEmpty else { return TableChange() }
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
        guard doomed[index].isOn != nil else {  // only switch rows have dependents
          index += 1
          continue
        }
        let dependents = try fetchAll(
          RowRecord.selectDependents,
          [doomed[index].id], RowRecord.init)
        for dependent in dependents where seen.insert(dependent.id).inserted {
          doomed.append(dependent)
        }
        index += 1
      }
      var removedLists: [String] = []
      for row in doomed where row.hasChildren {
        removedLists += try fetchAll(
          """
          WITH RECURSIVE subtree(id, depth) AS (
            SELECT id, 0 FROM list WHERE parent_row = ?
            UNION ALL
            SELECT l.id, s.depth + 1 FROM subtree s
            JOIN section c ON c.list_id = s.id JOIN block b ON b.section_id = c.id
            JOIN row r ON r.block_id = b.id JOIN list l ON l.parent_row = r.id
          )
          SELECT l.key FROM subtree s JOIN list l ON l.id = s.id ORDER BY s.depth, l.id
          """, [row.id], { $0.string(0) })
      }
      for row in doomed where row.isVisible {
        try notePrior(row, in: record, placed: true, into: &context)
        if context.keepsDeletedRows { context.deletedRows.append(try appRow(of: row)) }
      }
      // Every dependent is doomed too: unlink them so that no deletion cascades to a row
      // whose block counts would then go stale. Each row is re-read, as an earlier
      // deletion may have merged its block into the next.
      for row in doomed where row.showWhenRow != nil {
        try execute("UPDATE row SET show_when_row = NULL WHERE id = ?", row.id)
      }
      var removedFromSection: [Int: Int] = [:]
      for (index, row) in doomed.enumerated() {
        guard let current = index == 0 ? row : try rowRecord(id: row.id) else { continue }
        try execute("DELETE FROM row WHERE id = ?", current.id)
        try didRemoveRow(current)
        if current.isVisible { removedFromSection[current.sectionID, default: 0] += 1 }
      }
      for (sectionID, removed) in removedFromSection.sorted(by: { $0.key < $1.key }) {
        try addVisibleRows(-removed, toSection: sectionID)
      }
      let edits = doomed.filter(\.isVisible).map { RowEdit.delete(row: $0.key) }
      var change = TableChange(removedLists: removedLists)
      if !edits.isEmpty {
        change.lists.append(
          TableChange.ListChange(list: list, version: try bumpVersion(of: record), edits: edits))
      }
      if let parent = try parentChange(of: record, lent: lent, into: &context) {
        change.lists.append(parent)
      }
      return change
    }
  }
}
