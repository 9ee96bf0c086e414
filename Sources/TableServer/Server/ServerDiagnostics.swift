import Logging
import TableStore

/// Where the server reports what went wrong without a client to tell: a data source that
/// failed while a change was being sent out, a session that could not be read back.
///
/// Through the configured swift-log `Logger` (``TablewebServer/Configuration/logger``;
/// `serve` sets it up: text or JSON on standard error), at `error`; never row text or
/// credentials. A value: any thread may hold one.
struct ServerDiagnostics: Sendable {
  let logger: Logger

  init(logger: Logger = Logger(label: "tableweb")) {
    self.logger = logger
  }

  func report(_ message: String) {
    // The database is down: its store connection logged that once ("PostgreSQL cannot be
    // reached; reconnecting with back-off") and logs its return; every poll, catch-up and
    // access check would otherwise repeat it many times a second.
    if message.contains(StoreError.unreachable) { return }
    logger.error("\(message)")
  }

  /// A passing condition worth a line, not an error: e.g. an outage begun (`warning`) and
  /// over (`notice`), each logged once.
  func note(_ message: String, level: Logger.Level) {
    logger.log(level: level, "\(message)")
  }
}
