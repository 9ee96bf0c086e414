import CSQLite

/// A prepared statement. It finalizes itself when released.
///
/// Bind with ``bind(_:)``, then ``step()`` until it returns false, reading columns while it
/// returns true. `Database` caches statements by their SQL and resets them after each
/// use, so that none is left holding a read transaction open.
package final class Statement {
  let handle: SQLiteStatement
  private let connection: SQLiteConnection
  public let sql: String
  public let parameterCount: Int

  init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
    var handle: OpaquePointer?
    let code = sqlite3_prepare_v3(
      connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
    guard code == SQLITE_OK, let handle else {
      throw SQLiteError(
        extendedCode: sqlite3_extended_errcode(connection),
        message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }
    self.handle = handle
    self.connection = connection
    self.sql = sql
    self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
  }

  deinit {
    // The code finalize returns repeats the last step's error, which was already thrown.
    sqlite3_finalize(handle)
  }

  private func error(_ code: Int32) -> SQLiteError {
    SQLiteError(
      extendedCode: sqlite3_extended_errcode(connection),
      message: String(cString: sqlite3_errmsg(connection)), sql: sql)
  }

  /// Binds `values` to the parameters `?1…?n`, replacing earlier bindings.
  public func bind(_ values: [any DatabaseValueConvertible]) throws(SQLiteError) {
    precondition(
      values.count == parameterCount,
      "\(values.count) values for \(parameterCount) parameters of `\(sql)`")
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32
      switch value.databaseValue {
      case .null: code = sqlite3_bind_null(handle, index)
      case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
      case .real(let real): code = sqlite3_bind_double(handle, index, real)
      case .text(let text):
        code = sqlite3_bind_text(handle, index, text, -1, tableweb_sqlite_transient())
      }
      // Only a too-large value (SQLITE_TOOBIG) or no memory can fail here; a bad index is
      // excluded by the precondition above.
      guard code == SQLITE_OK else { throw error(code) }
    }
  }

  /// Runs to the next row: true when a row is ready to read, false when done.
  public func step() throws(SQLiteError) -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let failure = error(code)
      sqlite3_reset(handle)  // Repeats the same error code; the statement is reusable after.
      throw failure
    }
  }

  /// Makes the statement ready to run again and releases what its last run held.
  public func reset() {
    // reset returns the last step's error, which step already threw.
    sqlite3_reset(handle)
  }

  /// Runs the statement to completion, ignoring any rows, and resets it.
  public func execute(_ values: [any DatabaseValueConvertible] = []) throws(SQLiteError) {
    defer { reset() }
    try bind(values)
    while try step() {}
  }

  // MARK: Columns of the current row

  public var columnCount: Int { Int(sqlite3_column_count(handle)) }

  private func checkColumn(_ index: Int) {
    precondition(
      index >= 0 && index < columnCount, "column \(index) out of \(columnCount) of `\(sql)`")
  }

  public func isNull(_ index: Int) -> Bool {
    checkColumn(index)
    return sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
  }

  public func int(_ index: Int) -> Int {
    checkColumn(index)
    return Int(sqlite3_column_int64(handle, Int32(index)))
  }

  public func bool(_ index: Int) -> Bool { int(index) != 0 }

  public func optionalBool(_ index: Int) -> Bool? { isNull(index) ? nil : bool(index) }

  public func optionalInt(_ index: Int) -> Int? { isNull(index) ? nil : int(index) }

  public func string(_ index: Int) -> String {
    checkColumn(index)
    guard let text = sqlite3_column_text(handle, Int32(index)) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, Int32(index)))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  public func optionalString(_ index: Int) -> String? { isNull(index) ? nil : string(index) }
}
