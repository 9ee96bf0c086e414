import CPostgres
import TableModel

/// One connection to a PostgreSQL server, through libpq.
///
/// Statements take their arguments apart from their text (`$1`, `$2` …, sent in libpq's
/// text format), and each distinct statement is prepared once per connection and reused,
/// as `Database` does for SQLite.
///
/// - Important: A `PostgresConnection` is not `Sendable`: use it from one thread at a time
///   (libpq's own rule for a `PGconn`). ``inTransaction(_:)`` checks it.
package final class PostgresConnection {
  let handle: OpaquePointer
  /// The connection string it was opened with (`postgres://user@host:port/db` or
  /// `key=value` pairs), without a password.
  public let target: String
  /// Prepared statement names, by their SQL.
  var prepared: [String: String] = [:]
  let access: ThreadChecker
  /// When to try again after the connection broke (PostgresConnection+Reconnect.swift).
  var backoff = ReconnectBackoff()
  /// In a pipeline: the statements sent whose results are not read yet
  /// (PostgresConnection+Pipeline.swift).
  var unread: [String] = []

  /// Opens a connection: `conninfo` is a `postgres://` URL or libpq's `key=value` form.
  /// Blocks until the server answers or libpq gives up (`connect_timeout`, default 10 s
  /// here).
  public init(_ conninfo: String) throws(PostgresError) {
    let withTimeout =
      conninfo.contains("connect_timeout")
      ? conninfo : Self.adding("connect_timeout=10", to: conninfo)
    guard let handle = PQconnectdb(withTimeout) else {
      throw PostgresError(
        sqlState: nil, message: "libpq could not allocate a connection", statement: nil)
    }
    guard PQstatus(handle) == CONNECTION_OK else {
      let message = Self.trimmed(PQerrorMessage(handle))
      PQfinish(handle)
      throw PostgresError(sqlState: "08001", message: message, statement: nil)
    }
    self.handle = handle
    target = Self.redacted(conninfo)
    access = ThreadChecker("PostgresConnection \(target)")
    // Notices (e.g. "relation already exists, skipping") are not errors: keep them off stderr.
    PQsetNoticeProcessor(handle, { _, _ in }, nil)
  }

  deinit { PQfinish(handle) }

  /// Runs one statement with `arguments`, ignoring any rows; returns how many rows it
  /// changed (0 for statements that change none).
  @discardableResult
  public func execute(_ sql: String, _ arguments: (any PostgresValue)?...) throws(PostgresError)
    -> Int
  {
    try execute(sql, arguments: arguments)
  }

  /// ``execute(_:_:)`` with its arguments in an array.
  @discardableResult
  public func execute(_ sql: String, arguments: [(any PostgresValue)?]) throws(PostgresError) -> Int
  {
    try run(sql, arguments) { result in Int(String(cString: PQcmdTuples(result))) ?? 0 }
  }

  /// Runs statements with no arguments, several separated by `;` (a migration script).
  /// Not prepared: a script runs once.
  public func executeScript(_ sql: String) throws(PostgresError) {
    precondition(!isPipelined, "a script inside a pipeline")
    guard let result = PQexec(handle, sql) else { throw connectionError(sql) }
    defer { PQclear(result) }
    try check(result, sql)
  }

  /// Every row `sql` returns, each made into a value by `decode`.
  public func fetchAll<T>(
    _ sql: String, _ arguments: [(any PostgresValue)?] = [], _ decode: (PostgresRow) -> T
  ) throws(PostgresError) -> [T] {
    try run(sql, arguments) { result in
      (0..<PQntuples(result)).map { decode(PostgresRow(result: result, index: $0)) }
    }
  }

  /// The first row `sql` returns, made into a value by `decode`; nil when there is none.
  public func fetchOne<T>(
    _ sql: String, _ arguments: [(any PostgresValue)?] = [], _ decode: (PostgresRow) -> T
  ) throws(PostgresError) -> T? {
    try run(sql, arguments) { result in
      PQntuples(result) > 0 ? decode(PostgresRow(result: result, index: 0)) : nil
    }
  }

  /// The integer in the first column of the first row, or nil.
  public func fetchInt(_ sql: String, _ arguments: (any PostgresValue)?...) throws(PostgresError)
    -> Int?
  {
    try fetchOne(sql, arguments) { $0.optionalInt(0) } ?? nil
  }

  /// The socket libpq talks over: for an event loop to watch for notifications.
  public var socket: Int32 { PQsocket(handle) }

  /// The server's version as libpq reports it (150018 for 15.18).
  public var serverVersion: Int { Int(PQserverVersion(handle)) }

  /// Whether the connection is still usable (libpq has not seen it break).
  public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

  private func run<T>(
    _ sql: String, _ arguments: [(any PostgresValue)?], _ read: (OpaquePointer) -> T
  ) throws(PostgresError) -> T {
    let name = try statementName(sql, parameters: arguments.count)
    if isPipelined {
      try send(sql, name: name, arguments)
      var value: T?
      try synchronize(sql, reading: [sql]) { _, result in value = read(result) }
      guard let value else { throw connectionError(sql) }
      return value
    }
    let result = withCStrings(arguments.map { $0?.postgresText }) { values in
      PQexecPrepared(handle, name, Int32(values.count), values, nil, nil, 0)
    }
    guard let result else { throw connectionError(sql) }
    defer { PQclear(result) }
    try check(result, sql)
    return read(result)
  }

  func statementName(_ sql: String, parameters: Int) throws(PostgresError) -> String {
    if let name = prepared[sql] { return name }
    let name = "s\(prepared.count)"
    if isPipelined {
      // PQprepare is not allowed in a pipeline: sent, then read at a sync (first use only).
      guard PQsendPrepare(handle, name, sql, Int32(parameters), nil) == 1 else {
        throw connectionError(sql)
      }
      unread.append(sql)
      try synchronize(sql, reading: []) { _, _ in }
      prepared[sql] = name
      return name
    }
    guard let result = PQprepare(handle, name, sql, Int32(parameters), nil) else {
      throw connectionError(sql)
    }
    defer { PQclear(result) }
    try check(result, sql)
    prepared[sql] = name
    return name
  }

  func check(_ result: OpaquePointer, _ sql: String) throws(PostgresError) {
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
    default:
      let state = PQresultErrorField(result, tableweb_pg_diag_sqlstate()).map {
        String(cString: $0)
      }
      let primary = PQresultErrorField(result, tableweb_pg_diag_message_primary()).map {
        String(cString: $0)
      }
      throw PostgresError(
        sqlState: state, message: primary ?? Self.trimmed(PQresultErrorMessage(result)),
        statement: sql)
    }
  }

  func connectionError(_ sql: String?) -> PostgresError {
    PostgresError(sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), statement: sql)
  }

  static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
    guard let message else { return "unknown libpq error" }
    var text = String(cString: message)
    while text.last == "\n" || text.last == " " { text.removeLast() }
    return text.isEmpty ? "unknown libpq error" : text
  }

  /// `conninfo` with `option` added: as a URL query item or as one more `key=value`.
  static func adding(_ option: String, to conninfo: String) -> String {
    guard conninfo.hasPrefix("postgres://") || conninfo.hasPrefix("postgresql://") else {
      return conninfo + " " + option
    }
    return conninfo + (conninfo.contains("?") ? "&" : "?") + option
  }

  /// `conninfo` with any password replaced by `***`, for logs and errors.
  static func redacted(_ conninfo: String) -> String {
    var text = conninfo
    // URL form: postgres://user:secret@host → postgres://user:***@host
    if let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@"),
      let colon = text[scheme.upperBound..<at].firstIndex(of: ":")
    {
      text.replaceSubrange(text.index(after: colon)..<at, with: "***")
    }
    // key=value form and URL query: password=secret
    while let range = text.range(of: "password="), !text[range.upperBound...].hasPrefix("***") {
      let end =
        text[range.upperBound...].firstIndex(where: { $0 == " " || $0 == "&" }) ?? text.endIndex
      text.replaceSubrange(range.upperBound..<end, with: "***")
    }
    return text
  }
}

/// Calls `body` with the texts as C strings (NULL for nil), valid for the call only.
func withCStrings<T>(
  _ texts: [String?], _ body: ([UnsafePointer<CChar>?]) -> T
) -> T {
  let pointers: [UnsafeMutablePointer<CChar>?] = texts.map { text in
    guard let text else { return nil }
    let bytes = text.utf8CString
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
    _ = UnsafeMutableBufferPointer(start: pointer, count: bytes.count).initialize(from: bytes)
    return pointer
  }
  defer { for pointer in pointers { pointer?.deallocate() } }
  return body(pointers.map { UnsafePointer($0) })
}
