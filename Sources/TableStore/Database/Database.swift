import CSQLite
import TableModel

/// A `sqlite3 *` connection handle; never leaves this file family.
typealias SQLiteConnection = OpaquePointer
/// A `sqlite3_stmt *` prepared-statement handle.
typealias SQLiteStatement = OpaquePointer

/// SQLite set up once, before the first connection: memory statistics off, so that
/// connections on different threads share no mutex for each allocation (the build here has
/// no lookaside allocator, so every small allocation is one). Nothing reads the statistics.
private let sqliteConfigured: Void = {
  _ = tableweb_sqlite_disable_memstatus()
}()

/// One connection to a SQLite database file.
///
/// - Important: A `Database` is not `Sendable`: use it from one thread at a time. It is
///   opened with `SQLITE_OPEN_NOMUTEX`, so SQLite does not serialize calls for you;
///   ``inTransaction(_:_:)`` checks it (a second thread entering stops the program).
package final class Database {
  let handle: SQLiteConnection
  public let path: String
  public let isReadOnly: Bool
  private var statements: [String: Statement] = [:]
  /// Checks that one thread at a time runs a transaction.
  let access: ThreadChecker

  /// Opens (or, unless `readOnly`, creates) the database at `path`.
  ///
  /// `busyTimeout` is how long a statement waits for another connection's lock before it
  /// fails with `SQLITE_BUSY`.
  public init(path: String, readOnly: Bool = false, busyTimeout milliseconds: Int32 = 5_000)
    throws(SQLiteError)
  {
    _ = sqliteConfigured
    var handle: OpaquePointer?
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let message =
        handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
      // A handle that failed to open must still be closed; closing it cannot fail usefully.
      sqlite3_close_v2(handle)
      throw SQLiteError(extendedCode: code, message: message, sql: nil)
    }
    self.handle = handle
    self.path = path
    self.isReadOnly = readOnly
    access = ThreadChecker("Database \(path)")
    let timeoutCode = sqlite3_busy_timeout(handle, milliseconds)
    precondition(timeoutCode == SQLITE_OK, "sqlite3_busy_timeout returned \(timeoutCode)")
  }

  deinit {
    statements.removeAll()
    let code = sqlite3_close_v2(handle)
    // close_v2 defers closing until outstanding statements are finalized: never busy.
    assert(code == SQLITE_OK, "sqlite3_close_v2 returned \(code)")
  }

  func lastError(sql: String?) -> SQLiteError {
    SQLiteError(
      extendedCode: sqlite3_extended_errcode(handle),
      message: String(cString: sqlite3_errmsg(handle)), sql: sql)
  }

  /// The prepared statement for `sql`, prepared once per connection and reused.
  public func cachedStatement(_ sql: String) throws(SQLiteError) -> Statement {
    if let cached = statements[sql] { return cached }
    let statement = try Statement(connection: handle, sql: sql)
    statements[sql] = statement
    return statement
  }

  /// Runs one or more statements without arguments (`sqlite3_exec`).
  public func executeScript(_ sql: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    guard code == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
      sqlite3_free(message)
      throw SQLiteError(extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
    }
  }

  /// Runs one statement with `arguments`, ignoring any rows.
  public func execute(_ sql: String, _ arguments: any DatabaseValueConvertible...)
    throws(SQLiteError)
  {
    try cachedStatement(sql).execute(arguments)
  }

  /// Every row `sql` returns, each made into a value by `decode`.
  public func fetchAll<T>(
    _ sql: String, _ arguments: [any DatabaseValueConvertible] = [], _ decode: (Statement) -> T
  ) throws(SQLiteError) -> [T] {
    let statement = try cachedStatement(sql)
    defer { statement.reset() }
    try statement.bind(arguments)
    var values: [T] = []
    while try statement.step() { values.append(decode(statement)) }
    return values
  }

  /// The first row `sql` returns, made into a value by `decode`; nil when there is none.
  public func fetchOne<T>(
    _ sql: String, _ arguments: [any DatabaseValueConvertible] = [], _ decode: (Statement) -> T
  ) throws(SQLiteError) -> T? {
    let statement = try cachedStatement(sql)
    defer { statement.reset() }
    try statement.bind(arguments)
    return try statement.step() ? decode(statement) : nil
  }

  /// The integer in the first column of the first row, or nil.
  public func fetchInt(_ sql: String, _ arguments: any DatabaseValueConvertible...)
    throws(SQLiteError) -> Int?
  {
    try fetchOne(sql, arguments) { $0.optionalInt(0) } ?? nil
  }

  /// The rowid of the row the last successful INSERT made.
  public var lastInsertedRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }

  /// How many rows the last INSERT, UPDATE or DELETE changed.
  public var changes: Int { Int(sqlite3_changes64(handle)) }

  /// The SQLite library's version (`3.40.1`).
  public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

  /// Whether the main database cannot be written: opened read-only, or a file SQLite
  /// could only open for reading.
  public var isFileReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// Whether no transaction is open (SQLite's autocommit mode).
  public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }
}
