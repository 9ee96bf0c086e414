/// A failure SQLite reported: its result code, its message and the SQL it was running.
///
/// The message is SQLite's own; bound values are never part of it, so user data does not
/// leak into logs or into what a peer is told.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
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

  public var isBusy: Bool { code == 5 || code == 6 }  // SQLITE_BUSY, SQLITE_LOCKED
  public var isReadOnly: Bool { code == 8 }  // SQLITE_READONLY
  public var isCorrupt: Bool { code == 11 || code == 26 }  // SQLITE_CORRUPT, SQLITE_NOTADB
  public var isFull: Bool { code == 13 }  // SQLITE_FULL
  public var isConstraint: Bool { code == 19 }  // SQLITE_CONSTRAINT

  public var description: String {
    var text = "SQLite error \(extendedCode): \(message)"
    if let sql { text += " — while executing `\(sql)`" }
    return text
  }
}
