import TableModel

extension Store {
  /// Picks a row of a selection list: in a single-selection list the checkmark moves to
  /// it (picking the checked row changes nothing); in a multiple-selection list its
  /// checkmark toggles. A parent row showing the checked option as its detail follows.
  /// `author`: who picks it, recorded in the change log with the change.
  public func select(_ row: String, in list: String, by author: ChangeAuthor? = nil)
    throws(StoreError) -> TableChange
  {
    try select(row, in: list, recording: ChangeRecord(author, command: "tap", list: list))
  }

  func select(_ row: String, in list: String, recording record: ChangeRecord?)
    throws(StoreError) -> TableChange
  {
    try write(recording: record, locking: .lists([list])) {
      (context: inout WriteContext) throws(StoreError) in
      let record = try requireList(list)
      let found = try requireVisibleRow(row, in: record)
      var edits: [RowEdit] = []
      let lent = try lentDetail(of: record)
      var picked = found
      try notePrior(found, in: record, placed: false, into: &context)
      switch record.selection {
      case .none:
        throw .notAllowed("list \(list) is not a selection list")
      case .single:
        guard !found.isChecked else { return TableChange() }
        let checked = try fetchAll(
          "SELECT id, visible FROM row WHERE list_id = ? AND checked", [record.id],
          { ($0.int(0), $0.bool(1)) })
        for (id, visible) in checked where visible {
          if let old = try rowRecord(id: id) {
            try notePrior(old, in: record, placed: false, into: &context)
          }
        }
        for (id, _) in checked {
          try execute("UPDATE row SET checked = FALSE WHERE id = ?", id)
        }
        for (id, visible) in checked where visible {
          edits.append(.update(try loadRow(id: id, in: record)))
        }
        try execute("UPDATE row SET checked = TRUE WHERE id = ?", found.id)
        picked.isChecked = true
      case .multiple:
        try execute("UPDATE row SET checked = ? WHERE id = ?", !found.isChecked, found.id)
        picked.isChecked = !found.isChecked
      }
      edits.append(.update(picked.row(in: record)))
      var change = TableChange(lists: [
        TableChange.ListChange(list: list, version: try bumpVersion(of: record), edits: edits)
      ])
      if let parent = try parentChange(of: record, lent: lent, into: &context) {
        change.lists.append(parent)
      }
      return change
    }
  }

  /// For a single-selection list whose parent row has no detail of its own: that row and
  /// the checked option's text it shows.
  func lentDetail(of list: ListRecord) throws(StoreError) -> (row: Int, text: String?)? {
    guard list.selection == .single, let parent = list.parentRow,
      try fetchInt("SELECT detail IS NULL AND visible FROM row WHERE id = ?", parent) == 1
    else { return nil }
    let text = try fetchOne(
      "SELECT text FROM row WHERE list_id = ? AND checked ORDER BY id LIMIT 1", [list.id],
      { $0.string(0) })
    return (parent, text)
  }

  /// The change to the parent list when the detail its row borrows from `list` changed.
  func parentChange(
    of list: ListRecord, lent before: (row: Int, text: String?)?, into context: inout WriteContext
  ) throws(StoreError) -> TableChange.ListChange? {
    guard let before, let after = try lentDetail(of: list), after.text != before.text,
      let parentRow = try rowRecord(id: before.row),
      let parentList = try listRecord(id: parentRow.listID)
    else { return nil }
    let row = try loadRow(id: parentRow.id, in: parentList)
    var old = row
    old.detail = before.text
    try notePrior(old, list: parentList.key, into: &context)
    return TableChange.ListChange(
      list: parentList.key, version: try bumpVersion(of: parentList), edits: [.update(row)])
  }
}
