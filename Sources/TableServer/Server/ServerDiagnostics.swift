import Logging
import TableStore

/// Where the server reports what went wrong without a client to tell: a data source that
/// failed while a change was being sent out, a session that could not be read back.
///
/// Through swift-log (as `serve` sets it up: text or JSON on standard error), at `error`;
/// never row text or credentials. Any thread.
enum ServerDiagnostics {
  private static let logger = Logger(label: "tableweb.server")

  static func report(_ message: String) {
    // The database is down: its store connection logged that once ("PostgreSQL cannot be
    // reached; reconnecting with back-off") and logs its return; every poll, catch-up and
    // access check would otherwise repeat it many times a second.
    if message.contains(StoreError.unreachable) { return }
    logger.error("\(message)")
  }
}
