import Dispatch
import Foundation
import TableModel
import TableStore

/// `tablebench store --postgres URL`: the same committed single-row changes on PostgreSQL,
/// against a bare one-row UPDATE per transaction on the same server, and then several
/// connections committing at once (as several servers would).
extension StoreBenchmark {
  func measurePostgresChanges(url: String) throws {
    let count = 1_000
    let store = try Store(path: url)
    try store.importJSON(Self.benchList(count: count))
    let connection = try PostgresConnection(url)
    print(
      "\nPostgreSQL \(connection.serverVersion / 10_000).\(connection.serverVersion % 100)"
        + " (\(store.redactedPath)), the same changes (best of 5 rounds):")
    if let settings = try? connection.fetchOne(
      "SELECT current_setting('fsync'), current_setting('synchronous_commit')", [],
      { "fsync = \($0.string(0)), synchronous_commit = \($0.string(1))" })
    {
      print("  (\(settings))")
    }
    var random = Generator(seed: 7)
    let changes = postgresChanges
    let bare = try rate(changes) { index in
      try connection.inTransaction { () throws(PostgresError) -> Void in
        _ = try connection.execute(
          "UPDATE row SET text = $1 WHERE key = $2", "bare \(index)", "r\(index % count)")
      }
    }
    report("bare UPDATE (baseline)", bare, baseline: nil)
    let updates = try rate(changes) { index in
      _ = try store.updateRow(
        "r\(random.next(below: count))", in: "L", text: "Updated \(index)", detail: nil)
    }
    report("update", updates, baseline: bare)
    let inserts = try rate(changes) { index in
      _ = try store.insertRow(
        in: "L", section: "S", after: "r\(random.next(below: count))", NewRow(text: "New \(index)"))
    }
    report("insert", inserts, baseline: bare)
    let toggles = try rate(changes) { index in
      _ = try store.setSwitch("sw", in: "L", isOn: index % 2 == 0)
    }
    report("switch (shows/hides a row)", toggles, baseline: bare)

    // Several connections updating the same list at once: they take turns at the write
    // lock, so this shows what the lock leaves of one connection's rate.
    let writers = postgresWriters
    let perWriter = changes
    let failures = LockedValue<[String]>([])
    let start = ContinuousClock.now
    DispatchQueue.concurrentPerform(iterations: writers) { writer in
      do {
        let mine = try Store(path: url)
        var random = Generator(seed: UInt64(100 + writer))
        for index in 0..<perWriter {
          _ = try mine.updateRow(
            "r\(random.next(below: count))", in: "L", text: "W\(writer) \(index)", detail: nil)
        }
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    let elapsed = ContinuousClock.now - start
    if let failure = failures.withLock({ $0.first }) { throw BenchFailure(failure) }
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let total = Double(writers * perWriter) / seconds
    print(
      "  update from \(writers) connections at once: \(Int(total.rounded()).formatted()) /s in all"
        + String(format: " (%.2f× one connection's update)", total / updates.wall))
  }
}

struct BenchFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
