import CSQLite

/// A failure SQLite reported: its result code, its message and the SQL it was running.
///
/// The message is SQLite's own; bound values are never part of it, so user data does not
/// leak into logs or into what a peer is told.
package struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` rather than `SQLITE_CONSTRAINT`).
  public var extendedCode: Int32
  public var message: String
  /// The statement being prepared or run, when there was one.
  public var sql: String?

  public init(extendedCode: Int32, message: String, sql: String?) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
  }

  /// The primary result code (`SQLITE_BUSY`, `SQLITE_FULL`, …).
  public var code: Int32 { extendedCode & 0xFF }

  /// A write to a database opened read-only, or to a read-only file.
  public var isReadOnly: Bool { code == SQLITE_READONLY }
  /// The file is not an SQLite database.
  public var isNotADatabase: Bool { code == SQLITE_NOTADB }

  public var description: String {
    var text = "SQLite error \(extendedCode): \(message)"
    if let sql { text += " — while executing `\(sql)`" }
    return text
  }
}
