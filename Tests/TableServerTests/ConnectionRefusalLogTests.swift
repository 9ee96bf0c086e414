import Foundation
import Logging
import Prometheus
import Testing

@testable import TableServer

@Suite("Refused connections: counted each, logged once a minute per address")
struct ConnectionRefusalLogTests {
  @Test func aCrowdMakesOneLinePerAddressPerMinuteAndEveryRefusalIsCounted() {
    let lines = CapturedLines()
    let registry = PrometheusCollectorRegistry()
    let log = ConnectionRefusalLog(
      logger: Logger(label: "test") { _ in CapturingHandler(lines: lines) },
      factory: PrometheusMetricsFactory(registry: registry))
    let start = ContinuousClock.now
    for second in 0..<59 {
      for _ in 0..<10 {
        log.record(.perAddress, address: "10.0.0.1", at: start + .seconds(second))
      }
      log.record(.headerTimeout, address: "10.0.0.2", at: start + .seconds(second))
    }
    #expect(
      lines.all == [
        "connections refused address=10.0.0.1 reason=per_address refused=per_address=1",
        "connections refused address=10.0.0.2 reason=header_timeout refused=header_timeout=1",
      ])
    // A minute on, the next line tells what was refused since the last one.
    log.record(.total, address: "10.0.0.1", at: start + .seconds(60))
    #expect(
      lines.all.last
        == "connections refused address=10.0.0.1 reason=total refused=per_address=589 total=1")
    let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
    #expect(text.contains(#"tableweb_connections_refused_total{reason="per_address"} 590"#))
    #expect(text.contains(#"tableweb_connections_refused_total{reason="header_timeout"} 59"#))
    #expect(text.contains(#"tableweb_connections_refused_total{reason="total"} 1"#))
    #expect(text.contains(#"tableweb_connections_refused_total{reason="rate_limited"} 0"#))
  }
}

/// Log lines as `message key=value …` (sorted keys, without `next_line_after_s`).
final class CapturedLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []

  var all: [String] { lock.withLock { lines } }

  func append(_ line: String) { lock.withLock { lines.append(line) } }
}

struct CapturingHandler: LogHandler {
  let lines: CapturedLines
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let pairs = (event.metadata ?? [:]).filter { $0.key != "next_line_after_s" }
      .sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    lines.append(([event.message.description] + pairs).joined(separator: " "))
  }
}
