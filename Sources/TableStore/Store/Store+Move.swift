import TableModel

extension Store {
  /// Moves a row of an editable list to right after `after` (first when nil) in `toSection`.
  /// Moving a row to where it already is changes nothing.
  /// `author`: who moves it, recorded in the change log with the change.
  public func moveRow(
    _ row: String, in list: String, toSection: String, after: String?,
    by author: ChangeAuthor? = nil
  ) throws(StoreError) -> TableChange {
    try write(recording: ChangeRecord(author, command: "move", list: list), locking: .lists([list]))
    {
      (context: inout WriteContext) throws(StoreError) in
      let record = try requireList(list)
      guard record.isEditable else { throw .notAllowed("list \(list) is not editable") }
      guard !record.isIndexed else { throw .notAllowed("list \(list) is sorted by its index") }
      let moving = try requireVisibleRow(row, in: record)
      let sectionID = try requireSection(toSection, in: record)
      var afterRow: RowRecord?
      if let after {
        guard after != row else { throw .notAllowed("a row cannot move after itself") }
        let found = try requireVisibleRow(after, in: record)
        guard found.sectionID == sectionID else {
          throw .notFound("row \(after) in section \(toSection)")
        }
        afterRow = found
      }
      if moving.sectionID == sectionID, try previousVisibleRow(moving) == after {
        return TableChange()
      }
      // The slot is found while the row is still in place: the row is not next to `after`
      // (that move would change nothing), so it cannot be the neighbour the slot is taken
      // from, and block sizes are still those the records were read with.
      let target = try slot(inSection: sectionID, after: afterRow)
      try notePrior(moving, in: record, placed: true, into: &context)
      try execute(
        "UPDATE row SET block_id = ?, pos = ? WHERE id = ?", target.block, target.pos, moving.id)
      if target.block != moving.blockID {
        // Added before it is removed: removing may fold the old block into the new one.
        try didAddRow(to: target, visible: true)
        try didRemoveRow(moving)
        if sectionID != moving.sectionID {
          try addVisibleRows(1, toSection: sectionID)
          try addVisibleRows(-1, toSection: moving.sectionID)
        }
      }
      let edit = RowEdit.move(row: row, section: toSection, after: after)
      return TableChange(lists: [
        TableChange.ListChange(list: list, version: try bumpVersion(of: record), edits: [edit])
      ])
    }
  }
}
