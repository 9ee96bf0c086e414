import TableModel

extension Store {
  /// Stores a screen's row actions, in order (import).
  func insertActions(_ actions: [AppAction], list: Int) throws(StoreError) {
    for (pos, item) in actions.enumerated() {
      try execute(
        "INSERT INTO list_action (list_id, pos, key, title, edge, color, effect) VALUES (?, ?, ?, ?, ?, ?, ?)",
        list, pos, item.action.id, item.action.title, item.action.edge.rawValue,
        item.action.color.rawValue, item.effect.rawValue)
    }
  }

  /// The list's row actions, in order.
  func actions(ofList list: Int) throws(StoreError) -> [AppAction] {
    try fetchAll(
      "SELECT key, title, edge, color, effect FROM list_action WHERE list_id = ? ORDER BY pos",
      [list]
    ) { s in
      AppAction(
        RowAction(
          id: s.string(0), title: s.string(1),
          edge: RowAction.Edge(rawValue: s.string(2)) ?? .trailing,
          color: RowAction.Color(rawValue: s.string(3)) ?? .gray),
        effect: AppAction.Effect(rawValue: s.string(4)) ?? .check)
    }
  }

  /// A row's action ids as stored: a JSON array, or NULL for all of the list's.
  static func storedActions(_ actions: [String]?) -> String? {
    actions.map { JSONValue.array($0.map { .string($0) }).serialized }
  }

  /// The ids `storedActions` wrote; a value that does not parse (not tableweb's) reads as
  /// none offered rather than all.
  static func actions(stored text: String?) -> [String]? {
    guard let text else { return nil }
    guard let array = (try? JSONValue(parsing: text))?.arrayValue else { return [] }
    return array.compactMap(\.stringValue)
  }

  /// Performs the list's action `action` on `row`: its built-in effect, as the edit it
  /// stands for (a deletion, a checkmark toggled), refused where that edit would be or
  /// where the row does not offer the action (its own `actions`).
  /// `author`: who performs it, recorded in the change log with the change.
  public func performAction(
    _ action: String, onRow row: String, in list: String, by author: ChangeAuthor? = nil
  ) throws(StoreError) -> TableChange {
    let record = ChangeRecord(author, command: "action", list: list)
    let (listRecord, offered) = try read { () throws(StoreError) in
      let found = try requireList(list)
      return (found, try requireVisibleRow(row, in: found).actions)
    }
    guard let found = try actions(ofList: listRecord.id).first(where: { $0.action.id == action })
    else {
      throw .notFound("action \(action) in list \(list)")
    }
    if let offered, !offered.contains(action) {
      throw .notAllowed("row \(row) does not offer action \(action)")
    }
    switch found.effect {
    case .delete:
      guard listRecord.isEditable else { throw .notAllowed("list \(list) cannot be edited") }
      return try deleteRows([row], in: list, recording: record)
    case .check:
      guard listRecord.selection == .multiple else {
        throw .notAllowed("list \(list) is not a multiple-selection list")
      }
      return try select(row, in: list, recording: record)
    case .flag:
      return try toggleFlag(row, in: list, recording: record)
    }
  }

  /// Flags an unflagged row, unflags a flagged one: one change, shown on the row.
  func toggleFlag(_ row: String, in list: String, recording record: ChangeRecord?)
    throws(StoreError) -> TableChange
  {
    try write(recording: record, locking: .lists([list])) {
      (context: inout WriteContext) throws(StoreError) in
      let record = try requireList(list)
      var found = try requireVisibleRow(row, in: record)
      try notePrior(found, in: record, placed: false, into: &context)
      found.isFlagged.toggle()
      try execute("UPDATE row SET flagged = ? WHERE id = ?", found.isFlagged, found.id)
      return TableChange(lists: [
        TableChange.ListChange(
          list: list, version: try bumpVersion(of: record), edits: [.update(found.row(in: record))])
      ])
    }
  }
}
