import TableModel

/// The app's data in one SQLite file or one PostgreSQL database: the hierarchy of lists,
/// their ordered rows, switch and checkmark state, list versions, and sessions.
///
/// Every command is one transaction that bumps each list it changes by exactly one
/// version and returns what changed (`TableChange`), so the server can make the diff
/// without reading the list again.
///
/// - Important: A `Store` is one SQLite connection and is not `Sendable`: use it from one
///   thread at a time (the server's core thread, once serving: docs/threading.md); every call runs in a
///   transaction, and one entered while another thread is inside stops the program. Other
///   processes may use the same file; SQLite's locks (and the busy timeout) keep them
///   apart, and every read runs in one transaction so it sees one consistent state. On
///   PostgreSQL, several servers share the database the same way: writers commit one at a
///   time (see `PostgresStoreConnection`).
public final class Store {
  let database: any StoreConnection
  /// The file's path or the PostgreSQL URL, as given (a URL may hold a password: show
  /// ``redactedPath`` instead).
  public let path: String
  public let isReadOnly: Bool
  /// The most rows a block holds before it splits (see Store+Ordering.swift); tests make
  /// it small to exercise splits.
  var blockCapacity = Store.defaultBlockCapacity
  /// Ids reserved from the file's counter and not handed out yet (see `makeKey`).
  var reservedIDs = 0..<0
  /// How much of the change log is kept.
  public var logRetention = LogRetention.default
  /// How long the audit record (`change_log`: who changed what) is kept, in seconds: its
  /// own retention, longer than the change log's (``defaultAuditRetention``, 90 days).
  public var auditRetention = Store.defaultAuditRetention
  /// What the calls the caller is inside ask of every write: its own transaction, joining
  /// a group's (`committingTogether(_:)`) or refused (`refusingWrites(with:_:)`). Set
  /// only by those two, for the length of their body; a write's own context
  /// (`WriteContext`) is a parameter of the write, never kept here.
  var scope = WriteScope.alone
  /// Whether an import bulk-loads its rows (`bulkLoad(_:whenKeyed:)`); tests turn it off to compare
  /// with the row-by-row import, which has every index and trigger in place.
  package var importsInBulk = true
  /// Where the last bulk import's time went, step by step, in order (`tablebench import`
  /// prints it).
  package var importPhases: [ImportPhase] = []
  /// The search index a bulk load builds beside its rows (SQLite, an import that is a
  /// transaction of its own): the importer hands it each row it inserts.
  var searchIndexBuilder: SearchIndexBuilder?
  /// The prepared statement a bulk load inserts `Store.loadRowsAtOnce` rows with
  /// (SQLite), kept by the store.
  var loadRowsStatement: Statement?
  /// The values of the bulk load's rows waiting for `loadRowsStatement` (SQLite), fewer
  /// than `Store.loadRowsAtOnce` rows' worth.
  var loadRowBatch: [any DatabaseValueConvertible] = []
  /// Rows of a bulk load waiting for PostgreSQL's COPY, in its text format.
  var copyBuffer: [UInt8] = []
  /// Whether a PostgreSQL bulk load folds the search text of rows that are all ASCII in
  /// Swift (`bulkLoad(_:whenKeyed:)` checks the database folds ASCII the same way).
  var loadFoldsASCII = false
  /// Whether a bulk load's COPY is open (PostgreSQL, `beginLoadedRows(needingFold:)`).
  var isCopying = false
  /// Whether the bulk load under way made its `row_search_load` trigger (PostgreSQL).
  var hasLoadTrigger = false
  /// Called after a group's COMMIT succeeded, before `committingTogether(_:)` returns:
  /// tests make it throw to stand for a COMMIT whose answer was lost.
  var afterGroupCommit: (() throws(StoreError) -> Void)?
  /// Log entries appended by this connection whose statements were sent ahead, so that
  /// their ids are not known: the log is pruned every 64th of them (Store+ListLog.swift).
  var appendedAhead = 0
  /// The session whose undoable writes are recorded on its undo stack
  /// (`recordingUndo(for:_:)`); nil records none. Set only for the length of that call.
  var undoSession: String?
  /// Per session, the undo steps this connection recorded since it last deleted the
  /// session's steps past the newest ``undoDepth`` (`recordUndoStep`).
  var undoStepsUntrimmed: [String: Int] = [:]
  /// On PostgreSQL, the undo steps the open write transaction recorded, added together
  /// before it reads the stacks or commits (`flushUndoSteps()`).
  var pendingUndoSteps: [[any DatabaseValueConvertible]] = []
  /// Inside an undo or redo: the writes it makes join its own (`UndoComposition`).
  var composing: UndoComposition?
  /// On PostgreSQL, the changes (and their writes' prior rows) the open write transaction
  /// appends to the change log just before it commits, under the commit lock
  /// (``flushLog()``), so that the log's ids grow in commit order; each with its write's
  /// context (prior rows, command and author).
  var pendingLog: [(change: TableChange, context: WriteContext)] = []
  /// On PostgreSQL, the `change_log` records of the open write transaction, added together
  /// just before it commits (``flushLog()``).
  var pendingRecords: [ChangeRecord] = []
  /// A write changed a list it had not locked: its next attempt locks every list.
  var lockEverythingNext = false

  /// Opens the database at `path`, creating and migrating it as needed: WAL journal,
  /// `synchronous = NORMAL`, a 5 s busy timeout, foreign keys on.
  ///
  /// With `synchronous = NORMAL` in WAL mode a committed change is in the WAL file when
  /// the call returns: it survives the process being killed, but the last few commits may
  /// be lost (never half applied) if the machine loses power.
  ///
  /// A read-only store refuses every change with ``StoreError/readOnly(_:)``; opening a file
  /// that cannot be written without `readOnly` fails the same way. `busyTimeout` is how long
  /// a change waits for another process's lock before failing with `SQLITE_BUSY`.
  ///
  /// A `postgres://` or `postgresql://` URL (``isPostgresURL(_:)``) opens that PostgreSQL
  /// database instead, with the same schema and semantics.
  public init(path: String, readOnly: Bool = false, busyTimeout milliseconds: Int = 5_000)
    throws(StoreError)
  {
    self.isReadOnly = readOnly
    if Store.isPostgresURL(path) {
      self.path = path
      database = try PostgresStoreConnection(url: path, readOnly: readOnly)
      try migrate()
      return
    }
    self.path = path
    let sqlite: Database
    do {
      sqlite = try Database(
        path: path, readOnly: readOnly, busyTimeout: Int32(clamping: milliseconds))
    } catch {
      throw StoreError(error)
    }
    database = sqlite
    if !readOnly && sqlite.isFileReadOnly {
      throw .readOnly("\(path) cannot be written (open it read-only to serve it)")
    }
    do {
      try sqlite.defineSearchKeyFunction()
    } catch {
      throw StoreError(error)
    }
    try execute("PRAGMA foreign_keys = ON")
    if !readOnly {
      // New files get 1 KiB pages rather than 4 KiB: every commit writes each page it
      // changed to the WAL, and a one-row change touches about six (the row, its indexes,
      // its block, section and list). Only an empty file takes the setting.
      try execute("PRAGMA page_size = 1024")
      let mode = try fetchOne("PRAGMA journal_mode = WAL", []) { $0.string(0) }
      guard mode == "wal" else {
        throw .sqlite(
          code: 0, message: "could not switch to WAL (journal mode \(mode ?? "?"))", sql: nil)
      }
      try execute("PRAGMA synchronous = NORMAL")
      // Checkpoints are where NORMAL syncs to disk: let the WAL reach ~40 MB between them
      // rather than 4 MB, so a stream of small commits pays for far fewer fsyncs.
      try execute("PRAGMA wal_autocheckpoint = 10000")
      try execute("PRAGMA journal_size_limit = 67108864")
    }
    // 32 MiB of pages, so that a long list's indexes stay in memory.
    try execute("PRAGMA cache_size = -32768")
    try migrate()
  }

  // MARK: SQL with store errors

  /// Whether `path` names a PostgreSQL database (`postgres://…`, `postgresql://…`)
  /// rather than a SQLite file.
  public static func isPostgresURL(_ path: String) -> Bool {
    path.hasPrefix("postgres://") || path.hasPrefix("postgresql://")
  }

  /// `path` with any password replaced by `***`: for logs and messages.
  public static func redacted(_ path: String) -> String {
    isPostgresURL(path) ? PostgresConnection.redacted(path) : path
  }

  /// ``path`` with any password replaced by `***`.
  public var redactedPath: String { Store.redacted(path) }

  /// Which backend the store is on.
  package var dialect: SQLDialect { database.dialect }

  func execute(_ text: String, _ arguments: any DatabaseValueConvertible...) throws(StoreError) {
    try database.run(text, arguments)
  }

  func execute(_ text: String, arguments: [any DatabaseValueConvertible]) throws(StoreError) {
    try database.run(text, arguments)
  }

  /// Runs a statement whose result is not needed, sent ahead without waiting where the
  /// connection can (a group's pipeline on PostgreSQL); returns whether it was. Its
  /// `changes` and id are then unknown.
  @discardableResult
  func executeLater(_ text: String, _ arguments: any DatabaseValueConvertible...) throws(StoreError)
    -> Bool
  {
    try database.runLater(text, arguments)
  }

  @discardableResult
  func executeLater(_ text: String, arguments: [any DatabaseValueConvertible]) throws(StoreError)
    -> Bool
  {
    try database.runLater(text, arguments)
  }

  func fetchAll<T>(
    _ text: String, _ arguments: [any DatabaseValueConvertible], _ decode: (Columns) -> T
  ) throws(StoreError) -> [T] {
    var values: [T] = []
    try database.each(text, arguments) { row in
      values.append(decode(row))
      return true
    }
    return values
  }

  func fetchOne<T>(
    _ text: String, _ arguments: [any DatabaseValueConvertible], _ decode: (Columns) -> T
  ) throws(StoreError) -> T? {
    var value: T?
    try database.each(text, arguments) { row in
      value = decode(row)
      return false
    }
    return value
  }

  func fetchInt(_ text: String, _ arguments: any DatabaseValueConvertible...) throws(StoreError)
    -> Int?
  {
    try fetchOne(text, arguments) { $0.optionalInt(0) } ?? nil
  }

  /// Steps through the rows of `text` while `body` returns true.
  func forEach(
    _ text: String, _ arguments: [any DatabaseValueConvertible], _ body: (Columns) -> Bool
  ) throws(StoreError) {
    try database.each(text, arguments, body)
  }

  // MARK: Transactions

  /// Runs `body` in one read transaction, so that it sees one state of the file.
  ///
  /// Inside a transaction already open it joins it; only the thread that opened it may:
  /// another thread (a misuse: a store is used from one thread at a time) stops the
  /// program here, instead of running its statements inside that transaction on the same
  /// connection (which on PostgreSQL interleaves the two threads' libpq calls).
  func read<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    if database.isInTransaction {
      return try database.access.exclusively { () throws(StoreError) -> T in try body() }
    }
    return try database.inTransaction(writing: false, body)
  }

  /// Runs `body` in one write transaction: all of it is committed, or none of it. A
  /// PostgreSQL transaction that loses to another (serialization failure, deadlock) is
  /// run again from the start, a few times.
  ///
  /// The one path of every write: `body` gets the write's context (`WriteContext`: the
  /// `record` of who makes it, and the prior rows it notes), and the same transaction
  /// adds the record to `change_log` and a returned `TableChange` to the change log.
  /// Inside `committingTogether(_:)` the write joins the group's transaction instead.
  ///
  /// `locking` names what the write may change (PostgreSQL locks only that; see
  /// ``WriteLocks``): by default the list of its `record`, or everything when it has none.
  /// A write whose change turns out to reach a list it did not lock (a selection that
  /// updates the parent list's row, a delete that removes child lists) is rolled back and
  /// run again with every list locked.
  func write<T>(
    recording record: ChangeRecord? = nil, locking: WriteLocks? = nil,
    _ body: (inout WriteContext) throws(StoreError) -> T
  ) throws(StoreError) -> T {
    guard !isReadOnly else { throw .readOnly("the database was opened read-only") }
    if let composing { return try composing.join(body) }
    let locks = locking ?? record.map { .lists([$0.list]) } ?? .all
    switch scope {
    case .refusing(let refusal): throw refusal
    case .group: return try writeInGroup(recording: record, locking: locks, body)
    case .alone: break
    }
    precondition(
      !database.isInTransaction, "a store write inside another transaction on \(redactedPath)")
    var attempt = 1
    lockEverythingNext = false
    while true {
      do {
        discardPending()
        return try database.inTransaction(
          writing: true, locking: lockEverythingNext ? .all : locks
        ) { () throws(StoreError) in
          var context = WriteContext(record: record)
          let result = try run(body, in: &context)
          try flushLog()
          return result
        }
      } catch {
        // A reservation of ids made in the rolled-back transaction is undone with it.
        reservedIDs = 0..<0
        discardPending()
        guard error.isRetryable, attempt < Store.writeAttempts else { throw error }
        attempt += 1
      }
    }
  }

  /// A write whose body needs nothing of its context (sessions, grants, an import).
  func write<T>(locking: WriteLocks = .all, _ body: () throws(StoreError) -> T)
    throws(StoreError) -> T
  {
    try write(locking: locking) { (_: inout WriteContext) throws(StoreError) -> T in try body() }
  }

  /// `body` with `context`, then its record and its change logged: inside the write's
  /// transaction.
  func run<T>(_ body: (inout WriteContext) throws(StoreError) -> T, in context: inout WriteContext)
    throws(StoreError) -> T
  {
    if undoSession != nil { context.keepsDeletedRows = true }
    let result = try body(&context)
    try logAuthor(of: context)
    if let change = result as? TableChange {
      try requireLocks(for: change)
      try appendToLog(change, context)
      try recordUndoStep(change, context)
    }
    return result
  }

  /// Throws a retryable error, and makes the next attempt lock every list, when `change`
  /// reaches a list the transaction has not locked (never on SQLite).
  private func requireLocks(for change: TableChange) throws(StoreError) {
    let lists = change.lists.map(\.list) + change.removedLists
    guard lists.allSatisfy(database.holdsLock(of:)) else {
      lockEverythingNext = true
      throw .postgres(
        sqlState: "40001", message: "the write changed lists it had not locked; it runs again",
        sql: nil)
    }
  }

  /// How many times a write that lost to a concurrent one is tried in all.
  static let writeAttempts = 5

  /// How many ids one update of the counter in the file reserves for this connection.
  static let idReservation = 256

  /// A new id (`R17`) that no row, section or list has. Ids come from a counter in the
  /// file, reserved a few hundred at a time so that most inserts do not write its page;
  /// another process reserves its own range. Ids are never reused.
  func makeKey(_ prefix: String) throws(StoreError) -> String {
    while true {
      if reservedIDs.isEmpty {
        guard
          let first = try fetchInt(
            "UPDATE meta SET value = value + ? WHERE key = 'next_id' RETURNING value - ?",
            Store.idReservation, Store.idReservation)
        else { throw .invalidData(path: "", message: "the id counter is missing") }
        reservedIDs = first..<(first + Store.idReservation)
      }
      let key = "\(prefix)\(reservedIDs.lowerBound)"
      reservedIDs = (reservedIDs.lowerBound + 1)..<reservedIDs.upperBound
      if try fetchInt(
        """
        SELECT EXISTS (SELECT 1 FROM row WHERE key = ?1) OR EXISTS (SELECT 1 FROM section WHERE key = ?1)
          OR EXISTS (SELECT 1 FROM list WHERE key = ?1)
        """, key) == 0
      {
        return key
      }
    }
  }
}
