import ArgumentParser
import Foundation
import TableModel
import TableStore

/// `tablebench store`: committed single-row changes per second, the time to read a
/// 100-row window anywhere in a 1,000,000-row list, and the time to import that list.
/// Baselines measured in the same run: a bare one-row UPDATE per transaction, and the
/// same window read with SQL's OFFSET (which steps over every row before the window).
struct StoreBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "store", abstract: "SQLite store: commits per second, window reads, import.")

  @Option(help: "Rows in the big list.")
  var rows = 1_000_000

  @Option(help: "Changes of each kind to commit.")
  var changes = 20_000

  @Option(help: "Window reads to time.")
  var windows = 500

  @Flag(help: "Only the committed changes (skip the big list).")
  var changesOnly = false

  @Option(
    help: """
      Also measure committed changes on this PostgreSQL database (postgres://…), beside \
      SQLite's in the same run. Its data is replaced.
      """)
  var postgres: String?

  @Option(help: "Changes of each kind to commit on PostgreSQL.")
  var postgresChanges = 3_000

  @Option(help: "Connections committing at once in the concurrent PostgreSQL measurement.")
  var postgresWriters = 3

  func run() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tablebench-store-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    print("tablebench store — SQLite \(Database.libraryVersion), WAL, synchronous = NORMAL")
    print(
      "  machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverages())"
    )
    print(
      "  (a committed change is in the WAL when the call returns: it survives the process being")
    print("   killed; a power loss may lose the last commits, never half of one)")
    try measureChanges(path: folder.appendingPathComponent("changes.sqlite").path)
    if let postgres { try measurePostgresChanges(url: postgres) }
    if !changesOnly { try measureBigList(path: folder.appendingPathComponent("big.sqlite").path) }
  }

  // MARK: Changes

  /// The list the change measurements edit: `count` rows, a switch and a row it shows.
  static func benchList(count: Int) -> String {
    let rowsJSON = (0..<count).map { #"{"id": "r\#($0)", "text": "Row \#($0)"}"# }.joined(
      separator: ",")
    return
      #"{"id": "L", "title": "Bench", "editable": true, "selection": "multiple", "sections": [{"id": "S", "rows": [{"id": "sw", "text": "Switch", "switch": false}, {"id": "dep", "text": "Shown when on", "showWhen": {"row": "sw", "on": true}}, \#(rowsJSON)]}]}"#
  }

  private func measureChanges(path: String) throws {
    let count = 1_000
    let store = try Store(path: path)
    try store.importJSON(Self.benchList(count: count))
    var random = Generator(seed: 42)
    print(
      "\nCommitted single-row changes (one transaction each, list of \(count) rows; best of 5 rounds):"
    )

    let baseline = try Database(path: path)
    try baseline.execute("PRAGMA synchronous = NORMAL")  // as the store sets it
    try baseline.defineSearchKeyFunction()  // the schema's trigger on row.text calls it
    let bare = try rate(changes) { index in
      try baseline.inTransaction { () throws(SQLiteError) in
        try baseline.execute(
          "UPDATE row SET text = ? WHERE key = ?", "bare \(index)", "r\(index % count)")
      }
    }
    report("bare UPDATE (baseline)", bare, baseline: nil)

    let updates = try rate(changes) { index in
      _ = try store.updateRow(
        "r\(random.next(below: count))", in: "L", text: "Updated \(index)", detail: nil)
    }
    report("update", updates, baseline: bare)
    // As the server commits for a signed-in user: the change_log row in the same transaction.
    let author = ChangeAuthor(name: "bench", role: .editor)
    let authored = try rate(changes) { index in
      _ = try store.updateRow(
        "r\(random.next(below: count))", in: "L", text: "Authored \(index)", detail: nil,
        by: author)
    }
    report("update, recorded with its author", authored, baseline: bare)
    var inserted: [String] = []
    let inserts = try rate(changes) { index in
      let change = try store.insertRow(
        in: "L", section: "S", after: "r\(random.next(below: count))", NewRow(text: "New \(index)"))
      if case .insert(let row, _, _)? = change.lists.first?.edits?.first { inserted.append(row.id) }
    }
    report("insert", inserts, baseline: bare)
    let moves = try rate(changes) { _ in
      _ = try store.moveRow(
        inserted[random.next(below: inserted.count)], in: "L", toSection: "S",
        after: "r\(random.next(below: count))")
    }
    report("move", moves, baseline: bare)
    let toggles = try rate(changes) { index in
      _ = try store.setSwitch("sw", in: "L", isOn: index % 2 == 0)
    }
    report("switch (shows/hides a row)", toggles, baseline: bare)
    let picks = try rate(changes) { _ in
      _ = try store.select("r\(random.next(below: count))", in: "L")
    }
    report("select (multiple)", picks, baseline: bare)
    let deletes = try rate(min(changes, inserted.count)) { index in
      _ = try store.deleteRows([inserted[index]], in: "L")
    }
    report("delete", deletes, baseline: bare)
  }

  // MARK: The big list

  private func measureBigList(path: String) throws {
    print("\nA list of \(rows) rows:")
    var text =
      #"{"id": "big", "title": "Big", "editable": true, "sections": [{"id": "all", "rows": ["#
    text.reserveCapacity(rows * 40)
    for index in 0..<rows {
      if index > 0 { text += "," }
      text += #"{"id": "b\#(index)", "text": "Row \#(index)"}"#
    }
    text += "]}]}"
    let megabytes = Double(text.utf8.count) / 1_048_576

    let clock = ContinuousClock()
    var file: AppFile?
    let parse = try clock.measure { file = try AppFile(jsonText: text) }
    let store = try Store(path: path)
    let write = try clock.measure { try store.importFile(file!) }
    print(
      "  import (\(String(format: "%.0f", megabytes)) MB of JSON): \(format(parse + write)) — \(format(parse)) parsing and checking, \(format(write)) writing (one transaction)"
    )

    // Windows at random positions, and at the start, middle and end.
    var random = Generator(seed: 7)
    var offsets = (0..<windows).map { _ in random.next(below: rows - 100) }
    offsets += [0, rows / 2, rows - 100]
    var times: [Duration] = []
    for from in offsets {
      var window: [Row] = []
      times.append(
        try clock.measure {
          window = try store.rows(of: "big", section: "all", from: from, count: 100)
        })
      guard window.count == 100, window[0].id == "b\(from)" else {
        throw ValidationError("window at \(from) read \(window.first?.id ?? "nothing")")
      }
    }
    times.sort()
    let median = times[times.count / 2]
    print(
      "  100-row window anywhere (\(times.count) reads): p50 \(format(median)), p99 \(format(times[times.count * 99 / 100])), max \(format(times[times.count - 1]))"
    )

    let baseline = try Database(path: path, readOnly: true)
    var naive: [Duration] = []
    for from in offsets.prefix(15) {
      naive.append(
        try clock.measure {
          _ = try baseline.fetchAll(
            """
            SELECT r.key, r.text FROM block b JOIN row r ON r.block_id = b.id
            WHERE b.section_id = (SELECT id FROM section WHERE key = 'all') AND r.visible
            ORDER BY b.pos, r.pos LIMIT 100 OFFSET ?
            """, [from]
          ) { $0.string(0) }
        })
    }
    naive.sort()
    let naiveMedian = naive[naive.count / 2]
    print(
      "  same windows with LIMIT/OFFSET (baseline, \(naive.count) reads): p50 \(format(naiveMedian)) — \(String(format: "%.0f", naiveMedian / median))× slower"
    )

    var snapshotRows = 0
    let snapshot = try clock.measure {
      snapshotRows = try store.snapshot(of: "big").numberOfRows
    }
    print(
      "  the whole list as one snapshot (\(snapshotRows.formatted()) rows): \(format(snapshot))")

    // Changes in the middle of the big list: no renumbering, so as fast as in a small one.
    let middle = try rate(2_000) { index in
      _ = try store.insertRow(
        in: "big", section: "all", after: "b\(random.next(below: rows))",
        NewRow(text: "Mid \(index)"))
    }
    report("insert into the \(rows.formatted())-row list", middle, baseline: nil)
    let after = try clock.measure {
      _ = try store.rows(of: "big", section: "all", from: rows / 2, count: 100)
    }
    print("  a window after those inserts: \(format(after))")
  }

  // MARK: Timing

  /// Changes per second of wall time (best round), and per second of this process's CPU
  /// time (user + system): the second shows what an unshared machine would do.
  struct Rate {
    var wall: Double
    var cpu: Double
  }

  /// Runs `count` changes in five rounds and keeps the best round's wall-clock rate (the
  /// machine is shared; the best round is the least disturbed) and the CPU rate of all.
  func rate(_ count: Int, _ body: (Int) throws -> Void) throws -> Rate {
    let clock = ContinuousClock()
    let cpuBefore = cpuSeconds()
    let rounds = 5
    var best = 0.0
    var index = 0
    for round in 0..<rounds {
      let end = count * (round + 1) / rounds
      let start = index
      let elapsed = try clock.measure {
        while index < end {
          try body(index)
          index += 1
        }
      }
      best = max(best, Double(end - start) / max(seconds(elapsed), 1e-9))
    }
    let cpu = max(cpuSeconds() - cpuBefore, 1e-9)
    return Rate(wall: best, cpu: Double(count) / cpu)
  }

  private func cpuSeconds() -> Double {
    var usage = rusage()
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return value(usage.ru_utime) + value(usage.ru_stime)
  }

  func report(_ name: String, _ rate: Rate, baseline: Rate?) {
    var line = "  \(name): \(Int(rate.wall.rounded()).formatted()) /s"
    if let baseline {
      line += String(format: " (%.2f× the bare UPDATE)", rate.wall / baseline.wall)
    }
    line += ", \(Int(rate.cpu.rounded()).formatted()) per CPU-second"
    print(line)
  }

  private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  private func format(_ duration: Duration) -> String {
    let value = seconds(duration)
    if value >= 1 { return String(format: "%.2f s", value) }
    if value >= 1e-3 { return String(format: "%.2f ms", value * 1e3) }
    return String(format: "%.0f µs", value * 1e6)
  }
}

/// SplitMix64: the same sequence on every run.
struct Generator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next(below bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}
