import ArgumentParser
import Foundation
import TableModel
import TableStore

/// `tablebench import`: the time to import a list of 1,000,000 rows, beside what the same
/// rows cost without the store in the same run — parsing and checking the file alone,
/// and a bare bulk INSERT of the same rows (the same columns and values, one prepared
/// statement, one transaction, no index but the rowid, no trigger) into an empty file
/// with the store's settings. The ratio is the import's writing over the bare INSERT.
struct ImportBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import",
    abstract: "Import of a big list: parsing alone, a bare bulk INSERT, the import, the ratio.")

  @Option(help: "Rows in the list.")
  var rows = 1_000_000

  @Option(help: "Rounds of each measurement (the best is kept).")
  var rounds = 2

  @Flag(help: "Also time the row-by-row import (every index and trigger in place).")
  var rowByRow = false

  @Option(
    help: """
      Also measure on this PostgreSQL database (postgres://…), whose data is replaced: the \
      bare baseline is then a COPY of the same rows into a table without indexes.
      """)
  var postgres: String?

  func run() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tablebench-import-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    print("tablebench import — SQLite \(Database.libraryVersion), WAL, synchronous = NORMAL")
    print(
      "  machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverages())"
    )
    let text = Self.bigList(rows: rows)
    let megabytes = Double(text.utf8.count) / 1_048_576
    print(
      "\nA list of \(rows.formatted()) rows (\(String(format: "%.0f", megabytes)) MB of JSON), best of \(rounds):"
    )
    var file: AppFile?
    let parse = try best { file = try AppFile(jsonText: text) }
    print("  parsing and checking alone: \(seconds(parse))")
    var tree: JSONValue?
    let syntax = try best { tree = try JSONValue(parsing: text) }
    var decoded: AppScreen?
    let checks = try best { decoded = try AppScreen(json: tree!) }
    print(
      "    of which the JSON syntax (a JSONValue tree) \(seconds(syntax)), the format's checks"
        + " \(seconds(checks)) (\(decoded!.sections[0].rows.count.formatted()) rows)")
    let rowsOfList = file!.root.sections[0].rows

    var round = 0
    let bare = try best {
      round += 1
      try bareInsert(rowsOfList, path: folder.appendingPathComponent("bare\(round).sqlite").path)
    }
    print("  bare bulk INSERT of the same rows (baseline): \(seconds(bare))")
    let unique = try best {
      round += 1
      try bareInsert(
        rowsOfList, path: folder.appendingPathComponent("unique\(round).sqlite").path,
        uniqueKey: true)
    }
    print(
      "    the same with row.key's UNIQUE constraint kept row by row (the load builds it at the end): \(seconds(unique))"
        + String(format: " (%.2f× the bare INSERT)", ratio(unique, bare)))
    let widened = try best {
      round += 1
      try bareInsert(
        rowsOfList, path: folder.appendingPathComponent("widened\(round).sqlite").path,
        cacheKiB: 262_144)
    }
    print(
      "    the same with the page cache the load widens to (256 MiB, not SQLite's default 2 MiB): "
        + "\(seconds(widened))")
    let batched = try best {
      round += 1
      try bareInsert(
        rowsOfList, path: folder.appendingPathComponent("batched\(round).sqlite").path,
        rowsAtOnce: Store.loadRowsAtOnce)
    }
    print(
      "    the same \(Store.loadRowsAtOnce) rows a statement, as the load inserts them: "
        + "\(seconds(batched))")
    var phases: [Duration: [ImportPhase]] = [:]
    var imported: Store?
    let write = try best {
      round += 1
      let store = try Store(path: folder.appendingPathComponent("import\(round).sqlite").path)
      let time = try ContinuousClock().measure { try store.importFile(file!) }
      phases[time] = store.importPhases
      imported = store
    }
    printImport(writing: write, parse: parse, bare: bare, baseline: "INSERT", phases: phases)
    print("    against the bare INSERT with the load's page cache: \(times(write, widened))")
    print(
      "    against the bare INSERT \(Store.loadRowsAtOnce) rows a statement: \(times(write, batched))"
    )
    try printReimport(file!, into: imported!)
    let overlapped = try best {
      round += 1
      let store = try Store(path: folder.appendingPathComponent("text\(round).sqlite").path)
      try store.importJSON(text)
    }
    print(
      "  import from the text, parse and writing overlapped (Store.importJSON): "
        + "\(seconds(overlapped)) (\(times(overlapped, bare)) the bare INSERT)")
    if rowByRow {
      let store = try Store(path: folder.appendingPathComponent("rows.sqlite").path)
      store.importsInBulk = false
      let old = try ContinuousClock().measure { try store.importFile(file!) }
      print(
        "  row-by-row import (before), writing: \(seconds(old))"
          + String(format: " — %.2f× the bare INSERT", ratio(old, bare)))
    }
    if let postgres { try measurePostgres(url: postgres, file: file!, text: text, parse: parse) }
  }

  /// The big list: `{"id": "b17", "text": "Row 17"}` rows in one section.
  static func bigList(rows: Int) -> String {
    var text =
      #"{"id": "big", "title": "Big", "editable": true, "sections": [{"id": "all", "rows": ["#
    text.reserveCapacity(rows * 40)
    for index in 0..<rows {
      if index > 0 { text += "," }
      text += #"{"id": "b\#(index)", "text": "Row \#(index)"}"#
    }
    text += "]}]}"
    return text
  }

  /// The values an import gives the store's `row` table, in `Store.loadRowColumnList`'s
  /// order.
  static func values(_ row: AppRow, index: Int) -> [any DatabaseValueConvertible] {
    [
      index + 1, row.id ?? "R\(index)", 1, 1 + index / 3_072, index % 3_072 * 1_024, row.text,
      row.detail, row.style.rawValue, row.image, row.accessory?.rawValue, row.isOn,
      row.isChecked, true, row.lines, row.isFlagged, nil as String?, nil as String?, row.text,
    ]
  }

  /// The same rows into a table with the same columns and nothing else: one prepared
  /// statement, one transaction, the store's page size, journal and synchronous setting.
  /// `uniqueKey`: `key` declared `UNIQUE`, as the store's `row.key` was before migration 15
  /// (an index kept up to date row by row; the load now builds `row_key` once at its end).
  /// `cacheKiB`: the page cache, as a bulk load widens it (`widenForBulkLoad()`); SQLite's
  /// default (2 MiB) otherwise, the baseline of the ratio. `rowsAtOnce`: the rows each
  /// statement inserts (the last few one at a time), as a bulk load inserts them.
  private func bareInsert(
    _ rows: [AppRow], path: String, uniqueKey: Bool = false, cacheKiB: Int? = nil,
    rowsAtOnce: Int = 1
  ) throws {
    let database = try Database(path: path)
    try database.execute("PRAGMA page_size = 1024")
    _ = try database.fetchOne("PRAGMA journal_mode = WAL") { $0.string(0) }
    try database.execute("PRAGMA synchronous = NORMAL")
    if let cacheKiB { try database.execute("PRAGMA cache_size = -\(cacheKiB)") }
    try database.execute(
      """
      CREATE TABLE row (id INTEGER PRIMARY KEY, key TEXT NOT NULL\(uniqueKey ? " UNIQUE" : ""), list_id INTEGER NOT NULL,
        block_id INTEGER NOT NULL, pos INTEGER NOT NULL, text TEXT NOT NULL, detail TEXT,
        style TEXT NOT NULL, image TEXT, accessory TEXT, switch INTEGER, checked INTEGER NOT NULL,
        visible INTEGER NOT NULL, lines INTEGER NOT NULL, flagged INTEGER NOT NULL,
        slot_values TEXT, actions TEXT, search TEXT NOT NULL)
      """)
    try database.inTransaction(.immediate) { () throws(SQLiteError) in
      let one = try database.cachedStatement(Store.loadRowsSQL(1))
      guard rowsAtOnce > 1 else {
        for (index, row) in rows.enumerated() { try one.execute(Self.values(row, index: index)) }
        return
      }
      let many = try database.cachedStatement(Store.loadRowsSQL(rowsAtOnce))
      var values: [any DatabaseValueConvertible] = []
      let whole = rows.count - rows.count % rowsAtOnce
      for (index, row) in rows.enumerated() {
        guard index < whole else {
          try one.execute(Self.values(row, index: index))
          continue
        }
        values.append(contentsOf: Self.values(row, index: index))
        if (index + 1) % rowsAtOnce == 0 {
          try many.execute(values)
          values.removeAll(keepingCapacity: true)
        }
      }
    }
  }

  /// The best of `rounds` runs of `body` (the machine is shared: the least disturbed).
  func best(_ body: () throws -> Void) throws -> Duration {
    var times: [Duration] = []
    for _ in 0..<max(1, rounds) { times.append(try ContinuousClock().measure(body)) }
    return times.min()!
  }

  /// The best of `rounds` times `body` returns (what it does around them not counted).
  func bestTimed(_ body: () throws -> Duration) throws -> Duration {
    var times: [Duration] = []
    for _ in 0..<max(1, rounds) { times.append(try body()) }
    return times.min()!
  }

  /// The import's writing, and with the parse before it, each as a multiple of the bare
  /// load (`baseline`: "INSERT" or "COPY"), then where the writing's time went.
  func printImport(
    writing write: Duration, parse: Duration, bare: Duration, baseline: String,
    phases: [Duration: [ImportPhase]]
  ) {
    print(
      "  import: writing \(seconds(write)) (\(times(write, bare)) the bare \(baseline)); with the"
        + " parse before it \(seconds(parse + write)) (\(times(parse + write, bare)))")
    printPhases(phases)
  }

  /// The same file imported again over the rows an import left: the writing, and how much
  /// of it replacing the old rows took.
  func printReimport(_ file: AppFile, into store: Store) throws {
    let time = try ContinuousClock().measure { try store.importFile(file) }
    let deleted = store.importPhases.first { $0.name == "old data deleted" }?.duration ?? .zero
    print(
      "  the same import over the rows it left: writing \(seconds(time)), of which the old"
        + " data deleted \(seconds(deleted))")
  }

  /// Where the writing's time went (`Store.importPhases` of the round timed), and what
  /// is left of `total`: the commit, and the list's, sections' and blocks' statements.
  func printPhases(_ rounds: [Duration: [ImportPhase]]) {
    guard let total = rounds.keys.min(), let phases = rounds[total], !phases.isEmpty else {
      return
    }
    print("    where the writing's time went (the best round):")
    for phase in phases { print("      \(phase.name): \(seconds(phase.duration))") }
    let steps = phases.filter { !$0.name.hasPrefix(" ") }.reduce(Duration.zero) { $0 + $1.duration }
    print("      the rest (commit, the change log, the lists' rows): \(seconds(total - steps))")
  }

  func ratio(_ a: Duration, _ b: Duration) -> Double { value(a) / max(value(b), 1e-9) }

  func times(_ a: Duration, _ b: Duration) -> String { String(format: "%.2f×", ratio(a, b)) }

  func value(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  func seconds(_ duration: Duration) -> String { String(format: "%.2f s", value(duration)) }
}
