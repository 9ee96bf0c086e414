import TableModel

/// The change log (`list_log`): every committed change to a list, appended in the change's
/// own transaction (see ``Store/LogEntry``), and the record of who changed what
/// (`change_log`, see ``Store/ChangeRecord``). Retention is bounded by
/// ``Store/LogRetention``.
struct ChangeLogStore: StorePart {
  unowned let store: Store
}

extension ChangeLogStore {
  /// Adds the write's record, if it has one, to `change_log`: on PostgreSQL with the
  /// transaction's other records just before it commits (``flushPending()``).
  func record(_ context: WriteContext) throws(StoreError) {
    guard let record = context.record else { return }
    guard store.database.dialect == .sqlite else { return store.pendingRecords.append(record) }
    try executeLater(
      "INSERT INTO change_log (at, list, command, \"user\", role) VALUES (unixepoch(), ?, ?, ?, ?)",
      record.list, record.command, record.author.name, record.author.role.rawValue)
  }

  /// The newest `limit` records, newest first.
  func records(limit: Int) throws(StoreError) -> [Store.ChangeRecord] {
    try read { () throws(StoreError) in
      try fetchAll(
        "SELECT list, command, \"user\", role FROM change_log ORDER BY id DESC LIMIT ?", [limit]
      ) { row in
        Store.ChangeRecord(
          list: row.string(0), command: row.string(1),
          author: ChangeAuthor(
            name: row.isNull(2) ? nil : row.string(2),
            role: AccessRole(rawValue: row.string(3)) ?? .viewer))
      }
    }
  }

  /// Appends the entries of a committed `change` (inside its write transaction), with the
  /// prior rows its write noted in `context`.
  ///
  /// On PostgreSQL the entries wait in ``Store/pendingLog`` for ``flushPending()``, just
  /// before COMMIT.
  func append(_ change: TableChange, _ context: WriteContext) throws(StoreError) {
    guard store.database.dialect == .sqlite else {
      if !change.isEmpty { store.pendingLog.append((change, context)) }
      return
    }
    try insert(change, context)
  }

  /// Appends the pending records and entries of the open write transaction (PostgreSQL):
  /// the entries under the commit lock, which it then holds until the transaction ends, so
  /// that ids are taken in commit order (see `PostgresStoreConnection`). Each table gets
  /// one INSERT of many rows (up to ``rowsPerInsert``) rather than one per write: a
  /// group's 50 writes sent 100 statements for them, now 2 (`tablebench cluster`).
  func flushPending() throws(StoreError) {
    try store.flushUndoSteps()
    let records = store.pendingRecords
    store.pendingRecords = []
    try insertTogether(
      "INSERT INTO change_log (at, list, command, \"user\", role) VALUES",
      row: "(unixepoch(), ?, ?, ?, ?)",
      records.map { [$0.list, $0.command, $0.author.name, $0.author.role.rawValue] })
    guard !store.pendingLog.isEmpty else { return }
    let pending = store.pendingLog
    store.pendingLog = []
    try store.database.lockLogForCommit()
    var entries: [[any DatabaseValueConvertible]] = []
    var changes = 0
    for (change, context) in pending {
      for listChange in change.lists {
        entries.append([
          listChange.list, listChange.version, listChange.edits.map(RowEdit.serialized),
          listChange.edits == nil
            ? nil : PriorRow.serialized(context.prior[listChange.list] ?? []),
          context.record?.command, context.record?.author.name,
        ])
      }
      changes += 1
      // A removed list's entry goes after the ones before it, alone.
      guard !change.removedLists.isEmpty else { continue }
      try appendEntries(entries, changes: changes)
      (entries, changes) = ([], 0)
      try insert(TableChange(removedLists: change.removedLists), context)
    }
    try appendEntries(entries, changes: changes)
  }

  /// The most rows one INSERT of ``flushPending()`` adds.
  static let rowsPerInsert = 64

  /// Inserts `rows` with `insert` followed by `row` once per row, up to ``rowsPerInsert``
  /// a statement, sent ahead where the connection can; returns whether they were.
  @discardableResult
  private func insertTogether(
    _ insert: String, row: String, _ rows: [[any DatabaseValueConvertible]]
  ) throws(StoreError) -> Bool {
    var ahead = false
    var start = 0
    while start < rows.count {
      let part = rows[start..<min(rows.count, start + Self.rowsPerInsert)]
      ahead = try store.executeLater(
        insert + " " + Array(repeating: row, count: part.count).joined(separator: ", "),
        arguments: part.flatMap { $0 })
      start += part.count
    }
    return ahead
  }

  /// Appends the change-log entries of `changes` changes (``flushPending()``), then prunes
  /// as ``insert(_:_:)`` does.
  private func appendEntries(_ entries: [[any DatabaseValueConvertible]], changes: Int)
    throws(StoreError)
  {
    guard !entries.isEmpty else { return }
    let ahead = try insertTogether(
      "INSERT INTO list_log (at, list, version, kind, edits, prior, command, author) VALUES",
      row: "(unixepoch(), ?, ?, 'edits', ?, ?, ?, ?)", entries)
    guard ahead else { return try prune() }
    for _ in 0..<changes {
      store.appendedAhead += 1
      guard store.appendedAhead % 64 == 0,
        let newest = try fetchInt("SELECT max(id) FROM list_log")
      else { continue }
      try prune(newest: newest, sweep: store.appendedAhead % 4096 == 0)
    }
  }

  private func insert(_ change: TableChange, _ context: WriteContext) throws(StoreError) {
    var ahead = false
    for listChange in change.lists {
      ahead = try executeLater(
        """
        INSERT INTO list_log (at, list, version, kind, edits, prior, command, author)
        VALUES (unixepoch(), ?, ?, 'edits', ?, ?, ?, ?)
        """, listChange.list, listChange.version,
        listChange.edits.map(RowEdit.serialized),
        listChange.edits == nil ? nil : PriorRow.serialized(context.prior[listChange.list] ?? []),
        context.record?.command, context.record?.author.name)
    }
    for list in change.removedLists {
      try execute(
        "INSERT INTO list_log (at, list, version, kind) VALUES (unixepoch(), ?, NULL, 'removed')",
        list)
      ahead = false
    }
    guard !change.isEmpty else { return }
    guard ahead else { return try prune() }
    // The new entry's id is not known yet: every 64th entry sent ahead, the log's newest.
    store.appendedAhead += 1
    guard store.appendedAhead % 64 == 0,
      let newest = try fetchInt("SELECT max(id) FROM list_log")
    else { return }
    try prune(newest: newest, sweep: store.appendedAhead % 4096 == 0)
  }

  /// Appends a `replaced` entry: every list was rewritten (an import), by `author` (nil:
  /// unknown, as for `tableweb import`). Its record in `change_log` (list `""`) is the
  /// import's write's own (`Store.replaceContents(with:by:)`).
  func appendReplaced(by author: ChangeAuthor?) throws(StoreError) {
    try execute(
      """
      INSERT INTO list_log (at, list, version, kind, command, author)
      VALUES (unixepoch(), '', NULL, 'replaced', 'import', ?)
      """, author?.name)
    try prune()
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
  private func prune() throws(StoreError) {
    let newest = try store.database.lastInsertID()
    guard newest % 64 == 0 || store.logRetention.count < 64 else { return }
    try prune(newest: newest, sweep: newest % 4096 == 0)
  }

  private func prune(newest: Int, sweep: Bool) throws(StoreError) {
    let kept = newest - max(1, store.logRetention.count)
    let floor = sweep ? 0 : kept - 1_024
    try execute("DELETE FROM list_log WHERE id <= ? AND id > ?", kept, floor)
    // A range of ids from the oldest, not `id IN (SELECT … LIMIT 256)`, which PostgreSQL
    // planned as a scan of the whole log (1.3 ms).
    try execute(
      """
      DELETE FROM list_log WHERE id >= (SELECT min(id) FROM list_log WHERE id > ?1)
        AND id < (SELECT min(id) FROM list_log WHERE id > ?1) + 256
        AND at < unixepoch() - ?2 AND id < ?3
      """, kept, store.logRetention.age, newest)
    // The audit record keeps its own, longer retention: from its oldest end, as above.
    // Only when the oldest record is due: the range walked its 256 records (190 µs on
    // PostgreSQL) to find none, as it does for the first 90 days.
    try execute(
      """
      DELETE FROM change_log WHERE id < (SELECT min(id) FROM change_log) + 256
        AND at < unixepoch() - ?1
        AND (SELECT at FROM change_log ORDER BY id LIMIT 1) < unixepoch() - ?1
      """, store.auditRetention)
  }

  /// The id of the newest entry (0 when the log is empty): where a reader starts.
  func highWater() throws(StoreError) -> Int {
    try read { () throws(StoreError) in try fetchInt("SELECT max(id) FROM list_log") ?? 0 }
  }

  /// Up to `limit` entries after `id`, oldest first. An entry for which `skipping` (given
  /// its list and version) says true comes without its edits and prior rows, which are
  /// then not decoded: a server skips what it has published already (its own commits).
  /// Inside a group (`committingTogether(_:)`), after the first read there: none, since
  /// only the group's own entries can have come, unless a list locked since changed
  /// meanwhile (see `logReadIsNeeded(skipping:)`).
  func entries(
    after id: Int, limit: Int, skipping: (String, Int?) -> Bool = { _, _ in false }
  ) throws(StoreError) -> [Store.LogEntry] {
    guard store.logReadIsNeeded(skipping: skipping) else { return [] }
    return try read { () throws(StoreError) in
      try decodeEntries(
        "SELECT id, list, version, kind, edits, prior FROM list_log WHERE id > ? ORDER BY id LIMIT ?",
        [id, limit], skipping: skipping)
    }
  }

  /// The entries that take `list` past `version`, in order, when the log still holds every
  /// one of them up to `current`; nil when it does not (pruned, or an import since).
  func entries(of list: String, after version: Int, upTo current: Int)
    throws(StoreError) -> [Store.LogEntry]?
  {
    guard current > version else { return current == version ? [] : nil }
    return try read { () throws(StoreError) -> [Store.LogEntry]? in
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
  ) throws(StoreError) -> [Store.LogEntry] {
    let raw = try fetchAll(sql, arguments) { row in
      let (list, version) = (row.string(1), row.optionalInt(2))
      let skipped = skipping(list, version)
      return (
        row.int(0), list, version, row.string(3),
        skipped || row.isNull(4) ? nil : row.string(4),
        skipped || row.isNull(5) ? nil : row.string(5)
      )
    }
    var entries: [Store.LogEntry] = []
    for (id, list, version, kind, edits, prior) in raw {
      guard let kind = Store.LogEntry.Kind(rawValue: kind) else {
        throw .invalidData(path: "list_log[\(id)].kind", message: "unknown kind \(kind)")
      }
      do {
        entries.append(
          Store.LogEntry(
            id: id, list: list, version: version, kind: kind,
            edits: try edits.map(RowEdit.decode), prior: try prior.map(PriorRow.decode)))
      } catch {
        throw .invalidData(path: "list_log[\(id)]", message: "\(error)")
      }
    }
    return entries
  }
}
