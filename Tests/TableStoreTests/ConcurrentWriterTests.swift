import Dispatch
import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// Several connections (as several servers would have) committing random edits to one
/// list at the same time: every change takes the list up exactly one version, the change
/// log holds each version once, replaying the log gives the final list, and the blocks'
/// counts still find every row.
@Suite struct ConcurrentWriterTests {
  static let writers = 4
  static let editsPerWriter = 120

  /// The row another writer deleted or moved first: refused, nothing committed.
  static func lostARace(_ error: any Error) -> Bool {
    switch error as? StoreError {
    case .notFound?, .notAllowed?: return true
    default: return false
    }
  }

  @Test(arguments: StoreKind.allCases)
  func concurrentWritersKeepVersionsGaplessAndTheLogReplays(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: RandomEditTests.initialFile)
    let list = try temporary.store.rootList()
    let start = try temporary.store.snapshot(of: list)
    let path = temporary.path
    let failures = LockedValue<[String]>([])
    let committed = LockedValue<[Int]>([])

    DispatchQueue.concurrentPerform(iterations: Self.writers) { writer in
      do {
        let store = try Store(path: path)
        store.blockCapacity = 8  // splits and merges under contention
        var random = SplitMix64(seed: UInt64(writer + 1))
        var versions: [Int] = []
        for step in 0..<Self.editsPerWriter {
          let rows = try store.snapshot(of: list).sections.enumerated().flatMap { index, section in
            section.rows.map { (index, $0.id) }
          }
          let pick = rows.isEmpty ? nil : rows[random.next(below: rows.count)].1
          let section = "S\(random.next(below: 3))"
          do {
            let change: TableChange
            switch (random.next(below: 10), pick) {
            case (0...3, _), (_, nil):
              change = try store.insertRow(
                in: list, section: section, after: random.next(below: 3) == 0 ? nil : pick,
                NewRow(text: "w\(writer)-\(step)"))
            case (4...5, let row?) where row != "sw":
              change = try store.deleteRows([row], in: list)
            case (6...7, let row?):
              change = try store.moveRow(row, in: list, toSection: section, after: nil)
            case (8, let row?):
              change = try store.updateRow(row, in: list, text: "u\(writer)-\(step)", detail: nil)
            default:
              change = try store.setSwitch("sw", in: list, isOn: random.next(below: 2) == 0)
            }
            versions += change.lists.map(\.version)
          } catch  where Self.lostARace(error) {
            // Another writer deleted or moved the row first: nothing was committed.
          }
        }
        let mine = versions
        committed.withLock { $0 += mine }
      } catch {
        failures.withLock { $0.append("writer \(writer): \(error)") }
      }
    }

    #expect(failures.withLock { $0 } == [])
    let store = temporary.store
    let final = try store.snapshot(of: list)
    let versions = committed.withLock { $0 }.sorted()
    // Each commit got its own version, and together they are every version in between.
    #expect(versions == Array((start.version + 1)..<(start.version + 1 + versions.count)))
    #expect(final.version == start.version + versions.count)
    #expect(versions.count > Self.writers * Self.editsPerWriter / 2)

    let entries = try #require(
      try store.logEntries(of: list, after: start.version, upTo: final.version))
    var replayed = start
    for entry in entries {
      try replayed.apply(try #require(entry.edits))
      replayed.version = try #require(entry.version)
    }
    #expect(replayed == final)
    // The log read in id order (as a server following it would) is in version order too.
    let followed = try store.logEntries(after: 0, limit: 10_000).filter { $0.list == list }
    #expect(followed.compactMap(\.version) == Array((start.version + 1)...final.version))

    for (index, section) in final.sections.enumerated() {
      #expect(try store.sectionCounts(of: list)[index].count == section.rows.count)
      let window = try store.rows(
        of: list, section: section.id, from: 0, count: section.rows.count + 1)
      #expect(window == section.rows, "section \(section.id)")
    }
  }
}
