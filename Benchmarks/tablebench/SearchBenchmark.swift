import ArgumentParser
import Foundation
import TableModel
import TableStore

/// `tablebench search`: searches over a 1,000,000-row list in the SQLite store. First in
/// the store alone (the whole list filtered in SQL: the trigram index, then each word
/// checked on the folded `row.search`), against a baseline measured in the same run:
/// reading the whole list's snapshot, which filtering in memory would need first. Then
/// through `tableweb serve`: one client searches while another edits a list of its own
/// every 25 ms, and beside each search is the longest the other waited for an answer
/// to a command sent while the search ran.
struct SearchBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "search", abstract: "SQLite store: searching a 1,000,000-row list.")

  @Option(help: "Rows in the list.")
  var rows = 1_000_000

  @Option(help: "Timed runs of each search (the median is printed).")
  var runs = 5

  @Option(help: "The tableweb executable (default: next to this one).")
  var server: String?

  static let queries = ["CREME brulee", "row 99999", "item 5"]

  func run() throws {
    _ = raiseFileLimit()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tablebench-search-\(getpid()).sqlite"
    ).path
    defer {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    print(
      "tablebench search — SQLite \(Database.libraryVersion); \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverages())"
    )
    var rowsJSON = (0..<rows).map {
      #"{"id":"r\#($0)","text":"Row \#($0)","detail":"Item \#($0 % 997)"}"#
    }
    rowsJSON[rows / 2] = #"{"id":"dessert","text":"Crème Brûlée","detail":"Café"}"#
    // The other user's list, behind the first row.
    let otherRows = (0..<10).map { #"{"id":"o\#($0)","text":"Other \#($0)"}"# }
    rowsJSON[0] =
      #"{"id":"other","text":"Other","children":{"id":"O","title":"Other","editable":true,"sections":[{"id":"OS","rows":[\#(otherRows.joined(separator: ","))]}]}}"#
    var counts: [String: Int] = [:]
    do {
      let store = try Store(path: path)
      let started = ContinuousClock.now
      try store.importJSON(
        #"{"id":"L","title":"Big","searchable":true,"sections":[{"id":"S","rows":[\#(rowsJSON.joined(separator: ","))]}]}"#
      )
      print("  imported \(rows) rows in \(started.duration(to: .now))")
      let snapshot = try median { _ = try store.snapshot(of: "L") }
      print("  whole list's snapshot (baseline): \(format(snapshot, places: 1)) ms")
      for text in Self.queries {
        var found = 0
        let time = try median { found = try store.search(SearchQuery(text), in: "L").numberOfRows }
        counts[text] = found
        print(
          "  search \"\(text)\": \(format(time, places: 1)) ms, \(found) rows (\(format(time / snapshot, places: 2))× the snapshot)"
        )
      }
    }
    try served(database: path, counts: counts)
  }

  /// The searches through a server, with another user editing meanwhile.
  private func served(database: String, counts: [String: Int]) throws {
    let port = try freeLoopbackPort()
    let process = try BenchmarkServer.start(executable: server, port: port, database: database)
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    let sockets = FanoutClients(port: port)
    try BenchmarkServer.wait(for: sockets, process: process)
    let bench = SearchClients(sockets)
    let searcher = try bench.join()
    let other = try bench.join()
    try bench.send(#"{"type":"tap","list":"L","row":"other"}"#, on: other)
    try bench.pump(until: { $0 == other && bench.isScreen($1) })
    print(
      "  through tableweb serve (port \(port)): one client searches list L, another edits list O every 25 ms (load average \(loadAverages()))"
    )
    let idle = try bench.otherWaits(for: .seconds(5), other: other)
    print("    the other's longest wait with no search: \(format(idle, places: 1)) ms")
    for text in Self.queries {
      var times: [Double] = []
      var longest = 0.0
      for _ in 0..<runs {
        let (time, waited) = try bench.search(text, on: searcher, other: other)
        times.append(time)
        longest = max(longest, waited)
        // End the search, so that the next one is read again.
        try bench.send(#"{"type":"search","list":"L","query":""}"#, on: searcher)
        try bench.pump(until: { $0 == searcher && bench.isScreen($1) })
      }
      times.sort()
      print(
        "    search \"\(text)\": \(format(times[times.count / 2], places: 1)) ms to its screen (median of \(runs)), \(counts[text] ?? 0) rows; the other waited at most \(format(longest, places: 1)) ms"
      )
    }
  }

  private func median(_ body: () throws -> Void) throws -> Double {
    var samples: [Duration] = []
    for _ in 0..<runs {
      let start = ContinuousClock.now
      try body()
      samples.append(start.duration(to: .now))
    }
    return BenchmarkTimings.milliseconds(BenchmarkTimings.median(samples))
  }

  private func loadAverages() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
      .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
  }
}

/// Two clients on one thread: the searcher, and the other user who edits list O every
/// 25 ms (under the server's 50 commands a second) and notes how long each answer took.
private final class SearchClients {
  let sockets: FanoutClients
  private var nextRef = 1
  /// The other's command in flight: its ref and when it was sent.
  private var pending: (ref: Int, sent: ContinuousClock.Instant)?
  private var lastSent = ContinuousClock.now
  /// Each answered command of the other's: when it was sent and answered.
  private var answered: [(sent: ContinuousClock.Instant, answered: ContinuousClock.Instant)] = []

  init(_ sockets: FanoutClients) { self.sockets = sockets }

  func isScreen(_ message: [UInt8]) -> Bool {
    message.starts(with: Array(#"{"type":"screen""#.utf8))
  }

  func join() throws -> Int {
    let client = try sockets.open()
    var upgraded = false
    try pump(
      until: { $0 == client && self.isScreen($1) },
      idle: {
        if !upgraded, self.sockets.clients[client].isOpen {
          upgraded = true
          try self.sockets.send(#"{"type":"hello","session":null}"#, to: client)
        }
      })
    return client
  }

  func send(_ text: String, on client: Int) throws { try sockets.send(text, to: client) }

  /// Pumps until a message satisfies `done`, calling `idle` between waits.
  func pump(
    until done: (Int, [UInt8]) -> Bool, other: Int? = nil, idle: () throws -> Void = {}
  ) throws {
    let deadline = ContinuousClock.now + .seconds(120)
    var finished = false
    while !finished {
      guard ContinuousClock.now < deadline else { throw BenchError("no answer within 120 s") }
      try idle()
      if let other { try editIfDue(other) }
      try sockets.pump(timeoutMilliseconds: 2) { index, message in
        if index == other { noteAnswer(message) }
        if done(index, message) { finished = true }
      }
    }
  }

  /// The other's longest wait over `duration` with nothing else going on.
  func otherWaits(for duration: Duration, other: Int) throws -> Double {
    let start = ContinuousClock.now
    try pump(until: { _, _ in ContinuousClock.now - start > duration }, other: other)
    return try longestWait(from: start, to: .now, other: other)
  }

  /// Searches and returns the milliseconds until the results' screen came, and the
  /// longest the other waited for a command sent before it came.
  func search(_ text: String, on searcher: Int, other: Int) throws -> (Double, Double) {
    let start = ContinuousClock.now
    try sockets.send(#"{"type":"search","list":"L","query":"\#(text)","ref":0}"#, to: searcher)
    let marker = Array(#""search":"#.utf8)
    try pump(
      until: { $0 == searcher && self.isScreen($1) && $1.firstRange(of: marker) != nil },
      other: other)
    let end = ContinuousClock.now
    return (milliseconds(end - start), try longestWait(from: start, to: end, other: other))
  }

  /// The longest of the other's waits for commands in flight between `start` and `end`
  /// (the one in flight at `end` waited for).
  private func longestWait(
    from start: ContinuousClock.Instant, to end: ContinuousClock.Instant, other: Int
  ) throws -> Double {
    if pending != nil { try pump(until: { _, _ in self.pending == nil }, other: other, idle: {}) }
    let overlapping = answered.filter { $0.sent < end && $0.answered > start }
    answered.removeAll()
    // None overlapped (a search shorter than the other's 25 ms pause): nobody waited.
    return overlapping.map { milliseconds($0.answered - $0.sent) }.max() ?? 0
  }

  private func editIfDue(_ other: Int) throws {
    guard pending == nil, ContinuousClock.now - lastSent >= .milliseconds(25) else { return }
    let ref = nextRef
    nextRef += 1
    lastSent = .now
    pending = (ref, lastSent)
    try sockets.send(
      #"{"type":"update","list":"O","row":"o\#(ref % 10)","text":"Other \#(ref)","ref":\#(ref)}"#,
      to: other)
  }

  private func noteAnswer(_ message: [UInt8]) {
    guard let pending,
      message.starts(with: Array(#"{"type":"ack""#.utf8))
        || message.starts(with: Array(#"{"type":"error""#.utf8)),
      message.firstRange(of: Array(#""ref":\#(pending.ref)"#.utf8)) != nil
    else { return }
    answered.append((pending.sent, .now))
    self.pending = nil
  }
}
