import CSQLite
import TableModel

/// SQLite as a ``Store``'s connection: prepared statements cached by their text, the
/// schema version in `PRAGMA user_version`, new changes seen through `PRAGMA data_version`.
extension Database: StoreConnection {
  var dialect: SQLDialect { .sqlite }

  var isInTransaction: Bool { !isAutocommit }

  var modifications: Int { Int(sqlite3_total_changes64(handle)) }

  func run(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws(StoreError) {
    do {
      try cachedStatement(sql).execute(arguments)
    } catch {
      throw StoreError(error)
    }
  }

  func firstRows(
    _ statements: [(sql: String, arguments: [any DatabaseValueConvertible])],
    _ body: (Int, Columns) -> Void
  ) throws(StoreError) {
    try firstRowsOneByOne(statements, body)
  }

  func runLater(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws(StoreError)
    -> Bool
  {
    try run(sql, arguments)
    return false
  }

  func each(
    _ sql: String, _ arguments: [any DatabaseValueConvertible], _ body: (Columns) -> Bool
  ) throws(StoreError) {
    do {
      let statement = try cachedStatement(sql)
      defer { statement.reset() }
      try statement.bind(arguments)
      while try statement.step() {
        if !body(.sqlite(statement)) { break }
      }
    } catch {
      throw StoreError(error)
    }
  }

  func runScript(_ sql: String) throws(StoreError) {
    do {
      try executeScript(sql)
    } catch {
      throw StoreError(error)
    }
  }

  func lastInsertID() throws(StoreError) -> Int { lastInsertedRowID }

  /// SQLite's write lock covers the whole file: `locking` changes nothing.
  func inTransaction<T>(
    writing: Bool, locking: WriteLocks, _ body: () throws(StoreError) -> T
  ) throws(StoreError) -> T {
    try inTransaction(writing ? .immediate : .deferred, body)
  }

  func lockList(_ list: String) throws(StoreError) {}

  func lockAll() throws(StoreError) {}

  func holdsLock(of list: String) -> Bool { true }

  func lockLogForCommit() throws(StoreError) {}

  func beginWrite() throws(StoreError) {
    precondition(isAutocommit, "beginWrite inside a transaction on \(path)")
    try run(TransactionKind.immediate.rawValue, [])
  }

  func endWrite(committing: Bool) throws(StoreError) {
    guard !isAutocommit else {
      // SQLite rolled back by itself (some I/O and full-disk errors do).
      if committing {
        throw .sqlite(code: 1, message: "the transaction was rolled back", sql: "COMMIT")
      }
      return
    }
    do {
      try run(committing ? "COMMIT" : "ROLLBACK", [])
    } catch {
      if committing && !isAutocommit {
        // The COMMIT's error is the one to report, not the ROLLBACK's.
        do { try run("ROLLBACK", []) } catch {}
      }
      throw error
    }
  }

  func schemaVersion() throws(StoreError) -> Int {
    try integer("PRAGMA user_version")
  }

  func setSchemaVersion(_ version: Int) throws(StoreError) {
    try runScript("PRAGMA user_version = \(version)")
  }

  func dataVersion() throws(StoreError) -> Int {
    try integer("PRAGMA data_version")
  }

  func ping() -> Bool {
    do {
      try run("SELECT count(*) FROM sqlite_master", [])
      return true
    } catch {
      return false
    }
  }
}
