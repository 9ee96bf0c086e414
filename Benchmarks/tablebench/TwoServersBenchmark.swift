import ArgumentParser
import Foundation
import Glibc
import TableModel

/// Two `tableweb serve` processes on one SQLite file: how long an edit made through one
/// takes to reach a viewer on the other (the other server learns of it by polling the
/// file's `data_version` and reading the change log), beside the same edit reaching a
/// viewer on the server that made it, in the same run.
struct TwoServersBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "twoservers",
    abstract: "Latency of an edit through one server to a viewer on another sharing the file.")

  @Option(help: "Edits to time.")
  var rounds = 200

  @Option(help: "The tableweb executable (default: next to this one).")
  var server: String?

  func run() throws {
    let executable = try BenchmarkServer.tableweb(server)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tablebench-twoservers-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("two.sqlite").path
    let app = folder.appendingPathComponent("app.json")
    let rows = (1...20).map { #"{"id":"R\#($0)","text":"Row \#($0)"}"# }.joined(separator: ",")
    try #"{"id":"L","title":"Two","editable":true,"sections":[{"id":"S","rows":[\#(rows)]}]}"#
      .write(to: app, atomically: true, encoding: .utf8)
    try BenchmarkServer.runToEnd(executable, ["import", app.path, "--db", database])

    let ports = [try freeLoopbackPort(), try freeLoopbackPort()]
    let servers = try ports.map { port in
      try BenchmarkServer.launch(executable, ["serve", "--port", String(port), "--db", database])
    }
    defer {
      for process in servers {
        process.terminate()
        process.waitUntilExit()
      }
    }
    let near = FanoutClients(port: ports[0])
    let far = FanoutClients(port: ports[1])
    for sockets in [near, far] { try BenchmarkServer.waitForPort(sockets.port) }
    let changer = try join(near)
    let nearViewer = try join(near)
    let farViewer = try join(far)

    var random = SplitMix64(seed: 11)
    var sameServer: [Double] = []
    var otherServer: [Double] = []
    for round in 0..<rounds {
      let started = ContinuousClock.now
      try near.send(
        #"{"type":"update","list":"L","row":"R1","text":"Edit \#(round)","ref":\#(round)}"#,
        to: changer)
      var nearDone = false
      var farDone = false
      while !(nearDone && farDone) {
        if ContinuousClock.now - started > .seconds(10) {
          throw BenchError("round \(round): the edit did not reach both viewers in 10 s")
        }
        try near.pump(timeoutMilliseconds: 0) { index, message in
          guard index == nearViewer, isDiff(message) else { return }
          sameServer.append(milliseconds(ContinuousClock.now - started))
          nearDone = true
        }
        try far.pump(timeoutMilliseconds: 1) { index, message in
          guard index == farViewer, isDiff(message) else { return }
          otherServer.append(milliseconds(ContinuousClock.now - started))
          farDone = true
        }
      }
      // Stay under the server's per-connection rate limit, and start each edit at a
      // random point of the other server's 50 ms poll (rounds paced by arrivals would
      // otherwise lock onto its phase).
      Thread.sleep(forTimeInterval: Double(25 + random.next(below: 50)) / 1000)
    }
    sameServer.sort()
    otherServer.sort()
    let show = { (value: Double) in String(format: "%.2f", value) }
    print(
      "an edit → a viewer on the same server (\(rounds) edits): p50 \(show(percentile(sameServer, 0.5))) ms, "
        + "p99 \(show(percentile(sameServer, 0.99))) ms")
    print(
      "an edit → a viewer on the other server: p50 \(show(percentile(otherServer, 0.5))) ms, "
        + "p99 \(show(percentile(otherServer, 0.99))) ms, max \(show(otherServer.last ?? 0)) ms"
        + "  (goal: ≤ 100 ms; load average \(loadAverage()))")
  }

  /// A new connection that said hello and shows the list.
  private func join(_ sockets: FanoutClients) throws -> Int {
    let index = try sockets.open()
    var sentHello = false
    var shown = false
    let deadline = ContinuousClock.now + .seconds(10)
    while !shown {
      guard ContinuousClock.now < deadline else { throw BenchError("no screen within 10 s") }
      try sockets.pump(timeoutMilliseconds: 50) { client, message in
        if client == index, message.starts(with: Array(#"{"type":"screen""#.utf8)) { shown = true }
      }
      if !sentHello && sockets.clients[index].isOpen {
        try sockets.send(#"{"type":"hello","session":null}"#, to: index)
        sentHello = true
      }
    }
    return index
  }
}

private func isDiff(_ message: [UInt8]) -> Bool {
  message.starts(with: Array(#"{"type":"diff""#.utf8))
}
