import TableModel

extension Store {
  /// Turns a row's switch on or off. Rows whose `showWhen` names it appear or disappear.
  /// Setting the state it already has changes nothing.
  /// `author`: who sets it, recorded in the change log with the change.
  public func setSwitch(_ row: String, in list: String, isOn: Bool, by author: ChangeAuthor? = nil)
    throws(StoreError) -> TableChange
  {
    try write(
      recording: ChangeRecord(author, command: "toggle", list: list), locking: .lists([list])
    ) {
      (context: inout WriteContext) throws(StoreError) in
      let (record, read) = try requireList(list, readingRow: row)
      let found = try requireVisible(read, row, in: record)
      guard let current = found.isOn else { throw .notAllowed("row \(row) has no switch") }
      guard current != isOn else { return TableChange() }
      try notePrior(found, in: record, placed: false, into: &context)
      try executeLater("UPDATE row SET switch = ? WHERE id = ?", isOn, found.id)
      var edits: [RowEdit] = []
      var appeared: [RowRecord] = []
      let changes = try visibilityChanges(in: record)
      // Where the rows about to hide stand, before any of them hides.
      for (dependent, visible) in changes where !visible {
        try notePrior(dependent, in: record, placed: true, into: &context)
      }
      for (dependent, visible) in changes {
        try setVisible(dependent, visible)
        if visible {
          appeared.append(dependent)
        } else {
          edits.append(.delete(row: dependent.key))
        }
      }
      // Appearing rows in list order, each after the visible row before it (which is
      // either visible already or inserted by an earlier edit).
      if appeared.count > 1 {
        var order: [Int: [Int]] = [:]
        for dependent in appeared {
          order[dependent.id] = try fetchOne(
            """
            SELECT s.pos, b.pos, r.pos FROM row r JOIN block b ON b.id = r.block_id
            JOIN section s ON s.id = b.section_id WHERE r.id = ?
            """, [dependent.id], { [$0.int(0), $0.int(1), $0.int(2)] })
        }
        appeared.sort {
          order[$0.id, default: []].lexicographicallyPrecedes(order[$1.id, default: []])
        }
      }
      for var dependent in appeared {
        // Showing a row moves no row, so the record read before still says where it is.
        dependent.isVisible = true
        edits.append(
          .insert(
            dependent.row(in: record), section: try sectionKey(id: dependent.sectionID),
            after: try previousVisibleRow(dependent)))
      }
      var switched = found
      switched.isOn = isOn
      edits.append(.update(switched.row(in: record)))
      return TableChange(lists: [
        TableChange.ListChange(list: list, version: try bumpVersion(of: record), edits: edits)
      ])
    }
  }

  static let dependentsWithRules =
    RowRecord.select(
      ", r.show_when_row, r.show_when_on, (SELECT w.switch FROM row w WHERE w.id = r.show_when_row)"
    ) + " WHERE r.list_id = ? AND r.show_when_row IS NOT NULL"

  /// The rows of `list` whose visibility no longer matches their `showWhen` rules, and
  /// what it should be. A row is visible while its switch row is in the named state and
  /// is itself visible (rules may chain; import refuses cycles).
  func visibilityChanges(in list: ListRecord) throws(StoreError) -> [(RowRecord, Bool)] {
    // Each dependent with its rule and the state of the switch the rule names.
    let dependents = try fetchAll(
      Store.dependentsWithRules, [list.id],
      {
        (
          RowRecord($0), $0.int(RowRecord.columnCount), $0.bool(RowRecord.columnCount + 1),
          $0.optionalBool(RowRecord.columnCount + 2)
        )
      })
    guard !dependents.isEmpty else { return [] }
    var switches: [Int: Bool] = [:]
    for dependent in dependents { switches[dependent.1] = dependent.3 }
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
}
