import CoreMetrics
import Logging
import TableModel

/// Refused connections, as an operator sees them: every one counted in
/// `tableweb_connections_refused_total{reason}`, and one log line per address per minute
/// (the first refusal of a minute, with what was refused since the line before), so that
/// a crowd of 1,000 connections makes a line, not a thousand.
///
/// Any thread: the transport reports on its service thread, the session core on its own.
package final class ConnectionRefusalLog: Sendable {
  /// How long after a line about an address the next one waits.
  static let interval = Duration.seconds(60)

  private let logger: Logger
  private let counters: [ConnectionRefusal: CoreMetrics.Counter]
  private let lines = AddressLogThrottle<[ConnectionRefusal: Int]>(interval: interval, empty: [:])

  /// - Parameter factory: where the counters are kept; nil counts nothing (logs only).
  init(logger: Logger, factory: (any MetricsFactory)?) {
    self.logger = logger
    var counters: [ConnectionRefusal: CoreMetrics.Counter] = [:]
    if let factory {
      for reason in ConnectionRefusal.allCases {
        let counter = CoreMetrics.Counter(
          label: "tableweb_connections_refused_total", dimensions: [("reason", reason.rawValue)],
          factory: factory)
        // Shown from the start, so that a dashboard's rate has a zero to start from.
        counter.increment(by: 0)
        counters[reason] = counter
      }
    }
    self.counters = counters
  }

  /// A connection from `address` was refused, or closed for abuse, for `reason`.
  public func record(
    _ reason: ConnectionRefusal, address: String, at now: ContinuousClock.Instant = .now
  ) {
    counters[reason]?.increment()
    guard let line = lines.record(address, at: now, { $0[reason, default: 0] += 1 }) else {
      return
    }
    let counts = line.sorted { $0.key.rawValue < $1.key.rawValue }
      .map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: " ")
    logger.warning(
      "connections refused",
      metadata: [
        "address": "\(address)", "reason": "\(reason.rawValue)", "refused": "\(counts)",
        "next_line_after_s": "\(Self.interval.components.seconds)",
      ])
  }
}
