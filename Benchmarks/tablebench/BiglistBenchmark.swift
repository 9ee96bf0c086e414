import ArgumentParser
import Foundation
import Glibc
import TableModel
import TableStore

/// A 1,000,000-row list and a 20-row list in the same `tableweb serve`: what opening,
/// editing and viewing the long one costs, each figure beside the short one's, measured
/// in the same run from outside the server (real WebSocket clients on a loopback port).
struct BiglistBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "biglist",
    abstract:
      "A 1,000,000-row list beside a 20-row one: first screen, edits, others' latency, memory.")

  @Option(help: "Rows of the long list.")
  var rows = 1_000_000

  @Option(help: "Edits of each kind timed, per list.")
  var rounds = 100

  @Option(help: "Viewers for the memory figure (a second figure is taken with one).")
  var viewers = 100

  @Option(help: "The tableweb executable (default: next to this one).")
  var server: String?

  struct Lists {
    static let root = "root"
    static let big = "biglist"
    static let small = "smalllist"
  }

  func run() throws {
    _ = raiseFileLimit()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tablebench-biglist-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("biglist.sqlite").path
    let importTime = try ContinuousClock().measure { try makeDatabase(at: database) }
    print("\(rows) + 20 rows imported in \(format(milliseconds(importTime))) ms")

    let port = try freeLoopbackPort()
    let process = try BenchmarkServer.start(executable: server, port: port, database: database)
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    let pid = process.processIdentifier
    let sockets = FanoutClients(port: port)
    try BenchmarkServer.wait(for: sockets, process: process)
    let bench = Clients(sockets)
    let editor = try bench.join()
    let viewer = try bench.join()
    let other = try bench.join()
    Thread.sleep(forTimeInterval: 0.3)
    let idle = try residentKiB(of: pid)
    print(
      "server pid \(pid), port \(port); RSS at idle \(idle / 1024) MiB  (load average \(loadAverage()))"
    )

    // First screen, and the service thread's longest command while opening.
    var first: [String: [Double]] = [:]
    var longest: [String: [Double]] = [:]
    for list in [Lists.small, Lists.big] {
      let before = try CommandHistogram(port: port)
      defer { longest[list] = [(try? CommandHistogram(port: port))?.longest(since: before) ?? -1] }
      var times: [Double] = []
      for _ in 0..<20 {
        times.append(try bench.open(list, on: viewer))
        try bench.back(on: viewer)
        Thread.sleep(forTimeInterval: 0.045)  // under the per-connection rate limit
      }
      first[list] = times.sorted()
    }
    report(
      "first screen (tap → screen, 20 opens)", first, goal: "≤ 20 ms",
      figure: { percentile($0, 0.5) }, label: "p50")
    report(
      "longest command on the service thread while opening (tableweb_command_seconds bucket)",
      longest, goal: "≤ 10 ms", figure: { $0[0] }, label: "≤")

    // Others' latency while someone opens the list again and again.
    var others: [String: [Double]] = [:]
    _ = try bench.open(Lists.small, on: other)
    for list in [Lists.small, Lists.big] {
      var times: [Double] = []
      for round in 0..<100 {
        try bench.send(#"{"type":"tap","list":"\#(Lists.root)","row":"r\#(list)"}"#, on: viewer)
        times.append(
          try bench.roundTrip(
            #"{"type":"update","list":"\#(Lists.small)","row":"s0","text":"Other \#(round)","ref":\#(round)}"#,
            on: other, until: { $0 == other && $1.starts(with: Array(#"{"type":"ack""#.utf8)) }))
        try bench.settle()
        try bench.back(on: viewer)
        Thread.sleep(forTimeInterval: 0.045)
      }
      others[list] = times.sorted()
    }
    report(
      "another user's edit while this list is opened (ack, 100 opens)", others, goal: "unchanged",
      figure: { percentile($0, 0.5) }, label: "p50")
    report(
      "another user's edit while this list is opened", others, goal: "",
      figure: { percentile($0, 0.99) }, label: "p99")

    // Edits reaching another viewer.
    _ = try bench.open(Lists.big, on: viewer)
    _ = try bench.open(Lists.big, on: editor)
    var edits: [String: [String: [Double]]] = [:]
    for list in [Lists.small, Lists.big] {
      try bench.back(on: viewer)
      try bench.back(on: editor)
      _ = try bench.open(list, on: viewer)
      _ = try bench.open(list, on: editor)
      let prefix = list == Lists.big ? "b" : "s"
      let middle = list == Lists.big ? rows / 2 : 10
      let section = list == Lists.big ? "mainbig" : "main"
      var kinds: [String: [Double]] = [:]
      for round in 0..<rounds {
        // The server names new rows: the insert's diff says what.
        var inserted: [UInt8] = []
        kinds["insert", default: []].append(
          try bench.roundTrip(
            #"{"type":"insert","list":"\#(list)","section":"\#(section)","after":"\#(prefix)\#(middle)","row":{"text":"New \#(round)"}}"#,
            on: editor,
            until: { index, message in
              guard index == viewer, message.starts(with: Array(#"{"type":"diff""#.utf8)) else {
                return false
              }
              inserted = message
              return true
            }))
        try bench.settle()
        guard
          let id = (try? JSONValue(parsing: inserted))?["ops"]?.arrayValue?.first?["row"]?["id"]?
            .stringValue
        else { throw BenchError("the insert's diff names no row") }
        let commands = [
          (
            "update",
            #"{"type":"update","list":"\#(list)","row":"\#(id)","text":"Changed \#(round)"}"#
          ),
          (
            "move",
            #"{"type":"move","list":"\#(list)","row":"\#(id)","section":"\#(section)","after":"\#(prefix)2"}"#
          ),
          ("delete", #"{"type":"delete","list":"\#(list)","rows":["\#(id)"]}"#),
        ]
        for (kind, command) in commands {
          Thread.sleep(forTimeInterval: 0.022)  // under the per-connection rate limit
          kinds[kind, default: []].append(
            try bench.roundTrip(
              command, on: editor,
              until: { $0 == viewer && $1.starts(with: Array(#"{"type":"diff""#.utf8)) }))
          try bench.settle()
        }
        Thread.sleep(forTimeInterval: 0.022)
      }
      edits[list] = kinds.mapValues { $0.sorted() }
    }
    for kind in ["insert", "delete", "move", "update"] {
      let times = edits.mapValues { $0[kind] ?? [] }
      report(
        "\(kind) → another viewer has the diff (\(rounds) each)", times, goal: "p99 ≤ 5 ms, ≤ 2×",
        figure: { percentile($0, 0.5) }, label: "p50")
      report(
        "\(kind) → another viewer", times, goal: "", figure: { percentile($0, 0.99) },
        label: "p99")
    }
    try bench.back(on: viewer)
    try bench.back(on: editor)

    // Memory above idle for viewers of each list.
    for count in [1, viewers] {
      var above: [String: [Double]] = [:]
      for list in [Lists.small, Lists.big] {
        let before = try residentKiB(of: pid)
        var opened: [Int] = []
        for _ in 0..<count {
          let client = try bench.join()
          _ = try bench.open(list, on: client)
          opened.append(client)
        }
        Thread.sleep(forTimeInterval: 0.3)
        above[list] = [Double(try residentKiB(of: pid) - before) / 1024]
        for client in opened { try bench.back(on: client) }
      }
      report(
        "server memory above idle, \(count) viewer\(count == 1 ? "" : "s") (RSS, MiB)", above,
        goal: "≤ 8 MiB", figure: { $0[0] }, label: "")
    }
    print("load average \(loadAverage()) (2 cores, shared)")
  }

  private func report(
    _ title: String, _ values: [String: [Double]], goal: String, figure: ([Double]) -> Double,
    label: String
  ) {
    let small = figure(values[Lists.small] ?? [])
    let big = figure(values[Lists.big] ?? [])
    let ratio = small > 0 ? format(big / small) + "×" : "–"
    print(
      "\(title): \(rows) rows \(label) \(format(big)), 20 rows \(format(small)) (\(ratio))"
        + (goal.isEmpty ? "" : "  (goal \(goal))"))
  }

  /// The root list with a row leading to each list.
  private func makeDatabase(at path: String) throws {
    var text = #"{"id": "\#(Lists.root)", "title": "Lists", "sections": [{"id": "lists", "rows": ["#
    text +=
      #"{"id": "r\#(Lists.small)", "text": "Small", "children": {"id": "\#(Lists.small)", "title": "Small", "editable": true, "sections": [{"id": "main", "rows": ["#
    text += (0..<20).map { #"{"id": "s\#($0)", "text": "Row \#($0)"}"# }.joined(separator: ",")
    text +=
      #"]}]}}, {"id": "r\#(Lists.big)", "text": "Big", "children": {"id": "\#(Lists.big)", "title": "Big", "editable": true, "sections": [{"id": "mainbig", "rows": ["#
    text.reserveCapacity(rows * 40)
    for index in 0..<rows {
      if index > 0 { text += "," }
      text += #"{"id": "b\#(index)", "text": "Row \#(index)"}"#
    }
    text += "]}]}}]}]}"
    let store = try Store(path: path)
    try store.importFile(try AppFile(jsonText: text))
  }
}

/// The benchmark's clients: join, open a list, go back, and time a command until a
/// message arrives.
private final class Clients {
  let sockets: FanoutClients
  init(_ sockets: FanoutClients) { self.sockets = sockets }

  func join() throws -> Int {
    let client = try sockets.open()
    var upgraded = false
    try pumpUntil { index, message in
      // The first message after the upgrade is our cue; the hello goes once it is open.
      index == client && message.starts(with: Array(#"{"type":"screen""#.utf8))
    } idle: {
      if !upgraded, self.sockets.clients[client].isOpen {
        upgraded = true
        try self.sockets.send(#"{"type":"hello","session":null}"#, to: client)
      }
    }
    return client
  }

  func send(_ text: String, on client: Int) throws { try sockets.send(text, to: client) }

  /// Taps the root row leading to `list`; returns the milliseconds until its screen.
  func open(_ list: String, on client: Int) throws -> Double {
    let marker = Array(#""list":"\#(list)""#.utf8)
    return try roundTrip(
      #"{"type":"tap","list":"\#(BiglistBenchmark.Lists.root)","row":"r\#(list)"}"#, on: client,
      until: { index, message in
        index == client && message.starts(with: Array(#"{"type":"screen""#.utf8))
          && message.firstRange(of: marker) != nil
      })
  }

  func back(on client: Int) throws {
    try sockets.send(#"{"type":"back"}"#, to: client)
    try pumpUntil { index, message in
      index == client && message.starts(with: Array(#"{"type":"screen""#.utf8))
    }
  }

  /// Sends `text` and returns the milliseconds until a message satisfies `done`.
  func roundTrip(_ text: String, on client: Int, until done: (Int, [UInt8]) -> Bool) throws
    -> Double
  {
    let started = ContinuousClock.now
    try sockets.send(text, to: client)
    try pumpUntil(done)
    return milliseconds(ContinuousClock.now - started)
  }

  /// Reads whatever else is on its way (acks, other viewers' copies).
  func settle() throws {
    while try sockets.pump(timeoutMilliseconds: 5, { _, _ in }) > 0 {}
  }

  private func pumpUntil(
    _ done: (Int, [UInt8]) -> Bool, idle: () throws -> Void = {}
  ) throws {
    let deadline = ContinuousClock.now + .seconds(60)
    var finished = false
    while !finished {
      guard ContinuousClock.now < deadline else { throw BenchError("no answer within 60 s") }
      try sockets.pump(timeoutMilliseconds: 50) { index, message in
        if message.starts(with: Array(#"{"type":"error""#.utf8)) {
          throw BenchError("refused: \(String(decoding: message, as: UTF8.self))")
        }
        if done(index, message) { finished = true }
      }
      try idle()
    }
  }
}

/// The server's `tableweb_command_seconds` histogram, read from `GET /metrics`: how long
/// the service thread spent on each message.
private struct CommandHistogram {
  /// Cumulative counts by upper bound in milliseconds (`+Inf` last).
  var buckets: [(bound: Double, count: Int)]

  init(port: Int) throws {
    let text = try httpGet("/metrics", port: port)
    buckets = []
    for line in text.split(separator: "\n") where line.hasPrefix("tableweb_command_seconds_bucket")
    {
      guard let open = line.range(of: "le=\""),
        let close = line[open.upperBound...].firstIndex(of: "\""),
        let count = line.split(separator: " ").last.flatMap({ Int(Double($0) ?? -1) })
      else { continue }
      let bound = line[open.upperBound..<close]
      buckets.append((bound == "+Inf" ? .infinity : (Double(bound) ?? .infinity) * 1000, count))
    }
    guard !buckets.isEmpty else { throw BenchError("no tableweb_command_seconds in /metrics") }
  }

  /// The smallest bound under which every command since `earlier` fell, in milliseconds.
  func longest(since earlier: CommandHistogram) -> Double {
    let total = buckets.last!.count - earlier.buckets.last!.count
    for (index, bucket) in buckets.enumerated()
    where bucket.count - earlier.buckets[index].count >= total {
      return bucket.bound
    }
    return .infinity
  }
}
