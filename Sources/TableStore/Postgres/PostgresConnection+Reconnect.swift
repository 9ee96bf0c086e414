import CPostgres
import Logging

extension PostgresConnection {
  /// Where outages are logged: once when one begins, once when it ends.
  static let outageLogger = Logger(label: "tableweb.postgres")

  /// Connects again with the same parameters after the connection broke (the server
  /// restarted, the backend was terminated): libpq's `PQreset`. Statements are prepared
  /// again on first use; `LISTEN`s are not renewed. Throws when the server still cannot be
  /// reached. Makes one attempt now, whatever `backoff` says: see
  /// ``reconnectWithBackoff(now:)``.
  public func reconnect() throws(PostgresError) {
    if isPipelined { PQexitPipelineMode(handle) }
    PQreset(handle)
    prepared = [:]
    unread = []
    guard isConnected else {
      throw PostgresError(
        sqlState: "08001", message: Self.trimmed(PQerrorMessage(handle)), statement: nil)
    }
  }

  /// Connects again when the connection is broken, as often as `backoff` allows: before
  /// the next attempt is due it throws at once (SQLSTATE `08006`, "… next attempt in
  /// 0.4 s") without touching the network, so a storm of commands during an outage costs
  /// no connection attempts and no waiting. The outage is logged when it is first seen
  /// (at its first failed attempt) and when the connection is back (with its length and
  /// the failed attempts), never per attempt; a connection made again at the first try is
  /// one line. Does nothing while connected.
  public func reconnectWithBackoff(now: ContinuousClock.Instant = .now) throws(PostgresError) {
    guard !isConnected else { return }
    let reason = Self.oneLine(PQerrorMessage(handle))
    _ = backoff.noticeOutage(at: now)
    guard backoff.mayAttempt(at: now) else {
      let wait = (backoff.nextAttempt ?? now) - now
      throw PostgresError(
        sqlState: "08006",
        message: "PostgreSQL \(StoreError.unreachable); next attempt in \(Self.seconds(wait))",
        statement: nil)
    }
    do {
      try reconnect()
    } catch {
      backoff.failed(at: .now)
      if backoff.failures == 1 {
        Self.outageLogger.warning(
          "PostgreSQL cannot be reached; reconnecting with back-off",
          metadata: [
            "database": "\(target)", "reason": "\(reason)",
            "error": "\(Self.oneLine(error.message))",
          ])
      }
      // Said the way every refusal of this outage is (logged above, once).
      throw PostgresError(
        sqlState: error.sqlState,
        message: "PostgreSQL \(StoreError.unreachable): \(Self.oneLine(error.message))",
        statement: nil)
    }
    if let outage = backoff.succeeded(at: .now) {
      Self.outageLogger.notice(
        "reconnected to PostgreSQL",
        metadata: [
          "database": "\(target)", "outage": "\(Self.seconds(outage.length))",
          "failedAttempts": "\(outage.failures)", "reason": "\(reason)",
        ])
    }
  }

  /// libpq's message (several lines, indented) on one line.
  static func oneLine(_ message: UnsafePointer<CChar>?) -> String {
    oneLine(trimmed(message))
  }

  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).map { $0.drop(while: \.isWhitespace) }
      .filter { !$0.isEmpty }.joined(separator: "; ")
  }

  /// `1.25 s`, for messages.
  static func seconds(_ duration: Duration) -> String {
    let milliseconds = ReconnectBackoff.nanoseconds(duration) / 1_000_000
    return "\(milliseconds / 1000).\(String(milliseconds % 1000 / 10).leftPadded(2)) s"
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
