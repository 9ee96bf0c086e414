import TableModel

/// Why a store operation failed. Messages name ids and SQL, never the text people typed.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The list, section or row does not exist (any more): `notFound("row R5 in list L7")`.
  case notFound(String)
  /// The list or row does not permit the change.
  case notAllowed(String)
  /// The database was opened read-only, or its file cannot be written.
  case readOnly(String)
  /// SQLite failed: locked, corrupt, disk full, I/O error…
  case sqlite(code: Int32, message: String, sql: String?)
  /// PostgreSQL failed: its SQLSTATE (nil when the connection itself failed), message
  /// and statement.
  case postgres(sqlState: String?, message: String, sql: String?)
  /// A data file (or a stored value) is not valid; `path` is the JSON path of the problem.
  case invalidData(path: String, message: String)
  /// A COMMIT whose outcome nobody can know: the connection broke while it was on its way,
  /// so the change may have been applied or not. The message says so and is what the
  /// client is told. Also how the commands of such a group are refused when they are
  /// answered again (`Store.refusingWrites(with:_:)`), on either database.
  case commitOutcomeUnknown(String)
  /// An undo or redo that would overwrite what someone else changed since: the message
  /// names the row (its text) and who changed it, and says nothing was applied.
  case conflict(String)

  public var description: String {
    switch self {
    case .notFound(let what): return "not found: \(what)"
    case .notAllowed(let why): return "not allowed: \(why)"
    case .conflict(let why): return "conflict: \(why)"
    case .readOnly(let why): return "read-only: \(why)"
    case .sqlite(let code, let message, let sql):
      var text = "SQLite error \(code): \(message)"
      if let hint = StoreError.hint(forCode: code) { text += " (\(hint))" }
      if let sql { text += " — while executing `\(sql)`" }
      return text
    case .postgres(let state, let message, let sql):
      var text = "PostgreSQL error \(state ?? "(connection)"): \(message)"
      if let sql { text += " — while executing `\(sql)`" }
      return text
    case .invalidData(let path, let message):
      return path.isEmpty ? message : "\(path): \(message)"
    case .commitOutcomeUnknown(let message):
      return message
    }
  }

  private static func hint(forCode code: Int32) -> String? {
    switch code & 0xFF {
    case 5, 6: return "another process holds the database's lock"
    case 11, 26: return "the file is damaged or is not a tableweb database"
    case 13: return "the disk is full; nothing was changed"
    case 14: return "the file or its folder cannot be opened"
    case 10: return "an I/O error; nothing was changed"
    default: return nil
    }
  }

  /// How the error is shown to a protocol peer.
  public var protocolError: ProtocolError {
    switch self {
    case .notFound(let what): return ProtocolError(.notFound, "\(what) does not exist")
    case .notAllowed(let why): return ProtocolError(.notAllowed, why)
    case .conflict(let why): return ProtocolError(.conflict, why)
    case .readOnly: return ProtocolError(.notAllowed, "the data is read-only")
    case .sqlite(let code, _, _):
      return ProtocolError(.internal, "the database failed (SQLite error \(code))")
    case .postgres(let state, _, _) where isConnectionFailure:
      return ProtocolError(
        .internal,
        "the database \(Self.unreachable) (PostgreSQL error \(state ?? "08000")): try again shortly"
      )
    case .postgres(let state, _, _):
      return ProtocolError(.internal, "the database failed (PostgreSQL error \(state ?? "08000"))")
    case .invalidData: return ProtocolError(.internal, "the stored data is not valid")
    case .commitOutcomeUnknown(let message): return ProtocolError(.internal, message)
    }
  }
}

extension StoreError: SQLiteErrorConvertible {
  package init(_ error: SQLiteError) {
    if error.isReadOnly {
      self = .readOnly(error.message)
    } else {
      self = .sqlite(code: error.extendedCode, message: error.message, sql: error.sql)
    }
  }
}

extension StoreError: PostgresErrorConvertible {
  package init(_ error: PostgresError) {
    if error.sqlState == "25006" {  // read_only_sql_transaction
      self = .readOnly(error.message)
    } else {
      self = .postgres(sqlState: error.sqlState, message: error.message, sql: error.statement)
    }
  }

  /// The error of a COMMIT whose outcome nobody can know, after `error` broke its
  /// connection on the way.
  static func commitOutcomeUnknown(after error: StoreError) -> StoreError {
    let message: String
    if case .postgres(_, let text, _) = error { message = text } else { message = "\(error)" }
    return .commitOutcomeUnknown(
      "the connection to the database broke while committing (\(message)): the change may have been applied, and viewers see it if it was; reload before trying again"
    )
  }

  /// Whether this is a COMMIT whose outcome is unknown (`commitOutcomeUnknown(_:)`).
  public var isCommitOutcomeUnknown: Bool {
    if case .commitOutcomeUnknown = self { return true }
    return false
  }

  /// Words in every message about a database that cannot be reached now (a protocol
  /// error's, a refused reconnection's): the store logs such an outage once, and the
  /// server leaves these out of its reports rather than repeat it per command and poll.
  public static let unreachable = "cannot be reached"

  /// The PostgreSQL connection is gone or the server is shutting down or starting (see
  /// `PostgresError.isConnectionFailure`): the database is unavailable for now.
  public var isConnectionFailure: Bool {
    guard case .postgres(let state, let message, let sql) = self else { return false }
    return PostgresError(sqlState: state, message: message, statement: sql).isConnectionFailure
  }

  /// A PostgreSQL transaction that lost to a concurrent one (serialization failure or
  /// deadlock) and may simply be run again.
  var isRetryable: Bool {
    guard case .postgres(let state, _, _) = self else { return false }
    return state == "40001" || state == "40P01"
  }
}
