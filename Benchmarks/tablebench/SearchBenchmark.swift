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
/// to a command sent while the search ran (from sending it until its end's screen), and
/// its 99th percentile. After each search the other goes on alone for as long as the
/// search took: the baseline printed beside it, the same figures with no search running,
/// so that what the search costs others shows apart from the machine's own scheduling.
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
        #"{"id":"L","title":"Big","editable":true,"searchable":true,"sections":[{"id":"S","rows":[\#(rowsJSON.joined(separator: ","))]}]}"#
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
    bench.startEditing(other) {
      #"{"type":"update","list":"O","row":"o\#($0 % 10)","text":"Other \#($0)","ref":\#($0)}"#
    }
    let idle = try bench.waits(of: other, for: .seconds(5))
    print("    the other's longest wait with no search: \(summary(idle)) in 5 s)")
    for text in Self.queries {
      var times: [Double] = []
      var during: [Double] = []
      var baseline: [Double] = []
      for _ in 0..<runs {
        let (time, waits, window) = try bench.search(text, on: searcher, other: other)
        times.append(time)
        during += waits
        // The baseline: as long again with no search running.
        baseline += try bench.waits(of: other, for: window)
      }
      times.sort()
      print(
        "    search \"\(text)\": \(format(times[times.count / 2], places: 1)) ms to its screen (median of \(runs)), \(counts[text] ?? 0) rows; the other waited at most \(summary(during))); with no search, as long again: at most \(summary(baseline)))"
      )
    }
    try resultsEdited(bench, searcher: searcher, other: other)
  }

  /// The last query's results shown while a third user renames a row among them every
  /// 3 s, slower than they are read: each edit has them read again and sent as one diff
  /// from the results shown (the diff of 611,054 results made on the search thread);
  /// then as long again with no search shown, the third user still editing.
  private func resultsEdited(_ bench: SearchClients, searcher: Int, other: Int) throws {
    let editor = try bench.join()
    let text = Self.queries.last!
    try bench.showSearch(text, on: searcher)
    // Rows 5, 15, 25, …: each stays among the results, renamed.
    bench.startEditing(editor, every: .seconds(3)) {
      #"{"type":"update","list":"L","row":"r\#(5 + ($0 % 100) * 10)","text":"Row \#(5 + ($0 % 100) * 10) edit \#($0)","ref":\#($0)}"#
    }
    var diffs = 0
    var screens = 0
    let start = ContinuousClock.now
    let duration = Duration.seconds(9)
    try bench.pump(until: { index, message in
      if index == searcher {
        if bench.isDiff(message) { diffs += 1 }
        if bench.isScreen(message) { screens += 1 }
      }
      return ContinuousClock.now - start > duration
    })
    let others = try bench.waits(of: other, from: start, to: .now)
    let editors = try bench.waits(of: editor, from: start, to: .now)
    try bench.endSearch(on: searcher)
    _ = try bench.waits(of: other, from: start, to: .now)
    _ = try bench.waits(of: editor, from: start, to: .now)
    let baseline = try bench.waits(of: other, for: duration)
    let editorsBaseline = try bench.waits(of: editor, for: duration)
    try bench.stopEditing(editor)
    print(
      "    search \"\(text)\" shown for 9 s while a third user renames a row among its results every 3 s (the searcher got \(diffs) diffs and \(screens) screens): the other waited at most \(summary(others))), the third user at most \(summary(editors))); with no search, as long again: the other at most \(summary(baseline))), the third user at most \(summary(editorsBaseline)))"
    )
  }

  /// "L ms (p99 P ms, N commands": the longest of `waits`, its 99th percentile, its count.
  private func summary(_ waits: [Double]) -> String {
    "\(format(waits.max() ?? 0, places: 1)) ms (p99 \(format(percentile(waits, 0.99), places: 1)) ms, \(waits.count) commands"
  }

  /// The `fraction` percentile of `samples` (nearest rank); 0 with none.
  private func percentile(_ samples: [Double], _ fraction: Double) -> Double {
    guard !samples.isEmpty else { return 0 }
    let sorted = samples.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count, max(1, rank)) - 1]
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
}

/// A client that edits a row of a list every `interval` (25 ms: under the server's 50
/// commands a second) and notes how long each answer took.
private final class Editor {
  let client: Int
  let interval: Duration
  /// The command for the n-th edit.
  let command: (Int) -> String
  /// The command in flight: its ref and when it was sent.
  var pending: (ref: Int, sent: ContinuousClock.Instant)?
  /// When the last command was sent (the first goes at once).
  var lastSent: ContinuousClock.Instant
  var nextRef = 1
  /// Each answered command: when it was sent and answered.
  var answered: [(sent: ContinuousClock.Instant, answered: ContinuousClock.Instant)] = []

  init(client: Int, interval: Duration, command: @escaping (Int) -> String) {
    self.client = client
    self.interval = interval
    lastSent = .now - interval
    self.command = command
  }
}

/// The clients on one thread: the searcher, and the editors (the other user, who edits
/// list O; and, for the last part, one who edits rows among the results).
private final class SearchClients {
  let sockets: FanoutClients
  private var editors: [Editor] = []

  init(_ sockets: FanoutClients) { self.sockets = sockets }

  func isScreen(_ message: [UInt8]) -> Bool {
    message.starts(with: Array(#"{"type":"screen""#.utf8))
  }

  func isDiff(_ message: [UInt8]) -> Bool {
    message.starts(with: Array(#"{"type":"diff""#.utf8))
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

  /// Makes `client` edit every `interval` from now on, with `command(ref)`.
  func startEditing(
    _ client: Int, every interval: Duration = .milliseconds(25),
    command: @escaping (Int) -> String
  ) {
    editors.append(Editor(client: client, interval: interval, command: command))
  }

  /// Stops `client`'s edits (once its command in flight is answered).
  func stopEditing(_ client: Int) throws {
    guard let editor = editors.first(where: { $0.client == client }) else { return }
    if editor.pending != nil { try pump(until: { _, _ in editor.pending == nil }) }
    editors.removeAll { $0.client == client }
  }

  /// Pumps until a message satisfies `done`, calling `idle` between waits; the editors
  /// edit meanwhile.
  func pump(until done: (Int, [UInt8]) -> Bool, idle: () throws -> Void = {}) throws {
    let deadline = ContinuousClock.now + .seconds(120)
    var finished = false
    while !finished {
      guard ContinuousClock.now < deadline else { throw BenchError("no answer within 120 s") }
      try idle()
      for editor in editors { try editIfDue(editor) }
      try sockets.pump(timeoutMilliseconds: 2) { index, message in
        if let editor = editors.first(where: { $0.client == index }) {
          noteAnswer(message, of: editor)
        }
        if done(index, message) { finished = true }
      }
    }
  }

  /// `client`'s waits (milliseconds) over `duration` with nothing else going on.
  func waits(of client: Int, for duration: Duration) throws -> [Double] {
    let start = ContinuousClock.now
    try pump(until: { _, _ in ContinuousClock.now - start > duration })
    return try waits(of: client, from: start, to: .now)
  }

  /// Searches, then ends the search (so that the next one is read again). Returns the
  /// milliseconds until the results' screen came, `other`'s waits for commands in
  /// flight from the search's start until its end's screen came, and that span.
  func search(_ text: String, on searcher: Int, other: Int) throws -> (
    Double, [Double], Duration
  ) {
    let start = ContinuousClock.now
    try showSearch(text, on: searcher)
    let shown = ContinuousClock.now
    try endSearch(on: searcher)
    let end = ContinuousClock.now
    return (milliseconds(shown - start), try waits(of: other, from: start, to: end), end - start)
  }

  /// Searches and waits for the results' screen.
  func showSearch(_ text: String, on searcher: Int) throws {
    try sockets.send(#"{"type":"search","list":"L","query":"\#(text)","ref":0}"#, to: searcher)
    let marker = Array(#""search":"#.utf8)
    try pump(until: { $0 == searcher && self.isScreen($1) && $1.firstRange(of: marker) != nil })
  }

  /// Ends the search and waits for the list's screen.
  func endSearch(on searcher: Int) throws {
    try sockets.send(#"{"type":"search","list":"L","query":""}"#, to: searcher)
    try pump(until: { $0 == searcher && self.isScreen($1) })
  }

  /// `client`'s waits for commands in flight between `start` and `end` (the one in
  /// flight at `end` waited for). None overlap a search shorter than the 25 ms pause:
  /// nobody waited.
  func waits(
    of client: Int, from start: ContinuousClock.Instant, to end: ContinuousClock.Instant
  ) throws -> [Double] {
    guard let editor = editors.first(where: { $0.client == client }) else { return [] }
    if editor.pending != nil { try pump(until: { _, _ in editor.pending == nil }) }
    let overlapping = editor.answered.filter { $0.sent < end && $0.answered > start }
    editor.answered.removeAll { $0.answered <= end }
    return overlapping.map { milliseconds($0.answered - $0.sent) }
  }

  private func editIfDue(_ editor: Editor) throws {
    guard editor.pending == nil, ContinuousClock.now - editor.lastSent >= editor.interval
    else { return }
    let ref = editor.nextRef
    editor.nextRef += 1
    editor.lastSent = .now
    editor.pending = (ref, editor.lastSent)
    try sockets.send(editor.command(ref), to: editor.client)
  }

  private func noteAnswer(_ message: [UInt8], of editor: Editor) {
    guard let pending = editor.pending,
      message.starts(with: Array(#"{"type":"ack""#.utf8))
        || message.starts(with: Array(#"{"type":"error""#.utf8)),
      message.firstRange(of: Array(#""ref":\#(pending.ref)"#.utf8)) != nil
    else { return }
    editor.answered.append((pending.sent, .now))
    editor.pending = nil
  }
}
