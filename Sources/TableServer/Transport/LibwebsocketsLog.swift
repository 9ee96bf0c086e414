import CWebsockets
import Logging

/// libwebsockets' own log lines, through swift-log (label `tableweb.lws`) instead of raw
/// to standard error: they describe lws internals (`ERROR on binding fd 12 …`), so they
/// are `debug` lines; what they mean for the operator is said by our own messages
/// (`cannot listen on 127.0.0.1:8080: the port is in use`).
enum LibwebsocketsLog {
  /// Made on first use, after the program chose its log handler.
  static let logger = Logger(label: "tableweb.lws")

  static func routeToLogger() {
    lws_set_log_level(tableweb_lws_log_errors | tableweb_lws_log_warnings, emitLibwebsocketsLine)
  }
}

/// lws calls this from whichever thread logs (the service thread, or the one creating the
/// context); the logger is a value set once, and log handlers are thread-safe.
private func emitLibwebsocketsLine(_ level: Int32, _ line: UnsafePointer<CChar>?) {
  guard let line else { return }
  var text = String(cString: line)
  while text.last == "\n" { text.removeLast() }
  LibwebsocketsLog.logger.debug("\(text)", metadata: ["lws.level": "\(level)"])
}
