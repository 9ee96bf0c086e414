import CPostgres

/// `LISTEN`/`NOTIFY`: a change's announcement, read without blocking.
extension PostgresConnection {
  /// One notification: the channel it was sent on and its payload.
  public struct Notification: Sendable, Hashable {
    public var channel: String
    public var payload: String
    /// The process id of the server backend that sent it (ours when we sent it).
    public var senderPID: Int32
  }

  /// Starts listening on `channel` (an identifier: letters, digits and `_` only).
  public func listen(_ channel: String) throws(PostgresError) {
    precondition(
      channel.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }, "channel \(channel)")
    try executeScript("LISTEN \(channel)")
  }

  /// Sends `payload` (at most 8,000 bytes, PostgreSQL's limit) on `channel`. Inside a
  /// transaction it is delivered when the transaction commits, and not at all otherwise.
  public func notify(_ channel: String, _ payload: String) throws(PostgresError) {
    try execute("SELECT pg_notify($1, $2)", channel, payload)
  }

  /// The notifications that have arrived, read from the socket without waiting: call it
  /// when ``socket`` is readable, or from time to time.
  public func pendingNotifications() throws(PostgresError) -> [Notification] {
    guard PQconsumeInput(handle) == 1 else {
      throw PostgresError(
        sqlState: nil, message: Self.trimmed(PQerrorMessage(handle)), statement: nil)
    }
    var found: [Notification] = []
    while let notify = PQnotifies(handle) {
      found.append(
        Notification(
          channel: String(cString: notify.pointee.relname),
          payload: String(cString: notify.pointee.extra),
          senderPID: notify.pointee.be_pid))
      PQfreemem(notify)
    }
    return found
  }

  /// The backend process id of this connection, to tell our own notifications apart.
  public var backendPID: Int32 { PQbackendPID(handle) }
}
