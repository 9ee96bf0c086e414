import TableModel

extension Store {
  /// Turns a row's switch on or off. Rows whose `showWhen` names it appear or disappear.
  /// Setting the state it already has changes nothing.
  public func setSwitch(_ row: String, in list: String, isOn: Bool) throws(StoreError)
    -> StoreChange
  {
    try write { () throws(StoreError) in
      let record = try requireList(list)
      let found = try requireVisibleRow(row, in: record)
      guard let current = found.isOn else { throw .notAllowed("row \(row) has no switch") }
      guard current != isOn else { return StoreChange() }
      try execute("UPDATE row SET switch = ? WHERE id = ?", isOn, found.id)
      var edits: [RowEdit] = []
      var appeared: [RowRecord] = []
      for (dependent, visible) in try visibilityChanges(in: record) {
        try setVisible(dependent, visible)
        if visible {
          appeared.append(dependent)
        } else {
          edits.append(.delete(row: dependent.key))
        }
      }
      // Appearing rows in list order, each after the visible row before it (which is
      // either visible already or inserted by an earlier edit).
      appeared.sort { ($0.sectionID, $0.blockID, $0.pos) < ($1.sectionID, $1.blockID, $1.pos) }
      for dependent in appeared {
        guard let moved = try rowRecord(id: dependent.id) else { continue }
        edits.append(
          .insert(
            try loadRow(id: dependent.id, in: record), section: try sectionKey(id: moved.sectionID),
            after: try previousVisibleRow(moved)))
      }
      edits.append(.update(try loadRow(id: found.id, in: record)))
      return StoreChange(lists: [
        ListChange(list: list, version: try bumpVersion(of: record.id), edits: edits)
      ])
    }
  }

  /// Picks a row of a selection list: in a single-selection list the checkmark moves to
  /// it (picking the checked row changes nothing); in a multiple-selection list its
  /// checkmark toggles. A parent row showing the checked option as its detail follows.
  public func select(_ row: String, in list: String) throws(StoreError) -> StoreChange {
    try write { () throws(StoreError) in
      let record = try requireList(list)
      let found = try requireVisibleRow(row, in: record)
      var changed: [Int] = []
      let lent = try lentDetail(of: record)
      switch record.selection {
      case .none:
        throw .notAllowed("list \(list) is not a selection list")
      case .single:
        guard !found.isChecked else { return StoreChange() }
        let checked = try fetchAll(
          "SELECT id, visible FROM row WHERE list_id = ? AND checked", [record.id],
          { ($0.int(0), $0.bool(1)) })
        for (id, visible) in checked {
          try execute("UPDATE row SET checked = 0 WHERE id = ?", id)
          if visible { changed.append(id) }
        }
        try execute("UPDATE row SET checked = 1 WHERE id = ?", found.id)
        changed.append(found.id)
      case .multiple:
        try execute("UPDATE row SET checked = NOT checked WHERE id = ?", found.id)
        changed.append(found.id)
      }
      var edits: [RowEdit] = []
      for id in changed { edits.append(.update(try loadRow(id: id, in: record))) }
      var change = StoreChange(lists: [
        ListChange(list: list, version: try bumpVersion(of: record.id), edits: edits)
      ])
      if let parent = try parentChange(of: record, lent: lent) { change.lists.append(parent) }
      return change
    }
  }

  /// The rows of `list` whose visibility no longer matches their `showWhen` rules, and
  /// what it should be. A row is visible while its switch row is in the named state and
  /// is itself visible (rules may chain; import refuses cycles).
  func visibilityChanges(in list: ListRecord) throws(StoreError) -> [(RowRecord, Bool)] {
    let dependents = try fetchAll(
      """
      SELECT \(RowRecord.columns), r.show_when_row, r.show_when_on
      FROM row r JOIN block b ON b.id = r.block_id
      WHERE r.list_id = ? AND r.show_when_row IS NOT NULL
      """, [list.id], { (RowRecord($0), $0.int(12), $0.bool(13)) })
    guard !dependents.isEmpty else { return [] }
    let switchIDs = Set(dependents.map(\.1))
    var switches: [Int: Bool] = [:]
    for id in switchIDs {
      switches[id] =
        try fetchOne("SELECT switch FROM row WHERE id = ?", [id], { $0.optionalBool(0) }) ?? nil
    }
    let rules = Dictionary(
      dependents.map { ($0.0.id, (switchRow: $0.1, on: $0.2)) }, uniquingKeysWith: { a, _ in a })
    var memo: [Int: Bool] = [:]
    func isVisible(_ id: Int, depth: Int) -> Bool {
      if let known = memo[id] { return known }
      guard let rule = rules[id], depth < 64 else { return true }
      let visible =
        switches[rule.switchRow] == rule.on && isVisible(rule.switchRow, depth: depth + 1)
      memo[id] = visible
      return visible
    }
    return dependents.compactMap { dependent in
      let visible = isVisible(dependent.0.id, depth: 0)
      return visible == dependent.0.isVisible ? nil : (dependent.0, visible)
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
  func parentChange(of list: ListRecord, lent before: (row: Int, text: String?)?) throws(StoreError)
    -> ListChange?
  {
    guard let before, let after = try lentDetail(of: list), after.text != before.text,
      let parentRow = try rowRecord(id: before.row),
      let parentList = try listRecord(id: parentRow.listID)
    else { return nil }
    let row = try loadRow(id: parentRow.id, in: parentList)
    return ListChange(
      list: parentList.key, version: try bumpVersion(of: parentList.id), edits: [.update(row)])
  }
}
