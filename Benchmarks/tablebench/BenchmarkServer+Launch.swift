import Foundation
import TableStore

extension BenchmarkServer {
  /// `tableweb` with `arguments`, warnings only on its log (unless the environment says
  /// otherwise; `environment` adds to it likewise) and its standard output dropped.
  static func launch(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:]
  ) throws -> ChildProcess {
    try ChildProcess(
      [executable] + arguments,
      environment: ProcessInfo.processInfo.environment.merging(
        environment.merging(["TABLEWEB_LOG_LEVEL": "warning"]) { given, _ in given }
      ) { current, _ in current },
      output: .null)
  }

  /// Runs `tableweb` with `arguments` to the end; throws when it fails.
  static func runToEnd(_ executable: String, _ arguments: [String]) throws {
    let process = try launch(executable, arguments)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchError("tableweb \(arguments.first ?? "") failed with \(process.terminationStatus)")
    }
  }

  /// Returns once something listens on the loopback `port`; throws after 30 s.
  static func waitForPort(_ port: UInt16) throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while !canConnect(port: port) {
      guard ContinuousClock.now < deadline else {
        throw BenchError("port \(port) not open in 30 s")
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
  }
}
