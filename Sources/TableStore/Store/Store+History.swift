import TableModel

/// A list's history: its change-log entries (`list_log`), newest first, each with the
/// command that made it, its author and a sentence saying what it did, worked out from the
/// entry's edits and the rows as they were before it (`Ann deleted "Milk"`). It is as long
/// as the change log (``LogRetention``); the audit record (`change_log`) keeps its own,
/// longer retention (``auditRetention``).
///
/// An import appears in every list's history. Reading scans the log backwards from
/// `before` by id (no index but the rowid, so that writes stay one page): a page of a list
/// that changes rarely among busy ones reads more of the bounded log.
extension Store {
  /// 90 days: how long the audit record is kept by default.
  public static let defaultAuditRetention = 90 * 24 * 60 * 60

  /// Up to `count` (at most `HistoryMessage.maximumCount`) entries of `list`'s history
  /// older than the entry `before` (nil: the newest), newest first, and whether older ones
  /// are kept. An unknown list is ``StoreError/notFound(_:)``.
  public func history(of list: String, before: Int? = nil, count: Int = HistoryMessage.defaultCount)
    throws(StoreError) -> HistoryMessage
  {
    let count = min(max(count, 1), HistoryMessage.maximumCount)
    return try read { () throws(StoreError) -> HistoryMessage in
      guard try listExists(list) else { throw .notFound("no list \(list)") }
      var entries = try historyEntries(
        "id < ?", before ?? Int(Int64.max), list: list, limit: count + 1)
      let more = entries.count > count
      if more { entries.removeLast() }
      return HistoryMessage(list: list, entries: entries, more: more)
    }
  }

  /// The entries of `list`'s history newer than the entry `after`, newest first (at most
  /// `HistoryMessage.maximumCount`): what a History screen that has seen up to `after`
  /// is sent next.
  public func history(of list: String, after: Int) throws(StoreError) -> [HistoryEntry] {
    try read { () throws(StoreError) -> [HistoryEntry] in
      try historyEntries("id > ?", after, list: list, limit: HistoryMessage.maximumCount)
    }
  }

  private func historyEntries(_ bound: String, _ id: Int, list: String, limit: Int)
    throws(StoreError) -> [HistoryEntry]
  {
    let raw = try fetchAll(
      """
      SELECT id, at, version, kind, edits, prior, command, author FROM list_log
      WHERE ((list = ? AND kind = 'edits') OR kind = 'replaced') AND \(bound)
      ORDER BY id DESC LIMIT ?
      """, [list, id, limit]
    ) { row in
      (
        id: row.int(0), at: row.int(1), version: row.optionalInt(2), kind: row.string(3),
        edits: row.optionalString(4), prior: row.optionalString(5),
        command: row.optionalString(6), author: row.optionalString(7)
      )
    }
    var entries: [HistoryEntry] = []
    for entry in raw {
      if entry.kind == "replaced" {
        entries.append(
          HistoryEntry(
            id: entry.id, version: nil, at: entry.at, author: entry.author, kind: .import,
            rows: [], summary: HistorySentence.imported(by: entry.author)))
        continue
      }
      let edits: [RowEdit]?
      let prior: [PriorRow]
      do {
        edits = try entry.edits.map(RowEdit.decode)
        prior = try entry.prior.map(PriorRow.decode) ?? []
      } catch {
        throw .invalidData(path: "list_log[\(entry.id)]", message: "\(error)")
      }
      let sentence = HistorySentence(command: entry.command, edits: edits ?? [], prior: prior)
      entries.append(
        HistoryEntry(
          id: entry.id, version: entry.version, at: entry.at, author: entry.author,
          kind: sentence.kind, rows: sentence.rows, summary: sentence.summary(by: entry.author)))
    }
    return entries
  }
}

/// What one change-log entry did, in English: its kind, the rows it touched and a
/// sentence naming them by their text at the time.
struct HistorySentence {
  let kind: HistoryEntry.Kind
  let rows: [String]
  private let edits: [RowEdit]
  private let before: [String: Row]

  init(command: String?, edits: [RowEdit], prior: [PriorRow]) {
    self.edits = edits
    before = Dictionary(prior.map { ($0.row.id, $0.row) }, uniquingKeysWith: { first, _ in first })
    var rows: [String] = []
    for edit in edits where !rows.contains(edit.rowID) { rows.append(edit.rowID) }
    self.rows = rows
    kind = Self.kind(command: command, edits: edits)
  }

  /// The command's kind (`tap` is `select`); for an entry written without one (an app's
  /// own write, or one older than the history), what its edits did.
  private static func kind(command: String?, edits: [RowEdit]) -> HistoryEntry.Kind {
    if command == "tap" { return .select }
    if let command, let kind = HistoryEntry.Kind(rawValue: command) { return kind }
    if !edits.isEmpty, edits.allSatisfy({ if case .insert = $0 { true } else { false } }) {
      return .insert
    }
    if !edits.isEmpty, edits.allSatisfy({ if case .delete = $0 { true } else { false } }) {
      return .delete
    }
    if !edits.isEmpty, edits.allSatisfy({ if case .move = $0 { true } else { false } }) {
      return .move
    }
    return .update
  }

  static func imported(by author: String?) -> String {
    author.map { "\($0) imported the list" } ?? "The list was imported"
  }

  /// The sentence, with `author` (nil: "Someone") as its subject.
  func summary(by author: String?) -> String {
    "\(author ?? "Someone") \(predicate)"
  }

  /// The row's text before the change, else after it.
  private func title(_ id: String) -> String {
    if let row = before[id] { return "\"\(row.text)\"" }
    for case .insert(let row, _, _) in edits where row.id == id { return "\"\(row.text)\"" }
    for case .update(let row) in edits where row.id == id { return "\"\(row.text)\"" }
    return "a row"
  }

  /// `"Milk"`, or `3 rows`.
  private func named(_ ids: [String]) -> String {
    ids.count == 1 ? title(ids[0]) : "\(ids.count) rows"
  }

  private var updated: [Row] {
    edits.compactMap { if case .update(let row) = $0 { row } else { nil } }
  }

  private var predicate: String {
    let deleted = edits.compactMap { if case .delete(let id) = $0 { id } else { nil } }
    let inserted = edits.compactMap { if case .insert(let row, _, _) = $0 { row.id } else { nil } }
    let moved = edits.compactMap { if case .move(let id, _, _) = $0 { id } else { nil } }
    switch kind {
    case .import:
      return "imported the list"
    case .undo, .redo:
      let verb = kind == .undo ? "undid" : "redid"
      return rows.isEmpty ? "\(verb) a change" : "\(verb) a change to \(named(rows))"
    default:
      break
    }
    if rows.isEmpty { return "changed the list" }
    if !deleted.isEmpty, inserted.isEmpty { return "deleted \(named(deleted))" }
    if !inserted.isEmpty, deleted.isEmpty { return "added \(named(inserted))" }
    if !moved.isEmpty, updated.isEmpty { return "moved \(named(moved))" }
    if let row = updated.first, updated.count == 1 || kind == .toggle {
      let old = before[row.id]
      if kind == .toggle || old?.control != row.control, let isOn = row.control?.isOn {
        return "turned \(isOn ? "on" : "off") \(title(row.id))"
      }
      if let old, old.text != row.text {
        return "renamed \"\(old.text)\" to \"\(row.text)\""
      }
      if let old, old.isFlagged != row.isFlagged {
        return "\(row.isFlagged ? "flagged" : "unflagged") \(title(row.id))"
      }
      if let old, old.accessory != row.accessory {
        return "\(row.accessory == .checkmark ? "checked" : "unchecked") \(title(row.id))"
      }
    }
    if kind == .select, let picked = updated.first(where: { $0.accessory == .checkmark }) {
      return "checked \(title(picked.id))"
    }
    return "changed \(named(rows))"
  }
}

extension RowEdit {
  /// The row the edit is about.
  var rowID: String {
    switch self {
    case .delete(let row), .move(let row, _, _): return row
    case .insert(let row, _, _), .update(let row): return row.id
    }
  }
}
