import ArgumentParser
import Foundation
import Glibc
import TableModel

/// One change seen by N viewers: how long until every viewer has it, and what an idle
/// connection costs the server. Each count of viewers is measured with each count of
/// service threads (`--clients 1000 --clients 10000 --service-threads 1 --service-threads
/// 2`), a fresh server for each, in one run; beside the clients' view it prints the
/// server's own: from the commit until the change's last frame is handed to the kernel
/// (`tableweb_fanout_written_seconds`), which the clients' CPU does not blur. The server is the real `tableweb serve` in its own
/// process on a loopback port, so that its memory is measured alone; the viewers are
/// real WebSocket clients, each its own session, all on one editable list.
struct FanoutBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fanout",
    abstract: "Latency of one change to N viewers, and server memory per idle connection.")

  @Option(help: "Connected viewers, each its own session on the changed list; repeatable.")
  var clients: [Int] = [1000]

  @Option(help: "The server's service threads (serve --service-threads); repeatable.")
  var serviceThreads: [Int] = [1]

  @Option(help: "Changes to time.")
  var rounds = 200

  @Option(help: "The tableweb executable (default: next to this one).")
  var server: String?

  @Flag(
    help: """
      Time the changes twice in the same run: with presence quiet (nobody reports an \
      activity: presence off), then with viewers reporting activities all along (presence \
      on, a presence to every viewer every 100 ms).
      """)
  var presence = false

  @Option(help: "With --presence: viewers that report an activity, one change each per round.")
  var activeViewers = 20

  /// What one server with `threads` service threads and `clients` viewers measured.
  struct Figures {
    var clients: Int
    var threads: Int
    var serverCPU: Double
    var written: FanoutWrittenHistogram.Summary
    var p50: Double
    var p99: Double
  }

  func run() throws {
    var all: [Figures] = []
    for count in clients {
      for threads in serviceThreads {
        print("— \(count) viewers, \(threads) service thread\(threads == 1 ? "" : "s")")
        all.append(try measure(clients: count, threads: threads))
      }
    }
    guard all.count > 1 else { return }
    print(
      "\nviewers  threads  server CPU/change  commit → last frame to kernel (mean, p99 ≤)  all have it p50 / p99"
    )
    for figures in all {
      print(
        "\(pad(figures.clients, 7))  \(pad(figures.threads, 7))  \(pad(format(figures.serverCPU) + " ms", 17))  "
          + pad(
            "\(format(figures.written.mean)) ms, \(format(figures.written.p99Bound)) ms", 43)
          + "  \(format(figures.p50)) / \(format(figures.p99)) ms")
    }
    print("(2 cores shared; load average \(loadAverage()))")
  }

  private func pad(_ value: Any, _ width: Int) -> String {
    let text = "\(value)"
    return String(repeating: " ", count: max(0, width - text.count)) + text
  }

  func measure(clients: Int, threads: Int) throws -> Figures {
    let limit = raiseFileLimit()
    guard clients + 64 <= limit else {
      throw ValidationError(
        "\(clients) clients need more than the \(limit) file descriptors allowed")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tablebench-fanout-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let port = try freeLoopbackPort()
    let process = try BenchmarkServer.start(
      executable: server, port: port, database: folder.appendingPathComponent("fanout.sqlite").path,
      environment: ["TABLEWEB_SERVICE_THREADS": String(threads)])
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    let pid = process.processIdentifier
    let sockets = FanoutClients(port: port)
    try BenchmarkServer.wait(for: sockets, process: process)

    let changer = try sockets.open()
    let target = try findEditableList(sockets, changer)
    print(
      "server pid \(pid), port \(port); changing row \(target.row) of \(target.list) (\"\(target.title)\")"
    )

    let rssBefore = try residentKiB(of: pid)
    let joinStart = ContinuousClock.now
    var presenceSeen: [ContinuousClock.Instant] = []
    try joinViewers(
      sockets, count: clients, rootRow: target.rootRow, list: target.list, observer: changer
    ) { presenceSeen.append(.now) }
    let joinTime = ContinuousClock.now - joinStart
    Thread.sleep(forTimeInterval: 0.5)
    let rssAfter = try residentKiB(of: pid)
    try sockets.pump(timeoutMilliseconds: 10) { index, message in
      if index == changer, message.starts(with: Array(#"{"type":"presence""#.utf8)) {
        presenceSeen.append(.now)
      }
    }

    let quiet = try timeChanges(
      sockets, clients: clients, changer: changer, target: target, pid: pid, port: port,
      from: 0, activity: nil)
    let busy =
      presence
      ? try timeChanges(
        sockets, clients: clients, changer: changer, target: target, pid: pid, port: port,
        from: rounds, activity: min(activeViewers, clients))
      : nil
    let perConnection = Double(rssAfter - rssBefore) / Double(clients)
    print("\(clients) viewers joined in \(format(milliseconds(joinTime))) ms")
    let most = Self.mostWithin(.milliseconds(100), presenceSeen)
    print(
      "presence while \(clients) viewers joined: \(presenceSeen.count) to a viewer already there, "
        + "at most \(most) in any 100 ms  (goal: ≤ 1)")
    for (label, figures) in [("presence off", quiet), ("presence on", busy)] {
      guard let figures else { continue }
      let prefix = presence ? label + ": " : ""
      print(
        "\(prefix)one change → every viewer has it (\(rounds) changes): "
          + "p50 \(format(percentile(figures.allHaveIt, 0.50))) ms, "
          + "p99 \(format(percentile(figures.allHaveIt, 0.99))) ms, "
          + "max \(format(figures.allHaveIt.last ?? 0)) ms  (goal at 1,000: p99 ≤ 20 ms)")
      print(
        "\(prefix)one change → one viewer: "
          + "p50 \(format(percentile(figures.perViewer, 0.50))) ms, "
          + "p99 \(format(percentile(figures.perViewer, 0.99))) ms")
      print(
        "\(prefix)CPU per change: server \(format(figures.serverCPU)) ms, "
          + "these clients \(format(figures.clientCPU)) ms"
          + "  (2 cores shared; load average \(loadAverage()))")
      print(
        "\(prefix)server side, commit → the change's last frame handed to the kernel "
          + "(\(figures.written.count) changes): mean \(format(figures.written.mean)) ms, "
          + "p50 ≤ \(format(figures.written.p50Bound)) ms, "
          + "p99 ≤ \(format(figures.written.p99Bound)) ms  (tableweb_fanout_written_seconds)")
      if figures.presenceFrames > 0 {
        let why =
          label == "presence on"
          ? "\(activeViewers) viewers changing their activity, one each round"
          : "the last join's, sent when its interval was up"
        print(
          "\(prefix)\(figures.presenceFrames) presence messages reached the viewers while timing "
            + "(\(why))")
      }
    }
    print(
      "server RSS: \(rssBefore / 1024) MiB → \(rssAfter / 1024) MiB with \(clients) idle connections: "
        + "\(format(perConnection)) KiB per connection  (goal at 10,000: ≤ 16 KiB)")
    return Figures(
      clients: clients, threads: threads, serverCPU: quiet.serverCPU, written: quiet.written,
      p50: percentile(quiet.allHaveIt, 0.50), p99: percentile(quiet.allHaveIt, 0.99))
  }

  /// What one series of `rounds` changes measured.
  struct Timing {
    var allHaveIt: [Double] = []
    var perViewer: [Double] = []
    var serverCPU = 0.0
    var clientCPU = 0.0
    var written: FanoutWrittenHistogram.Summary
    var presenceFrames = 0
  }

  /// Times `rounds` changes to the target row; with `activity`, that many viewers change
  /// their activity on the list, one each round, while it runs (presence on).
  private func timeChanges(
    _ sockets: FanoutClients, clients: Int, changer: Int, target: Target, pid: Int32, port: Int,
    from first: Int, activity: Int?
  ) throws -> Timing {
    let viewers = (changer + 1)..<(changer + 1 + clients)
    var presenceFrames = 0
    let presenceMarker = Array(#"{"type":"presence""#.utf8)
    let writtenBefore = try FanoutWrittenHistogram(port: port)
    let serverCPUBefore = try cpuMilliseconds(of: pid)
    let clientCPUBefore = try cpuMilliseconds(of: getpid())
    var allHaveIt: [Double] = []
    var perViewer: [Double] = []
    for round in first..<(first + rounds) {
      if let activity, activity > 0 {
        let viewer = viewers.lowerBound + round % activity
        let kind = (round / activity) % 2 == 0 ? #""swiping""# : "null"
        try sockets.send(
          #"{"type":"activity","list":"\#(target.list)","row":"\#(target.row)","kind":\#(kind)}"#,
          to: viewer)
      }
      let started = ContinuousClock.now
      try sockets.send(
        #"{"type":"update","list":"\#(target.list)","row":"\#(target.row)","text":"Fanout \#(round)","ref":\#(round)}"#,
        to: changer)
      var waiting = clients
      var changerDone = false
      while waiting > 0 || !changerDone {
        try sockets.pump(timeoutMilliseconds: 5000) { index, message in
          if index == changer {
            if message.starts(with: Array(#"{"type":"ack""#.utf8)) { changerDone = true }
            if message.starts(with: Array(#"{"type":"error""#.utf8)) {
              throw BenchError(
                "the change was refused: \(String(decoding: message, as: UTF8.self))")
            }
            return
          }
          if message.starts(with: presenceMarker) { presenceFrames += 1 }
          guard message.starts(with: Array(#"{"type":"diff""#.utf8)) else { return }
          let elapsed = ContinuousClock.now - started
          perViewer.append(milliseconds(elapsed))
          waiting -= 1
          if waiting == 0 { allHaveIt.append(milliseconds(elapsed)) }
        }
        if ContinuousClock.now - started > .seconds(30) {
          throw BenchError("round \(round): \(waiting) viewers still wait after 30 s")
        }
      }
      // Stay under the server's per-connection rate limit (50 commands/s).
      let spent = ContinuousClock.now - started
      if spent < .milliseconds(25) {
        Thread.sleep(forTimeInterval: Double((.milliseconds(25) - spent) / .milliseconds(1)) / 1000)
      }
    }
    let serverCPU = (try cpuMilliseconds(of: pid) - serverCPUBefore) / Double(rounds)
    let written = try FanoutWrittenHistogram(port: port).since(writtenBefore)
    let clientCPU = (try cpuMilliseconds(of: getpid()) - clientCPUBefore) / Double(rounds)
    return Timing(
      allHaveIt: allHaveIt.sorted(), perViewer: perViewer.sorted(), serverCPU: serverCPU,
      clientCPU: clientCPU, written: written, presenceFrames: presenceFrames)
  }

  /// The most of `instants` (in order) within any `window`.
  static func mostWithin(_ window: Duration, _ instants: [ContinuousClock.Instant]) -> Int {
    var most = 0
    var start = 0
    for (index, instant) in instants.enumerated() {
      while instant - instants[start] >= window { start += 1 }
      most = max(most, index - start + 1)
    }
    return most
  }

  // MARK: - Clients

  struct Target {
    var rootRow: String
    var list: String
    var title: String
    var row: String
    var version: Int
  }

  /// Looks through the root screen's rows for the smallest editable list with rows, as a
  /// person would: tap, look, go back. The changer then stays on it, a viewer too.
  private func findEditableList(_ sockets: FanoutClients, _ changer: Int) throws -> Target {
    try sockets.send(#"{"type":"hello","session":null}"#, to: changer)
    let root = try nextScreen(sockets, changer)
    let rootList = root["list"]!.stringValue!
    let rows = root["sections"]?.arrayValue?.flatMap { $0["rows"]?.arrayValue ?? [] } ?? []
    var best: (target: Target, size: Int)?
    for row in rows where row["accessory"]?.stringValue == "disclosure" {
      let id = row["id"]!.stringValue!
      try sockets.send(#"{"type":"tap","list":"\#(rootList)","row":"\#(id)"}"#, to: changer)
      let screen = try nextScreen(sockets, changer)
      let sections = screen["sections"]?.arrayValue ?? []
      let size = sections.reduce(0) { $0 + ($1["count"]?.intValue ?? 0) }
      if screen["editable"]?.boolValue == true,
        let first = sections.first?["rows"]?.arrayValue?.first,
        size < best?.size ?? .max
      {
        let target = Target(
          rootRow: id, list: screen["list"]!.stringValue!, title: screen["title"]!.stringValue!,
          row: first["id"]!.stringValue!, version: screen["version"]!.intValue!)
        best = (target, size)
      }
      try sockets.send(#"{"type":"back"}"#, to: changer)
      _ = try nextScreen(sockets, changer)
    }
    guard let best else { throw BenchError("no row of the root screen leads to an editable list") }
    try sockets.send(
      #"{"type":"tap","list":"\#(rootList)","row":"\#(best.target.rootRow)"}"#, to: changer)
    _ = try nextScreen(sockets, changer)
    return best.target
  }

  private func nextScreen(_ sockets: FanoutClients, _ client: Int) throws -> JSONValue {
    var screen: JSONValue?
    let deadline = ContinuousClock.now + .seconds(10)
    while screen == nil {
      guard ContinuousClock.now < deadline else { throw BenchError("no screen within 10 s") }
      try sockets.pump(timeoutMilliseconds: 1000) { index, message in
        guard index == client, let value = try? JSONValue(parsing: message) else { return }
        if value["type"]?.stringValue == "screen" { screen = value["screen"] }
      }
    }
    return screen!
  }

  /// Connects `count` viewers, each saying hello and tapping its way to `list`, a few
  /// hundred at a time; returns when every one shows it.
  /// `observer` (a client already on `list`) calls `sawPresence` for each `presence`.
  private func joinViewers(
    _ sockets: FanoutClients, count: Int, rootRow: String, list: String, observer: Int,
    sawPresence: () -> Void
  ) throws {
    let first = sockets.clients.count
    var opened = 0
    var ready = 0
    var handshaken = Set<Int>()
    let listMarker = Array(#""list":"\#(list)""#.utf8)
    let deadline = ContinuousClock.now + .seconds(120)
    while ready < count {
      guard ContinuousClock.now < deadline else {
        throw BenchError("only \(ready) of \(count) viewers joined in 120 s")
      }
      while opened < count && opened - ready < 200 {
        _ = try sockets.open()
        opened += 1
      }
      try sockets.pump(timeoutMilliseconds: 100) { index, message in
        if index == observer, message.starts(with: Array(#"{"type":"presence""#.utf8)) {
          sawPresence()
        }
        guard index >= first else { return }
        if !handshaken.contains(index) {
          handshaken.insert(index)
          try sockets.send(#"{"type":"hello","session":null}"#, to: index)
        }
        if message.starts(with: Array(#"{"type":"screen""#.utf8)) {
          if message.firstRange(of: listMarker) != nil {
            ready += 1
          } else {
            try sockets.send(
              #"{"type":"tap","list":"\#(rootListOf(message))","row":"\#(rootRow)"}"#, to: index)
          }
        }
      }
      // A connection whose upgrade completed but sent nothing yet needs its hello.
      for index in first..<sockets.clients.count
      where sockets.clients[index].isOpen && !handshaken.contains(index) {
        handshaken.insert(index)
        try sockets.send(#"{"type":"hello","session":null}"#, to: index)
      }
    }
  }

  private func rootListOf(_ message: [UInt8]) -> String {
    (try? JSONValue(parsing: message))?["screen"]?["list"]?.stringValue ?? ""
  }
}

/// The server's `tableweb_fanout_written_seconds` histogram, read from `GET /metrics`.
struct FanoutWrittenHistogram {
  static let name = "tableweb_fanout_written_seconds"
  /// Cumulative counts by upper bound in milliseconds (`+Inf` last).
  var buckets: [(bound: Double, count: Int)] = []
  var sum = 0.0
  var count = 0

  /// The changes between two readings.
  struct Summary {
    var count: Int
    var mean: Double
    /// The smallest bucket bounds under which half and 99 % of them fell, in milliseconds.
    var p50Bound: Double
    var p99Bound: Double
  }

  init(port: Int) throws {
    let text = try httpGet("/metrics", port: port)
    for line in text.split(separator: "\n") where line.hasPrefix(Self.name) {
      let value = line.split(separator: " ").last.flatMap { Double($0) } ?? 0
      if line.hasPrefix(Self.name + "_sum") { sum = value * 1000 }
      if line.hasPrefix(Self.name + "_count") { count = Int(value) }
      guard line.hasPrefix(Self.name + "_bucket"), let open = line.range(of: "le=\""),
        let close = line[open.upperBound...].firstIndex(of: "\"")
      else { continue }
      let bound = line[open.upperBound..<close]
      buckets.append(
        (bound == "+Inf" ? .infinity : (Double(bound) ?? .infinity) * 1000, Int(value)))
    }
    guard !buckets.isEmpty else {
      throw BenchError("no \(Self.name) in /metrics (a server from before it was measured?)")
    }
  }

  func since(_ earlier: FanoutWrittenHistogram) -> Summary {
    let total = count - earlier.count
    func bound(_ fraction: Double) -> Double {
      for (index, bucket) in buckets.enumerated()
      where Double(bucket.count - earlier.buckets[index].count) >= fraction * Double(total) {
        return bucket.bound
      }
      return .infinity
    }
    return Summary(
      count: total, mean: total > 0 ? (sum - earlier.sum) / Double(total) : 0,
      p50Bound: bound(0.5), p99Bound: bound(0.99))
  }
}
