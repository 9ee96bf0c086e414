import ArgumentParser
import Foundation
import TableModel
import TableStore

/// `tablebench search`: one search over a 1,000,000-row list in the SQLite store (the
/// whole list filtered in SQL on the folded `row.search` column), against a baseline
/// measured in the same run: reading the whole list's snapshot, which filtering in memory
/// would need first.
struct SearchBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "search", abstract: "SQLite store: searching a 1,000,000-row list.")

  @Option(help: "Rows in the list.")
  var rows = 1_000_000

  @Option(help: "Timed runs of each search (the median is printed).")
  var runs = 5

  func run() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tablebench-search-\(getpid()).sqlite"
    ).path
    defer {
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: path + suffix)
      }
    }
    let load =
      (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?
      .split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
    print(
      "tablebench search — SQLite \(Database.libraryVersion); \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load)"
    )
    var rowsJSON = (0..<rows).map {
      #"{"id":"r\#($0)","text":"Row \#($0)","detail":"Item \#($0 % 997)"}"#
    }
    rowsJSON[rows / 2] = #"{"id":"dessert","text":"Crème Brûlée","detail":"Café"}"#
    let store = try Store(path: path)
    let started = ContinuousClock.now
    try store.importJSON(
      #"{"id":"L","title":"Big","searchable":true,"sections":[{"id":"S","rows":[\#(rowsJSON.joined(separator: ","))]}]}"#
    )
    print("  imported \(rows) rows in \(started.duration(to: .now))")
    let snapshot = try median { _ = try store.snapshot(of: "L") }
    print("  whole list's snapshot (baseline): \(format(snapshot, places: 1)) ms")
    for text in ["CREME brulee", "row 99999", "item 5"] {
      var found = 0
      let time = try median { found = try store.search(SearchQuery(text), in: "L").numberOfRows }
      print(
        "  search \"\(text)\": \(format(time, places: 1)) ms, \(found) rows (\(format(time / snapshot, places: 2))× the snapshot)"
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
}
