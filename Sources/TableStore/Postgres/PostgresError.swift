/// A failure PostgreSQL or libpq reported: the SQLSTATE, the message and the statement it
/// was running.
///
/// As with `SQLiteError`, the message is the server's own: bound values are sent apart
/// from the statement and are never part of it.
package struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The five-character SQLSTATE (`23505` for a unique violation), or nil when the failure
  /// was libpq's own (the connection broke before the server could answer).
  public var sqlState: String?
  public var message: String
  /// The statement being prepared or run, when there was one.
  public var statement: String?

  public init(sqlState: String?, message: String, statement: String?) {
    self.sqlState = sqlState
    self.message = message
    self.statement = statement
  }

  /// The statement broke a unique or primary-key constraint.
  public var isUniqueViolation: Bool { sqlState == "23505" }
  /// A serializable transaction lost to a concurrent one and may simply be run again.
  public var isSerializationFailure: Bool { sqlState == "40001" || sqlState == "40P01" }
  /// The connection is gone (class 08, or libpq lost it): reconnect, then retry.
  public var isConnectionFailure: Bool {
    guard let sqlState else { return true }
    return sqlState.hasPrefix("08") || sqlState == "57P01" || sqlState == "57P02"
      || sqlState == "57P03"
  }

  public var description: String {
    var text = "PostgreSQL error \(sqlState ?? "(connection)"): \(message)"
    if let statement { text += " — while executing `\(statement)`" }
    return text
  }
}
