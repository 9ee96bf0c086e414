import TableModel

/// The change log: every committed change to a list, appended in the change's own
/// transaction, so that any process sharing the file can publish it (changes made by
/// another server) and rebuild older versions of a list (a client resuming with `have`).
///
/// Each entry holds the list, its new version, the ``RowEdit``s (by id, as the store
/// reports them) and the ``PriorRow``s: the content and place before the change of every
/// row it deleted, moved or updated. That is enough to undo an entry on the current
/// snapshot (``TableSnapshot/undoing(_:prior:)``): any server rebuilds the snapshot at
/// version N from the current one and the log, then replays forward and diffs, without
/// keeping snapshots of old versions. (Storing index-based diffs instead would need the
/// list read before every change, which a 1,000,000-row list cannot afford.)
///
/// An import writes one `replaced` entry: readers resend whole screens. Deleted child
/// lists get `removed` entries. Retention is bounded by ``LogRetention``.
extension Store {
  /// One entry of the change log.
  public struct LogEntry: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
      /// The list went to `version` by `edits` (nil when the writer could not say).
      case edits
      /// The list no longer exists.
      case removed
      /// Everything was replaced (an import): every list is to be read again.
      case replaced
    }

    public var id: Int
    public var list: String
    public var version: Int?
    public var kind: Kind
    public var edits: [RowEdit]?
    public var prior: [PriorRow]?
  }

  /// How much of the change log is kept: at most `count` entries (up to 63 more between
  /// prunings), none older than `age` seconds. A client further behind gets a screen.
  public struct LogRetention: Sendable, Hashable {
    public var count: Int
    public var age: Int

    public init(count: Int = LogRetention.default.count, age: Int = LogRetention.default.age) {
      self.count = count
      self.age = age
    }

    /// 10,000 entries, one day.
    public static let `default` = LogRetention(count: 10_000, age: 24 * 60 * 60)
  }

  /// Records how `row` was before the write under way changes it: its content, and with
  /// `placed` its section and the visible row before it. The first record of a row wins;
  /// a later one may only add the place.
  func notePrior(_ row: RowRecord, in list: ListRecord, placed: Bool) throws(StoreError) {
    try notePrior(row.row(in: list), list: list.key, placed: placed ? row : nil)
  }

  func notePrior(_ content: Row, list: String, placed record: RowRecord? = nil) throws(StoreError) {
    var place: PriorRow.Place?
    if let record {
      place = PriorRow.Place(
        section: try sectionKey(id: record.sectionID), after: try previousVisibleRow(record))
    }
    var rows = pendingPrior[list, default: []]
    if let index = rows.firstIndex(where: { $0.row.id == content.id }) {
      if rows[index].place == nil, let place { rows[index].place = place }
    } else {
      rows.append(PriorRow(row: content, place: place))
    }
    pendingPrior[list] = rows
  }

  /// Appends the entries of a committed `change` (inside its write transaction).
  func appendToLog(_ change: TableChange) throws(StoreError) {
    var ahead = false
    for listChange in change.lists {
      ahead = try executeLater(
        """
        INSERT INTO list_log (at, list, version, kind, edits, prior)
        VALUES (unixepoch(), ?, ?, 'edits', ?, ?)
        """, listChange.list, listChange.version,
        listChange.edits.map(RowEdit.serialized),
        listChange.edits == nil ? nil : PriorRow.serialized(pendingPrior[listChange.list] ?? []))
    }
    for list in change.removedLists {
      try execute(
        "INSERT INTO list_log (at, list, version, kind) VALUES (unixepoch(), ?, NULL, 'removed')",
        list)
      ahead = false
    }
    guard !change.isEmpty else { return }
    guard ahead else { return try pruneLog() }
    // The new entry's id is not known yet: every 64th entry sent ahead, the log's newest.
    appendedAhead += 1
    guard appendedAhead % 64 == 0,
      let newest = try fetchInt("SELECT max(id) FROM list_log")
    else { return }
    try pruneLog(newest: newest, sweep: appendedAhead % 4096 == 0)
  }

  /// Appends a `replaced` entry: every list was rewritten (an import).
  func appendReplacedToLog() throws(StoreError) {
    try execute(
      "INSERT INTO list_log (at, list, version, kind) VALUES (unixepoch(), '', NULL, 'replaced')")
    try pruneLog()
  }

  /// Drops entries beyond the retention, every 64th entry (so most commits write no page
  /// for it; every one when fewer than 64 are kept): by count (a range of ids), and by age
  /// from the oldest end, up to 256 at a time (more than were added since). The newest
  /// entry always stays, so that ids keep growing.
  ///
  /// Neither scans the log; both start just above what the last prune left. PostgreSQL
  /// keeps deleted rows (and their index entries) until VACUUM, and the count delete
  /// walked all of them from the log's start: 570 µs a prune under the write lock, 58 µs
  /// now (pg_stat_statements during `tablebench cluster`). Entries a skipped prune left
  /// more than 1,024 ids below (its id went to a transaction that rolled back) go every
  /// 4,096th id.
  private func pruneLog() throws(StoreError) {
    let newest = try database.lastInsertID()
    guard newest % 64 == 0 || logRetention.count < 64 else { return }
    try pruneLog(newest: newest, sweep: newest % 4096 == 0)
  }

  private func pruneLog(newest: Int, sweep: Bool) throws(StoreError) {
    let kept = newest - max(1, logRetention.count)
    let floor = sweep ? 0 : kept - 1_024
    try execute("DELETE FROM list_log WHERE id <= ? AND id > ?", kept, floor)
    // A range of ids from the oldest, not `id IN (SELECT … LIMIT 256)`, which PostgreSQL
    // planned as a scan of the whole log (1.3 ms).
    try execute(
      """
      DELETE FROM list_log WHERE id >= (SELECT min(id) FROM list_log WHERE id > ?1)
        AND id < (SELECT min(id) FROM list_log WHERE id > ?1) + 256
        AND at < unixepoch() - ?2 AND id < ?3
      """, kept, logRetention.age, newest)
  }

  /// The id of the newest entry (0 when the log is empty): where a reader starts.
  public func logHighWater() throws(StoreError) -> Int {
    try read { () throws(StoreError) in try fetchInt("SELECT max(id) FROM list_log") ?? 0 }
  }

  /// The most entries ``logEntries(after:limit:skipping:)`` returns by default: fewer means the
  /// log held no more when it was read.
  public static let logBatch = 1_000

  /// Up to `limit` entries after `id`, oldest first. An entry for which `skipping` (given
  /// its list and version) says true comes without its edits and prior rows, which are
  /// then not decoded: a server skips what it has published already (its own commits).
  /// Inside a group (``committingTogether(_:)``), after the first read there: none, since
  /// only the group's own entries can have come (see `logReadIsNeeded()`).
  public func logEntries(
    after id: Int, limit: Int = logBatch, skipping: (String, Int?) -> Bool = { _, _ in false }
  ) throws(StoreError) -> [LogEntry] {
    guard logReadIsNeeded() else { return [] }
    return try read { () throws(StoreError) in
      try decodeEntries(
        "SELECT id, list, version, kind, edits, prior FROM list_log WHERE id > ? ORDER BY id LIMIT ?",
        [id, limit], skipping: skipping)
    }
  }

  /// The entries that take `list` past `version`, in order, when the log still holds every
  /// one of them up to `current`; nil when it does not (pruned, or an import since).
  public func logEntries(of list: String, after version: Int, upTo current: Int)
    throws(StoreError) -> [LogEntry]?
  {
    guard current > version else { return current == version ? [] : nil }
    return try read { () throws(StoreError) -> [LogEntry]? in
      let entries = try decodeEntries(
        """
        SELECT id, list, version, kind, edits, prior FROM list_log
        WHERE list = ? AND version > ? AND version <= ? ORDER BY version
        """, [list, version, current])
      guard entries.count == current - version,
        zip(entries, (version + 1)...current).allSatisfy({ $0.version == $1 })
      else { return nil }
      let replaced =
        try fetchInt(
          "SELECT max(id) FROM list_log WHERE kind = 'replaced'") ?? 0
      guard entries.first.map({ $0.id > replaced }) ?? true else { return nil }
      return entries
    }
  }

  private func decodeEntries(
    _ sql: String, _ arguments: [any DatabaseValueConvertible],
    skipping: (String, Int?) -> Bool = { _, _ in false }
  ) throws(StoreError) -> [LogEntry] {
    let raw = try fetchAll(sql, arguments) { row in
      let (list, version) = (row.string(1), row.optionalInt(2))
      let skipped = skipping(list, version)
      return (
        row.int(0), list, version, row.string(3),
        skipped || row.isNull(4) ? nil : row.string(4),
        skipped || row.isNull(5) ? nil : row.string(5)
      )
    }
    var entries: [LogEntry] = []
    for (id, list, version, kind, edits, prior) in raw {
      guard let kind = LogEntry.Kind(rawValue: kind) else {
        throw .invalidData(path: "list_log[\(id)].kind", message: "unknown kind \(kind)")
      }
      do {
        entries.append(
          LogEntry(
            id: id, list: list, version: version, kind: kind,
            edits: try edits.map(RowEdit.decode), prior: try prior.map(PriorRow.decode)))
      } catch {
        throw .invalidData(path: "list_log[\(id)]", message: "\(error)")
      }
    }
    return entries
  }
}

extension Store {
  /// SQLite's `PRAGMA data_version` (changes whenever another connection, in this process
  /// or another, commits to the file; no page is read), PostgreSQL's newest change-log id.
  /// A watcher polls it on a connection of its own to learn that the change log has grown.
  public func dataVersion() throws(StoreError) -> Int {
    try database.dataVersion()
  }
}
