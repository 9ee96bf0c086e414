import TableModel

/// Undo stacks, per session, in the database (`undo_step`): so that they survive a
/// reconnect and a restart, and any server on the same database undoes what the session
/// did on another.
///
/// Each undoable write a session makes (`recordingUndo(for:_:)`) adds a step: the list,
/// its version after the write, the write's edits and prior rows (as the change log has
/// them) and the rows it deleted in full, with their child screens. An undo takes the
/// session's newest step not undone and brings its rows back to their prior state; a redo
/// takes the oldest undone one and applies its edits again. Either is one write (one
/// transaction, one version of the list, one change-log entry, command `undo` or `redo`),
/// refused with ``StoreError/conflict(_:)`` when a row it would touch is no longer as the
/// step left it. A new write of the session drops its undone steps; only the newest
/// ``undoDepth`` steps are kept.
extension Store {
  /// How many steps a session's undo stack keeps.
  public static let undoDepth = 50

  /// Runs `body` with every undoable write it makes recorded on the undo stack of
  /// `session` (an opaque name: the server uses the session token).
  public func recordingUndo<T>(for session: String, _ body: () throws(StoreError) -> T)
    throws(StoreError) -> T
  {
    let before = undoSession
    undoSession = session
    defer { undoSession = before }
    return try body()
  }

  /// The list that `undo(session:redo:in:by:)` would change now: the list of the session's
  /// newest step (with `redo`, its newest undone one); nil when there is none.
  public func undoTarget(session: String, redo: Bool) throws(StoreError) -> String? {
    try read { () throws(StoreError) in try step(of: session, redo: redo)?.list }
  }

  /// Undoes the newest step of `session` (with `redo`: applies its newest undone step
  /// again) as a new change to `list`, by `author`. Throws ``StoreError/notFound(_:)``
  /// when there is nothing to undo (or redo), ``StoreError/conflict(_:)`` when someone
  /// else changed a row it would touch since (naming the row and who), or when the step is
  /// no longer one of `list` (see ``undoTarget(session:redo:)``); nothing is applied then.
  public func undo(session: String, redo: Bool = false, in list: String, by author: ChangeAuthor?)
    throws(StoreError) -> TableChange
  {
    let command = redo ? "redo" : "undo"
    return try write(recording: ChangeRecord(author, command: command, list: list)) {
      (context: inout WriteContext) throws(StoreError) in
      guard let step = try step(of: session, redo: redo) else {
        throw .notFound("nothing to \(command)")
      }
      guard step.list == list else {
        throw .conflict("the \(command) history changed meanwhile; try again")
      }
      try checkConflicts(of: step, redo: redo, session: session)
      let composition = UndoComposition()
      composing = composition
      defer { composing = nil }
      if redo { try reapply(step) } else { try revert(step) }
      composing = nil
      context.absorb(composition.context)
      let change = composition.change()
      for (changed, version) in composition.firstVersions {
        try execute("UPDATE list SET version = ? WHERE key = ?", version, changed)
      }
      var version = change.version(of: list) ?? 0
      if version == 0 { version = try requireList(list).version }
      var restore = step.restore
      if redo, !composition.context.deletedRows.isEmpty {
        restore = AppScreen(
          title: "", sections: [AppSection(rows: composition.context.deletedRows)])
      }
      try execute(
        "UPDATE undo_step SET undone = ?, version = ?, restore = ? WHERE session = ? AND id = ?",
        !redo, version, restore.map { $0.json.serialized }, session, step.id)
      return change
    }
  }

  // MARK: Steps

  struct UndoStep {
    var id: Int
    var list: String
    var version: Int
    var command: String
    var edits: [RowEdit]
    var prior: [PriorRow]
    var restore: AppScreen?
  }

  /// The session's newest step not undone among its newest ``undoDepth`` (redo: its
  /// oldest undone one, the next to redo; those are all among the newest, since a new
  /// step drops them). Older steps the table still holds (`recordUndoStep`) are not on the
  /// stack.
  func step(of session: String, redo: Bool) throws(StoreError) -> UndoStep? {
    try flushUndoSteps()
    let sql =
      redo
      ? "SELECT id, list, version, command, edits, prior, restore FROM undo_step WHERE session = ?1 AND undone ORDER BY id LIMIT 1"
      : """
      SELECT id, list, version, command, edits, prior, restore FROM undo_step
      WHERE session = ?1 AND NOT undone AND id >= coalesce((
        SELECT id FROM undo_step WHERE session = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2), 0)
      ORDER BY id DESC LIMIT 1
      """
    guard
      let raw = try fetchOne(
        sql, redo ? [session] : [session, Store.undoDepth - 1],
        {
          (
            $0.int(0), $0.string(1), $0.int(2), $0.string(3), $0.string(4), $0.string(5),
            $0.optionalString(6)
          )
        })
    else { return nil }
    do {
      return UndoStep(
        id: raw.0, list: raw.1, version: raw.2, command: raw.3, edits: try RowEdit.decode(raw.4),
        prior: try PriorRow.decode(raw.5), restore: try raw.6.map { try AppScreen(jsonText: $0) })
    } catch {
      throw .invalidData(path: "undo_step[\(raw.0)]", message: "\(error)")
    }
  }

  /// Adds the step of a committed write of the undo session, if it is an undoable one: its
  /// undone steps (its redo side) go, and with them the steps that were off the stack.
  ///
  /// The stack is the session's newest ``undoDepth`` steps (`step(of:redo:)` looks at no
  /// other): a new one pushes the oldest off without deleting it. Those are deleted every
  /// ``undoTrimInterval``th step this connection records for the session (and at its
  /// first), and whenever the session had undone some (else dropping those would bring
  /// older ones back onto the stack): the DELETE that found them at every step walked the
  /// session's steps, 35 µs a write on PostgreSQL (`tablebench cluster`), where dropping
  /// the redo side alone is a look into a partial index, empty unless something was
  /// undone. On PostgreSQL the steps of a transaction (a group's 50 writes) wait for its
  /// end, or for the next read of the stacks, and go in one statement
  /// (`flushUndoSteps()`).
  func recordUndoStep(_ change: TableChange, _ context: WriteContext) throws(StoreError) {
    guard let session = undoSession, let record = context.record,
      record.command != "undo", record.command != "redo",
      let listChange = change.lists.first(where: { $0.list == record.list }),
      let edits = listChange.edits, !edits.isEmpty
    else { return }
    let recorded = undoStepsUntrimmed[session]
    let trims = recorded.map { $0 + 1 >= Store.undoTrimInterval } ?? true
    if undoStepsUntrimmed.count >= 4_096 { undoStepsUntrimmed = [:] }
    undoStepsUntrimmed[session] = trims ? 0 : (recorded ?? 0) + 1
    let restore =
      context.deletedRows.isEmpty
      ? nil : AppScreen(title: "", sections: [AppSection(rows: context.deletedRows)])
    let step: [any DatabaseValueConvertible] = [
      session, record.list, listChange.version, record.command, record.author.name,
      RowEdit.serialized(edits), PriorRow.serialized(context.prior[record.list] ?? []),
      restore.map { $0.json.serialized }, trims,
    ]
    guard dialect == .sqlite else { return pendingUndoSteps.append(step) }
    // SQLite: the steps off the stack go first, while the undone ones still count. ?2:
    // the offset of the oldest step on the stack, the 50th newest; at a trim with no
    // step undone it goes too (with the new one, 50 stay).
    let undone = "EXISTS (SELECT 1 FROM undo_step WHERE session = ?1 AND undone)"
    let oldest = "(SELECT id FROM undo_step WHERE session = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)"
    try execute(
      trims
        ? "DELETE FROM undo_step WHERE session = ?1 AND id < \(oldest) + CASE WHEN \(undone) THEN 0 ELSE 1 END"
        : "DELETE FROM undo_step WHERE session = ?1 AND \(undone) AND id < \(oldest)",
      session, Store.undoDepth - 1)
    try execute("DELETE FROM undo_step WHERE session = ?1 AND undone", session)
    try execute(
      """
      INSERT INTO undo_step (session, list, version, command, author, undone, edits, prior, restore)
      VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)
      """, arguments: Array(step.prefix(8)))
  }

  /// Adds the undo steps the open write transaction kept (PostgreSQL): what
  /// `recordUndoStep` does for each, in one statement (sent ahead where it can be) for up
  /// to ``ChangeLogStore/rowsPerInsert`` steps. Each DELETE in it sees the table as it was
  /// before the statement, without the new steps: a session's redo side goes, and the
  /// steps off its stack when it had undone some or one of its new steps trims (at a trim
  /// with nothing undone, the 50th newest too). Its new steps come in the order they were
  /// recorded. Called before the transaction reads or deletes undo steps, and at its end.
  func flushUndoSteps() throws(StoreError) {
    guard !pendingUndoSteps.isEmpty else { return }
    let pending = pendingUndoSteps
    pendingUndoSteps = []
    var start = 0
    while start < pending.count {
      let part = pending[start..<min(pending.count, start + ChangeLogStore.rowsPerInsert)]
      try executeLater(
        Store.undoStepsInsert(count: part.count),
        arguments: part.enumerated().flatMap { index, step in step + [index] } + [
          Store.undoDepth - 1
        ])
      start += part.count
    }
  }

  /// The statement `flushUndoSteps()` sends for `count` steps (PostgreSQL). Its arguments:
  /// each step's session, list, version, command, author, edits, prior, restore, whether
  /// it trims and its place among them; then the offset of the oldest step on a stack.
  static func undoStepsInsert(count: Int) -> String {
    let rows = (0..<count).map { _ in "(?, ?, ?::bigint, ?, ?, ?, ?, ?, ?::boolean, ?::int)" }
    return """
      WITH new (session, list, version, command, author, edits, prior, restore, trims, n) AS (
          VALUES \(rows.joined(separator: ", "))),
        sessions AS (SELECT session, bool_or(trims) AS trims FROM new GROUP BY session),
        undone AS (
          DELETE FROM undo_step u USING sessions s WHERE u.session = s.session AND u.undone
          RETURNING u.session),
        off_stack AS (
          DELETE FROM undo_step u USING sessions s
          WHERE u.session = s.session
            AND (s.trims OR s.session IN (SELECT session FROM undone))
            AND u.id < (
              SELECT o.id FROM undo_step o WHERE o.session = s.session
              ORDER BY o.id DESC LIMIT 1 OFFSET ?)
              + CASE WHEN s.session IN (SELECT session FROM undone) THEN 0 ELSE 1 END)
      INSERT INTO undo_step (session, list, version, command, author, undone, edits, prior, restore)
      SELECT session, list, version, command, author, false, edits, prior, restore FROM new
      ORDER BY n
      """
  }

  /// How often a session's steps past the newest ``undoDepth`` are deleted: every this
  /// many steps a connection records for it (`recordUndoStep`).
  static let undoTrimInterval = 8

  /// A row as the data format has it, with its child screen: how an undo puts it back.
  func appRow(of row: RowRecord) throws(StoreError) -> AppRow {
    var exported = AppRow(
      id: row.key, text: row.text, detail: row.detail, style: row.style, image: row.image,
      accessory: row.accessory, isOn: row.isOn, isChecked: row.isChecked, lines: row.lines
    ).flagged(row.isFlagged, values: row.values, actions: row.actions)
    if row.hasChildren,
      let child = try fetchInt("SELECT id FROM list WHERE parent_row = ?", row.id),
      let list = try listRecord(id: child)
    {
      exported.children = try exportScreen(list)
    }
    return exported
  }

  // MARK: Conflicts

  /// How a row is to be found: its content as the list shows it, or gone.
  private func expectedRows(of step: UndoStep, redo: Bool) -> [(id: String, row: Row?)] {
    var prior: [String: Row] = [:]
    for entry in step.prior where prior[entry.row.id] == nil { prior[entry.row.id] = entry.row }
    var after: [String: Row?] = [:]
    var order: [String] = []
    func note(_ id: String, _ row: Row?) {
      if after[id] == nil { order.append(id) }
      after[id] = .some(row)
    }
    for edit in step.edits {
      switch edit {
      case .insert(let row, _, _):
        // A toggle's appearing rows follow the switch: only the switch is checked.
        if step.command != "toggle" { note(row.id, row) }
      case .delete(let id):
        if step.command != "toggle" { note(id, nil) }
      case .move(let id, _, _):
        if after[id] == nil { note(id, prior[id]) }
      case .update(let row):
        note(row.id, row)
      }
    }
    if redo {
      return order.map { id in (id, prior[id]) }
    }
    return order.map { id in (id, after[id] ?? nil) }
  }

  private func checkConflicts(of step: UndoStep, redo: Bool, session: String)
    throws(StoreError)
  {
    let list = try requireList(step.list)
    for (id, expected) in expectedRows(of: step, redo: redo) {
      let found = try rowRecord(key: id)
      let current = found.flatMap { $0.listID == list.id && $0.isVisible ? $0.row(in: list) : nil }
      switch (expected, current) {
      case (nil, nil):
        continue
      case (let expected?, let current?) where Store.sameContent(expected, current):
        continue
      default:
        let title = current?.text ?? expected?.text ?? id
        let who = try changer(of: id, in: step.list, since: step.version, notBy: session)
        let how = current == nil ? "deleted" : "changed"
        throw .conflict(
          "\"\(title)\" was \(how) by \(who.map { "\($0)" } ?? "someone else") since; nothing was \(redo ? "redone" : "undone")"
        )
      }
    }
  }

  static func sameContent(_ a: Row, _ b: Row) -> Bool {
    a.text == b.text && a.detail == b.detail && a.control == b.control
      && a.isFlagged == b.isFlagged && a.values == b.values
      && (a.accessory == .checkmark) == (b.accessory == .checkmark)
  }

  /// Who last changed `row` of `list` after `version`: the author of that version's step,
  /// when a session's undo stack still holds it.
  private func changer(of row: String, in list: String, since version: Int, notBy session: String)
    throws(StoreError) -> String?
  {
    try flushUndoSteps()
    let current = try requireList(list).version
    guard current > version else { return nil }
    let entries =
      try fetchAll(
        "SELECT version, edits FROM list_log WHERE list = ? AND version > ? ORDER BY version DESC",
        [list, version], { ($0.int(0), $0.isNull(1) ? nil : $0.string(1)) })
    for (entryVersion, text) in entries {
      guard let text, let edits = try? RowEdit.decode(text),
        edits.contains(where: { $0.touchedRow == row })
      else { continue }
      if let author = try fetchOne(
        "SELECT author FROM undo_step WHERE list = ? AND version = ? AND session <> ? LIMIT 1",
        [list, entryVersion, session], { $0.optionalString(0) })
      {
        return author ?? "someone else"
      }
      return nil
    }
    return nil
  }

  // MARK: Undo and redo

  /// Brings the step's rows back to how they were before it.
  private func revert(_ step: UndoStep) throws(StoreError) {
    let list = step.list
    var firstPrior: [String: PriorRow] = [:]
    for entry in step.prior where firstPrior[entry.row.id] == nil {
      firstPrior[entry.row.id] = entry
    }
    if step.command == "toggle" {
      for case .update(let row) in step.edits {
        if let before = firstPrior[row.id]?.row, let isOn = before.control?.isOn {
          _ = try setSwitch(row.id, in: list, isOn: isOn)
        }
      }
      return
    }
    var inserted: [String] = []
    for case .insert(let row, _, _) in step.edits where firstPrior[row.id] == nil {
      if try self.row(row.id, in: list) != nil { inserted.append(row.id) }
    }
    if !inserted.isEmpty { _ = try deleteRows(inserted, in: list, recording: nil) }
    var restore: [String: AppRow] = [:]
    for row in step.restore?.sections.first?.rows ?? [] {
      if let id = row.id { restore[id] = row }
    }
    var waiting = step.prior.filter { $0.place != nil && firstPrior[$0.row.id] == $0 }
    var placedBack = Set<String>()
    while !waiting.isEmpty {
      let pending = Set(waiting.map(\.row.id))
      // A row whose old neighbour is still waiting goes after it.
      let index =
        waiting.firstIndex { entry in
          guard let after = entry.place?.after else { return true }
          return !pending.contains(after)
        } ?? 0
      let entry = waiting.remove(at: index)
      guard let place = entry.place else { continue }
      if try self.row(entry.row.id, in: list) == nil {
        let row = restore[entry.row.id] ?? AppRow(id: entry.row.id, text: entry.row.text)
        try restoreRow(row, in: list, section: place.section, after: place.after)
        placedBack.insert(entry.row.id)
      } else if step.command != "update" {
        try moveBack(entry.row.id, in: list, section: place.section, after: place.after)
      }
    }
    for entry in step.prior where firstPrior[entry.row.id] == entry {
      guard !placedBack.contains(entry.row.id) else { continue }
      try setContent(of: entry.row.id, in: list, to: entry.row)
    }
  }

  /// Applies the step's edits again.
  private func reapply(_ step: UndoStep) throws(StoreError) {
    let list = step.list
    if step.command == "toggle" {
      for case .update(let row) in step.edits {
        if let isOn = row.control?.isOn { _ = try setSwitch(row.id, in: list, isOn: isOn) }
      }
      return
    }
    var deleted: [String] = []
    for edit in step.edits {
      switch edit {
      case .insert(let row, let section, let after):
        if try self.row(row.id, in: list) == nil {
          try restoreRow(
            AppRow(id: row.id, text: row.text, detail: row.detail, style: row.style),
            in: list, section: section, after: after)
        }
      case .delete(let id):
        if try self.row(id, in: list) != nil { deleted.append(id) }
      case .move(let id, let section, let after):
        if step.command != "update" {
          try moveBack(id, in: list, section: section, after: after)
        }
      case .update(let row):
        try setContent(of: row.id, in: list, to: row)
      }
    }
    if !deleted.isEmpty { _ = try deleteRows(deleted, in: list, recording: nil) }
  }

  /// Moves `row` to after `after` in `section`; first there when that row is gone or
  /// stands elsewhere, and in the list's first section when `section` is gone.
  private func moveBack(_ row: String, in list: String, section: String, after: String?)
    throws(StoreError)
  {
    let (section, after) = try place(in: list, section: section, after: after)
    _ = try moveRow(row, in: list, toSection: section, after: after == row ? nil : after)
  }

  private func place(in list: String, section: String, after: String?) throws(StoreError)
    -> (section: String, after: String?)
  {
    let record = try requireList(list)
    var section = section
    if (try? requireSection(section, in: record)) == nil {
      guard let first = try storedSections(of: record).first else {
        throw .notFound("a section in list \(list)")
      }
      section = first.key
    }
    guard let after, let anchor = try rowRecord(key: after), anchor.listID == record.id,
      anchor.isVisible, try sectionKey(id: anchor.sectionID) == section
    else { return (section, nil) }
    return (section, after)
  }

  /// Puts a deleted row back, with its id, content and child screen.
  private func restoreRow(_ row: AppRow, in list: String, section: String, after: String?)
    throws(StoreError)
  {
    let (section, after) = try place(in: list, section: section, after: after)
    _ = try write { (context: inout WriteContext) throws(StoreError) -> TableChange in
      let record = try requireList(list)
      let sectionID = try requireSection(section, in: record)
      let afterRow = try after.flatMap { (key: String) throws(StoreError) in try rowRecord(key: key)
      }
      let target = try slot(inSection: sectionID, after: afterRow)
      guard let key = row.id else { throw .notFound("the id of a deleted row") }
      try execute(
        """
        INSERT INTO row (key, list_id, block_id, pos, text, detail, style, image, accessory, switch,
          checked, visible, lines, flagged, slot_values, actions)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """, key, record.id, target.block, target.pos, row.text, row.detail, row.style.rawValue,
        row.image, row.accessory?.rawValue, row.isOn, row.isChecked, true, row.lines,
        row.isFlagged, Store.storedValues(row.values), Store.storedActions(row.actions))
      let rowID = try database.lastInsertID()
      try didAddRow(to: target, visible: true)
      try addVisibleRows(1, toSection: sectionID)
      if let children = row.children {
        var importer = Importer(
          store: self, versions: [:], root: children,
          counter: try fetchInt("SELECT value FROM meta WHERE key = 'next_id'") ?? 1,
          nextRowID: nil)
        _ = try importer.insert(children, parentRow: rowID, inheriting: record.language)
      }
      let restored = try loadRow(id: rowID, in: record)
      return TableChange(lists: [
        TableChange.ListChange(
          list: list, version: try bumpVersion(of: record),
          edits: [.insert(restored, section: section, after: after)])
      ])
    }
  }

  /// Gives a row the content `target` has: text, detail, flag, values, switch, checkmark.
  private func setContent(of key: String, in list: String, to target: Row) throws(StoreError) {
    guard let current = try row(key, in: list) else { return }
    if current.text != target.text || current.detail != target.detail
      || current.values != target.values
    {
      _ = try updateRow(
        key, in: list, text: target.text, detail: .some(target.detail),
        values: current.values == target.values ? nil : target.values)
    }
    if current.isFlagged != target.isFlagged {
      _ = try toggleFlag(key, in: list, recording: nil)
    }
    if let isOn = target.control?.isOn, current.control?.isOn != isOn {
      _ = try setSwitch(key, in: list, isOn: isOn)
    }
    let checked = target.accessory == .checkmark
    if (current.accessory == .checkmark) != checked {
      try setChecked(key, in: list, checked)
    }
  }

  /// Sets or clears a row's checkmark, whatever the list's selection mode.
  private func setChecked(_ key: String, in list: String, _ checked: Bool) throws(StoreError) {
    _ = try write { (context: inout WriteContext) throws(StoreError) -> TableChange in
      let record = try requireList(list)
      guard record.selection != .none else { return TableChange() }
      let found = try requireVisibleRow(key, in: record)
      let lent = try lentDetail(of: record)
      try execute("UPDATE row SET checked = ? WHERE id = ?", checked, found.id)
      var change = TableChange(lists: [
        TableChange.ListChange(
          list: list, version: try bumpVersion(of: record),
          edits: [.update(try loadRow(id: found.id, in: record))])
      ])
      if let parent = try parentChange(of: record, lent: lent, into: &context) {
        change.lists.append(parent)
      }
      return change
    }
  }
}

/// The writes of one undo or redo, joined into one change: each runs inside the undo's
/// transaction and bumps its list's version as usual; the change they make together takes
/// each list one version up from where it stood, with all their edits in order.
final class UndoComposition {
  private(set) var context = WriteContext(record: nil)
  private var changes: [TableChange] = []

  init() {
    context.keepsDeletedRows = true
  }

  func join<T>(_ body: (inout WriteContext) throws(StoreError) -> T) throws(StoreError) -> T {
    var inner = WriteContext(record: nil)
    inner.keepsDeletedRows = true
    let result = try body(&inner)
    context.absorb(inner)
    if let change = result as? TableChange { changes.append(change) }
    return result
  }

  /// The joined change; sets each changed list's version back to one above where it was.
  func change() -> TableChange {
    var merged = TableChange()
    for change in changes {
      for listChange in change.lists {
        if let index = merged.lists.firstIndex(where: { $0.list == listChange.list }) {
          if let edits = listChange.edits {
            merged.lists[index].edits = (merged.lists[index].edits ?? []) + edits
          }
        } else {
          merged.lists.append(listChange)
        }
      }
      merged.removedLists += change.removedLists
    }
    return merged
  }

  /// The version each changed list went to first: the one the joined change gives it.
  var firstVersions: [String: Int] {
    var first: [String: Int] = [:]
    for change in changes {
      for listChange in change.lists where first[listChange.list] == nil {
        first[listChange.list] = listChange.version
      }
    }
    return first
  }
}

extension RowEdit {
  /// The row the edit names.
  fileprivate var touchedRow: String {
    switch self {
    case .insert(let row, _, _), .update(let row): return row.id
    case .delete(let id), .move(let id, _, _): return id
    }
  }
}
