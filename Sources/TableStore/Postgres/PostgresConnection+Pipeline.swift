import CPostgres

/// libpq's pipeline mode: statements whose answers nobody waits for are queued, sent with
/// the next statement that needs its answer, and their results read then.
///
/// A group of commands committed together (``Store/committingTogether(_:)``) would spend
/// most of its time waiting on round trips: per update, a read it needs the answer of and
/// writes it does not (the list's lock, the row and the list's version, the logs, the undo
/// step). In a pipeline the writes wait in libpq's buffer and go out with the next read
/// (or the COMMIT), in one send, and that read collects their results.
///
/// Sending each write as it was made, so that PostgreSQL ran it while the server went on,
/// woke PostgreSQL's backend once a statement: on 2 cores that were busy anyway it cost
/// more than it overlapped (`tablebench cluster --lists 150`, three servers, alternating:
/// 5,736 and 5,815 edits/s sent at once, 6,177 and 6,163/s sent together; PostgreSQL's
/// CPU an edit 0.17 → 0.15 ms). libpq still sends on its own when its buffer passes 8 kB.
///
/// An error in a statement sent ahead surfaces at that next read (or at
/// ``endPipeline()``), as the error of whatever is being run then: the transaction is
/// aborted by then anyway, and the group it belongs to is run again command by command,
/// where each error is its own command's.
extension PostgresConnection {
  /// Whether statements are being pipelined.
  public var isPipelined: Bool { PQpipelineStatus(handle) != PQ_PIPELINE_OFF }

  /// Starts a pipeline; the connection must be idle (inside a transaction is fine).
  public func beginPipeline() throws(PostgresError) {
    guard PQenterPipelineMode(handle) == 1 else { throw connectionError("(pipeline mode)") }
    unread = []
  }

  /// Queues `sql` without waiting for its result (prepared as every statement is): it goes
  /// out with the next statement whose answer is read, or the pipeline's end. Only in a
  /// pipeline.
  public func executeLater(_ sql: String, arguments: [(any PostgresValue)?]) throws(PostgresError) {
    precondition(isPipelined, "executeLater outside a pipeline")
    try send(sql, name: try statementName(sql, parameters: arguments.count), arguments)
    unread.append(sql)
  }

  /// Reads what is still unread (throwing the first error among it) and leaves the
  /// pipeline. A connection that broke leaves it too.
  public func endPipeline() throws(PostgresError) {
    guard isPipelined else { return }
    defer {
      unread = []
      PQexitPipelineMode(handle)
    }
    if !unread.isEmpty { try synchronize("(end of pipeline)", reading: []) { _, _ in } }
  }

  /// Runs `statements` in a pipeline with one round trip for all of them (and for what
  /// was sent ahead); `read` reads each one's result, with its index.
  public func fetchTogether(
    _ statements: [(sql: String, arguments: [(any PostgresValue)?])],
    _ read: (Int, OpaquePointer) -> Void
  ) throws(PostgresError) {
    precondition(isPipelined, "fetchTogether outside a pipeline")
    var names: [String] = []
    for statement in statements {
      names.append(try statementName(statement.sql, parameters: statement.arguments.count))
    }
    for (statement, name) in zip(statements, names) {
      try send(statement.sql, name: name, statement.arguments)
    }
    try synchronize(statements.last?.sql ?? "", reading: statements.map(\.sql), read)
  }

  /// Sends the prepared statement `name` (`sql`'s) with `arguments`, without waiting.
  func send(_ sql: String, name: String, _ arguments: [(any PostgresValue)?]) throws(PostgresError)
  {
    let sent = withCStrings(arguments.map { $0?.postgresText }) { values in
      PQsendQueryPrepared(handle, name, Int32(values.count), values, nil, nil, 0)
    }
    guard sent == 1 else { throw connectionError(sql) }
  }

  /// In a pipeline, once the caller has sent `reading` (or nothing more): sends a sync and
  /// reads every result up to it — those sent ahead, then those of `reading`, which `read`
  /// reads (with their index in `reading`). The first error among them is thrown once all
  /// are read.
  func synchronize(
    _ sql: String, reading: [String], _ read: (Int, OpaquePointer) -> Void
  ) throws(PostgresError) {
    let ahead = unread.count
    let statements = unread + reading
    unread = []
    guard PQpipelineSync(handle) == 1 else { throw connectionError(sql) }
    var failure: PostgresError?
    for (index, statement) in statements.enumerated() {
      // One statement's results, then a null.
      while let result = PQgetResult(handle) {
        defer { PQclear(result) }
        if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
          if failure == nil {
            failure = PostgresError(
              sqlState: nil, message: "the pipeline was aborted", statement: statement)
          }
          continue
        }
        do {
          try check(result, statement)
        } catch {
          if failure == nil { failure = error }
          continue
        }
        if index >= ahead, failure == nil { read(index - ahead, result) }
      }
      guard isConnected else { throw failure ?? connectionError(statement) }
    }
    guard let sync = PQgetResult(handle) else { throw failure ?? connectionError(sql) }
    let status = PQresultStatus(sync)
    PQclear(sync)
    if let failure { throw failure }
    guard status == PGRES_PIPELINE_SYNC else {
      throw PostgresError(sqlState: nil, message: "the pipeline lost its place", statement: sql)
    }
  }
}
