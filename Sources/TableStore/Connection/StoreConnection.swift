import TableModel

/// What ``Store`` needs of a database connection, so that its SQL and its decoding are
/// shared by both backends: SQLite (`Database`) and PostgreSQL
/// (`PostgresStoreConnection`).
///
/// Statements are written in SQLite's dialect with `?`/`?N` placeholders; the PostgreSQL
/// connection rewrites them once per statement text. The differences the shared SQL
/// cannot paper over are here, one method each: schema versions, new-change detection,
/// the id of the last insert, and how a transaction takes its locks.
///
/// - Important: Not `Sendable`: a connection is used from one thread at a time.
protocol StoreConnection: AnyObject {
  var dialect: SQLDialect { get }
  /// The connection can only read (opened read-only, or a file that cannot be written).
  var isReadOnly: Bool { get }
  /// A transaction is open.
  var isInTransaction: Bool { get }
  /// Checks that one thread at a time uses the connection (``inTransaction(writing:_:)``
  /// enters it; so does a read nested in an open transaction).
  var access: ThreadChecker { get }

  /// Runs one statement, ignoring any rows.
  func run(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws(StoreError)
  /// Runs one statement whose result nobody reads (no rows, no count, no new id): on a
  /// PostgreSQL connection in a group's pipeline it is sent at once and its result read
  /// later (PostgresConnection+Pipeline.swift), and this returns true; otherwise it runs as
  /// ``run(_:_:)`` does and returns false.
  func runLater(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws(StoreError)
    -> Bool
  /// Steps through the rows of `sql` while `body` returns true.
  func each(
    _ sql: String, _ arguments: [any DatabaseValueConvertible], _ body: (Columns) -> Bool
  ) throws(StoreError)
  /// The first row of each of `statements` (which must not depend on one another), handed
  /// to `body` with the statement's index; a statement with no row is skipped. On
  /// PostgreSQL in a group's pipeline they share one round trip.
  func firstRows(
    _ statements: [(sql: String, arguments: [any DatabaseValueConvertible])],
    _ body: (Int, Columns) -> Void
  ) throws(StoreError)
  /// Runs several statements without arguments (a migration).
  func runScript(_ sql: String) throws(StoreError)

  /// The id of the row the last INSERT on this connection made.
  func lastInsertID() throws(StoreError) -> Int
  /// How many rows the last INSERT, UPDATE or DELETE changed.
  var changes: Int { get }
  /// A count that grows with every statement that may have changed data (it may also grow
  /// with some that did not): a write that failed with it unchanged left nothing to undo.
  var modifications: Int { get }

  /// Runs `body` in one transaction: a read sees one state of the database throughout; a
  /// write is exclusive of every other writer of what `locking` names, so that each list's
  /// version, its change-log entries and its block bookkeeping advance one commit at a
  /// time. SQLite has one write lock for the file and ignores `locking`; PostgreSQL takes
  /// transaction-scoped advisory locks (``WriteLocks``).
  func inTransaction<T>(
    writing: Bool, locking: WriteLocks, _ body: () throws(StoreError) -> T
  ) throws(StoreError) -> T

  /// Opens a write transaction that stays open until ``endWrite(committing:)``: for a
  /// group of commands committed together (``Store/committingTogether(_:)``), which runs
  /// inside ``access``. It locks no list yet: each write of the group locks its own
  /// (``lockList(_:)``).
  func beginWrite() throws(StoreError)
  /// Inside a write transaction, makes it exclusive of every other writer of `list`
  /// (nothing on SQLite, whose write lock covers the file). On PostgreSQL it waits only
  /// for a lock that keeps the transaction's locks in their one order; out of order it
  /// tries, and when another transaction holds the lock the transaction fails (then or at
  /// a later statement) instead of risking a deadlock.
  func lockList(_ list: String) throws(StoreError)
  /// Inside a write transaction, makes it exclusive of every other writer (nothing on
  /// SQLite). On PostgreSQL it waits for every other writer to end; two transactions
  /// asking at once make a deadlock that PostgreSQL breaks by failing one (retryable).
  func lockAll() throws(StoreError)
  /// Whether the open write transaction may change `list` (true on SQLite).
  func holdsLock(of list: String) -> Bool
  /// Just before a write transaction appends to the change log: the change log's ids must
  /// grow in commit order (see `PostgresStoreConnection.commitLock`). Nothing on SQLite.
  func lockLogForCommit() throws(StoreError)
  /// Commits (or rolls back) the transaction ``beginWrite()`` opened. A transaction that
  /// a failed statement left aborted is rolled back and reported as an error, never
  /// reported committed.
  func endWrite(committing: Bool) throws(StoreError)

  /// How many migrations have run (0 for a new database).
  func schemaVersion() throws(StoreError) -> Int
  /// Records, inside a migration's transaction, that `version` migrations have run.
  func setSchemaVersion(_ version: Int) throws(StoreError)
  /// A number that changes whenever another connection commits a change to a list (it
  /// need not change for anything else): watchers poll it before reading the change log.
  func dataVersion() throws(StoreError) -> Int
  /// Whether the database can be read now (a health check).
  func ping() -> Bool
}

/// The locks a PostgreSQL write transaction takes before it changes anything.
enum WriteLocks: Equatable {
  /// Every writer waits for this one, and it for them (an import, a migration, grants).
  case all
  /// These lists only (none: a write that changes no list, such as a session's stack).
  case lists([String])
}

extension StoreConnection {
  func inTransaction<T>(writing: Bool, _ body: () throws(StoreError) -> T) throws(StoreError)
    -> T
  {
    try inTransaction(writing: writing, locking: .all, body)
  }

  /// ``firstRows(_:_:)`` with one round trip per statement.
  func firstRowsOneByOne(
    _ statements: [(sql: String, arguments: [any DatabaseValueConvertible])],
    _ body: (Int, Columns) -> Void
  ) throws(StoreError) {
    for (index, statement) in statements.enumerated() {
      try each(statement.sql, statement.arguments) { row in
        body(index, row)
        return false
      }
    }
  }

  /// The first column of the first row of `sql` as an integer (0 when there is none).
  func integer(_ sql: String) throws(StoreError) -> Int {
    var value = 0
    try each(sql, []) { row in
      value = row.int(0)
      return false
    }
    return value
  }
}

/// The SQL dialect a `StoreConnection` speaks.
package enum SQLDialect: String, Sendable {
  case sqlite
  case postgres
}

/// The columns of the current row of a result, from either backend. Valid only inside the
/// closure it is handed to.
enum Columns {
  case sqlite(Statement)
  case postgres(PostgresRow)

  func isNull(_ index: Int) -> Bool {
    switch self {
    case .sqlite(let statement): return statement.isNull(index)
    case .postgres(let row): return row.isNull(index)
    }
  }

  /// An integer column (a PostgreSQL `boolean` reads as 0 or 1, as SQLite's do).
  func int(_ index: Int) -> Int {
    switch self {
    case .sqlite(let statement): return statement.int(index)
    case .postgres(let row): return row.integerOrBoolean(index)
    }
  }

  func bool(_ index: Int) -> Bool { int(index) != 0 }

  func optionalBool(_ index: Int) -> Bool? { isNull(index) ? nil : bool(index) }

  func optionalInt(_ index: Int) -> Int? { isNull(index) ? nil : int(index) }

  func string(_ index: Int) -> String {
    switch self {
    case .sqlite(let statement): return statement.string(index)
    case .postgres(let row): return row.string(index)
    }
  }

  func optionalString(_ index: Int) -> String? { isNull(index) ? nil : string(index) }
}

extension PostgresRow {
  /// An integer column, or a `boolean` one as 1 or 0; 0 when NULL.
  func integerOrBoolean(_ column: Int) -> Int {
    guard !isNull(column) else { return 0 }
    let text = string(column)
    if let value = Int(text) { return value }
    return text == "t" ? 1 : 0
  }
}
