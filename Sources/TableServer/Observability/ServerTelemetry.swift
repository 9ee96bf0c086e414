import CoreMetrics
import Logging
import Prometheus
import TableModel

/// What an operator sees of a running server: its log lines (swift-log) and its figures
/// (swift-metrics, kept in a Prometheus registry of its own and served at `/metrics`).
///
/// Labels and log lines never carry row text, row ids or full session tokens: only
/// command types, error codes, addresses and an 8-character session prefix.
///
/// - Important: Confined to the service thread (`SessionHost` calls it there), except
///   ``prometheusText()``, which the registry makes safe from any thread, and
///   `httpRefused(_:_:)`, which the transport calls on its own thread.
package final class ServerTelemetry {
  public let logger: Logger
  public let registry: PrometheusCollectorRegistry
  /// False counts nothing (`serve --no-metrics`): only the log lines remain.
  public let recordsMetrics: Bool
  private let factory: PrometheusMetricsFactory
  private let connections: CoreMetrics.Gauge
  private let sessions: CoreMetrics.Gauge
  private let fanout: CoreMetrics.Timer
  /// A change → its last frame handed to the kernel, on whichever service thread.
  private let fanoutWrittenTime: CoreMetrics.Timer
  private let commandTime: CoreMetrics.Timer
  private let resyncs: CoreMetrics.Counter
  private let groupsCommitted: CoreMetrics.Counter
  private let groupsRunAgain: CoreMetrics.Counter
  private let groupedItems: CoreMetrics.Counter
  /// `tableweb_http_refused_total{reason}`: one counter per reason, made up front.
  private let refusedRequests: [HTTPRefusal.Reason: CoreMetrics.Counter]
  /// HTTP refusals logged at most once per address every 10 s, counted in between.
  private let refusalLines = AddressLogThrottle<Int>(interval: .seconds(10), empty: 0)
  /// Connections refused by a limit or closed for abuse. Any thread.
  public let refusals: ConnectionRefusalLog
  /// `tableweb_commands_total{type,result}`, made on first use of each pair.
  private var commands: [CommandKey: CoreMetrics.Counter] = [:]
  /// When each open connection opened, and from where, for its closing line.
  private var openConnections: [ConnectionID: (address: String, since: ContinuousClock.Instant)] =
    [:]
  private let clock = ContinuousClock()
  private var lastSessionCount = 0

  private struct CommandKey: Hashable {
    let type: String
    let result: String
  }

  public init(logger: Logger = Logger(label: "tableweb"), recordsMetrics: Bool = true) {
    self.logger = logger
    self.recordsMetrics = recordsMetrics
    registry = PrometheusCollectorRegistry()
    var factory = PrometheusMetricsFactory(registry: registry)
    // A fan-out takes microseconds to tens of milliseconds.
    factory.durationHistogramBuckets["tableweb_fanout_seconds"] = [
      .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
      .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25),
      .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
    ]
    // A command holds the service thread for microseconds; more than 10 ms is a defect
    // (long work belongs elsewhere or in slices), so 10 ms is a bucket bound.
    factory.durationHistogramBuckets["tableweb_command_seconds"] =
      factory.durationHistogramBuckets["tableweb_fanout_seconds"]
    factory.durationHistogramBuckets["tableweb_fanout_written_seconds"] =
      factory.durationHistogramBuckets["tableweb_fanout_seconds"]
    self.factory = factory
    connections = CoreMetrics.Gauge(label: "tableweb_connections", factory: factory)
    sessions = CoreMetrics.Gauge(label: "tableweb_sessions", factory: factory)
    fanout = CoreMetrics.Timer(label: "tableweb_fanout_seconds", factory: factory)
    fanoutWrittenTime = CoreMetrics.Timer(
      label: "tableweb_fanout_written_seconds", factory: factory)
    commandTime = CoreMetrics.Timer(label: "tableweb_command_seconds", factory: factory)
    resyncs = CoreMetrics.Counter(label: "tableweb_queue_resyncs_total", factory: factory)
    groupsCommitted = CoreMetrics.Counter(
      label: "tableweb_group_commits_total", dimensions: [("result", "committed")], factory: factory
    )
    groupsRunAgain = CoreMetrics.Counter(
      label: "tableweb_group_commits_total", dimensions: [("result", "run_again")], factory: factory
    )
    groupedItems = CoreMetrics.Counter(label: "tableweb_group_commit_items_total", factory: factory)
    var refused: [HTTPRefusal.Reason: CoreMetrics.Counter] = [:]
    for reason in HTTPRefusal.Reason.allCases {
      refused[reason] = CoreMetrics.Counter(
        label: "tableweb_http_refused_total", dimensions: [("reason", reason.rawValue)],
        factory: factory)
    }
    refusedRequests = refused
    refusals = ConnectionRefusalLog(logger: logger, factory: recordsMetrics ? factory : nil)
    connections.record(0)
    sessions.record(0)
  }

  /// The registry in the Prometheus text format. Any thread.
  public func prometheusText() -> [UInt8] {
    registry.emitToBuffer()
  }

  func connectionOpened(_ connection: ConnectionID, address: String, openCount: Int) {
    openConnections[connection] = (address, clock.now)
    if recordsMetrics { connections.record(openCount) }
    logger.info(
      "connection opened",
      metadata: ["connection": "\(connection.rawValue)", "address": "\(address)"])
  }

  func connectionClosed(
    _ connection: ConnectionID, session: String?, openCount: Int, sessionCount: Int
  ) {
    if recordsMetrics { connections.record(openCount) }
    self.sessionCount(sessionCount)
    guard let opened = openConnections.removeValue(forKey: connection) else { return }
    let seconds = Self.seconds(clock.now - opened.since)
    logger.info(
      "connection closed",
      metadata: [
        "connection": "\(connection.rawValue)", "address": "\(opened.address)",
        "session": "\(session.map { String($0.prefix(8)) } ?? "-")",
        "duration_s": "\(Double(Int(seconds * 1000)) / 1000)",
      ])
  }

  /// A command was answered: `result` is `ack` or the error code.
  func command(_ type: String, result: String) {
    if result != "ack" {
      logger.notice("command refused", metadata: ["type": "\(type)", "code": "\(result)"])
    }
    guard recordsMetrics else { return }
    let key = CommandKey(type: type, result: result)
    let counter: CoreMetrics.Counter
    if let known = commands[key] {
      counter = known
    } else {
      counter = CoreMetrics.Counter(
        label: "tableweb_commands_total", dimensions: [("type", type), ("result", result)],
        factory: factory)
      commands[key] = counter
    }
    counter.increment()
  }

  /// The transport refused `request` (a foreign `Host`, a cross-site write): counted,
  /// and logged at most once per address every 10 s (the line says how many were not).
  /// Any thread.
  func httpRefused(_ request: HTTPRequest, _ refusal: HTTPRefusal) {
    if recordsMetrics { refusedRequests[refusal.reason]?.increment() }
    guard let refused = refusalLines.record(request.peerAddress, at: clock.now, { $0 += 1 }) else {
      return
    }
    let unlogged = refused - 1  // this one is logged
    logger.notice(
      "request refused",
      metadata: [
        "reason": "\(refusal.reason.rawValue)", "status": "\(refusal.status)",
        "method": "\(request.method)", "path": "\(request.path.prefix(200))",
        "address": "\(request.peerAddress)",
        "host": "\(request.host.map { String($0.prefix(100)) } ?? "-")",
        "origin": "\(request.origin.map { String($0.prefix(100)) } ?? "-")",
        "unlogged_since": "\(unlogged)",
      ])
  }

  /// How many sessions have an open connection (recorded when it changes).
  func sessionCount(_ count: Int) {
    guard recordsMetrics, count != lastSessionCount else { return }
    lastSessionCount = count
    sessions.record(count)
  }

  /// A change reached every viewer's queue `elapsed` after it was received.
  func fannedOut(in elapsed: Duration) {
    guard recordsMetrics else { return }
    fanout.recordNanoseconds(Self.nanoseconds(elapsed))
  }

  /// Records that a change's frames were all handed to the kernel (or dropped) `elapsed`
  /// after the core began handing them out: called on any service thread. Nil when
  /// metrics are off.
  var fanoutWritten: (@Sendable (_ elapsed: Duration) -> Void)? {
    guard recordsMetrics else { return nil }
    let timer = fanoutWrittenTime
    return { elapsed in timer.recordNanoseconds(Self.nanoseconds(elapsed)) }
  }

  /// A client's message held the service thread for `elapsed`: read, applied, its
  /// answers and diffs queued.
  func commandTook(_ elapsed: Duration) {
    guard recordsMetrics else { return }
    commandTime.recordNanoseconds(Self.nanoseconds(elapsed))
  }

  func queueResynchronized() {
    guard recordsMetrics else { return }
    resyncs.increment()
  }

  /// `items` callbacks that queued up on the core thread were committed in one
  /// transaction (SessionHost.runTogether).
  func groupCommitted(items: Int) {
    guard recordsMetrics else { return }
    groupsCommitted.increment()
    groupedItems.increment(by: Int64(items))
  }

  /// A group could not be committed and its callbacks ran again one at a time.
  func groupRunAgain() {
    guard recordsMetrics else { return }
    groupsRunAgain.increment()
  }

  private static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(nanoseconds(duration)) / 1e9
  }
}
