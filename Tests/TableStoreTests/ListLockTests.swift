import Foundation
import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// PostgreSQL's write lock per list: writers of different lists run side by side, writers
/// of one list one at a time, and the change log is read without a gap although
/// transactions that started in one order commit in another.
@Suite struct ListLockTests {
  /// A home screen leading to `lists` editable lists `L1`… of 10 rows each.
  static func file(lists: Int) -> String {
    let screens = (1...lists).map { list in
      let rows = (1...10).map { #"{"id":"L\#(list)R\#($0)","text":"Row \#($0)"}"# }
        .joined(separator: ",")
      return
        #"{"id":"go\#(list)","text":"List \#(list)","children":{"id":"L\#(list)","title":"List \#(list)","editable":true,"sections":[{"id":"L\#(list)S","rows":[\#(rows)]}]}}"#
    }
    return
      #"{"id":"home","title":"Lists","sections":[{"id":"S","rows":[\#(screens.joined(separator: ","))]}]}"#
  }

  /// A store on the same database whose statements give up on a lock after `timeout`
  /// (instead of waiting for ever on a lock this same thread holds on another connection).
  static func store(_ path: String, lockTimeout timeout: String = "2s") throws -> Store {
    let store = try Store(path: path)
    try store.database.runScript("SET lock_timeout = '\(timeout)'")
    return store
  }

  /// Inside a group, the log is read again after a write locked another list only when
  /// the reader has not published that list's version from before the write (another
  /// connection committed to it since the group's read): a write that follows what the
  /// reader has costs no read, and what was committed to lists the group did not lock
  /// waits for the next read after it.
  @Test func aGroupReadsTheLogAgainOnlyForAListThatChangedMeanwhile() throws {
    let temporary = try TemporaryStore(kind: .postgres, json: Self.file(lists: 4))
    defer { withExtendedLifetime(temporary) {} }
    let group = temporary.store
    let other = try Self.store(temporary.path)
    let start = try group.logHighWater()
    // What the reader has published: every list at its version now.
    var known: [String: Int] = [:]
    for list in ["L1", "L2", "L3", "L4"] { known[list] = try group.version(of: list) }
    let has = { (list: String, version: Int?) in
      version.map { known[list, default: 0] >= $0 } ?? false
    }
    var reads: [[String]] = []
    try group.committingTogether {
      _ = try? group.updateRow("L1R1", in: "L1", text: "a", detail: nil)
      reads.append((try? group.logEntries(after: start, skipping: has))?.map(\.list) ?? ["?"])
      // Another connection commits to L3, which the group has not locked: no read for it.
      _ = try? other.updateRow("L3R1", in: "L3", text: "b", detail: nil)
      _ = try? group.updateRow("L2R1", in: "L2", text: "c", detail: nil)
      reads.append((try? group.logEntries(after: start, skipping: has))?.map(\.list) ?? ["?"])
      // It commits to L4, then the group locks L4: its change does not follow what the
      // reader has, so the log is read again (L3's entry and L4's come).
      _ = try? other.updateRow("L4R1", in: "L4", text: "d", detail: nil)
      _ = try? group.updateRow("L4R2", in: "L4", text: "e", detail: nil)
      reads.append((try? group.logEntries(after: start, skipping: has))?.map(\.list) ?? ["?"])
    }
    #expect(reads == [[], [], ["L3", "L4"]])
    #expect(try group.version(of: "L4") == known["L4", default: 0] + 2)
  }

  /// A group on one connection writes L1 and stays open; meanwhile another connection
  /// writes L2 and commits. The group started first and commits last: a reader that read
  /// the log after the L2 entry must still get the L1 entry when it comes. (With one id
  /// sequence taken at the insert, the L1 entry would have the smaller id and be skipped;
  /// with one lock for every writer, the L2 write could not run at all.)
  @Test func aWriteThatCommitsFirstDoesNotHideOneThatStartedEarlier() throws {
    let temporary = try TemporaryStore(kind: .postgres, json: Self.file(lists: 2))
    defer { withExtendedLifetime(temporary) {} }
    let first = temporary.store
    let second = try Self.store(temporary.path)
    let reader = try Store(path: temporary.path)
    var position = try reader.logHighWater()
    var read: [Store.LogEntry] = []
    var otherListWrite: Result<TableChange, StoreError>?
    try first.committingTogether {
      #expect((try? first.updateRow("L1R1", in: "L1", text: "one", detail: nil)) != nil)
      otherListWrite = Result { () throws(StoreError) in
        try second.updateRow("L2R1", in: "L2", text: "two", detail: nil)
      }
      let entries = (try? reader.logEntries(after: position)) ?? []
      read += entries
      position = entries.last?.id ?? position
    }
    #expect(throws: Never.self) { try otherListWrite?.get() }
    read += try reader.logEntries(after: position)
    #expect(read.map(\.list) == ["L2", "L1"])
    #expect(read.map(\.version) == [2, 2])
    #expect(Set(read.map(\.id)).count == read.count)
  }

  /// Two writers of one list still take turns: while a group holds L1, another
  /// connection's write to L1 waits (here, until its lock timeout).
  @Test func writersOfOneListTakeTurns() throws {
    let temporary = try TemporaryStore(kind: .postgres, json: Self.file(lists: 2))
    defer { withExtendedLifetime(temporary) {} }
    let first = temporary.store
    let second = try Self.store(temporary.path, lockTimeout: "300ms")
    var sameListWrite: Result<TableChange, StoreError>?
    try first.committingTogether {
      _ = try? first.updateRow("L1R1", in: "L1", text: "one", detail: nil)
      sameListWrite = Result { () throws(StoreError) in
        try second.updateRow("L1R2", in: "L1", text: "two", detail: nil)
      }
    }
    guard case .failure(.postgres(let state, _, _)) = sameListWrite else {
      Issue.record("the second writer of L1 did not wait: \(String(describing: sameListWrite))")
      return
    }
    #expect(state == "55P03")
    #expect(try second.version(of: "L1") == 2)
    #expect(try second.updateRow("L1R2", in: "L1", text: "two", detail: nil).version(of: "L1") == 3)
  }

  /// Writers on four connections make random edits of twelve lists, alone and in groups,
  /// some of them sharing lists; a reader tails the log meanwhile. Every acknowledged edit
  /// is in the database; each list's entries come once each with versions 1… in order;
  /// the tail the reader collected while the writers ran is exactly the log read at the
  /// end (nothing skipped although ids were taken by transactions committing in another
  /// order); each list's version is its last entry's.
  @Test func randomWritersOnManyListsLeaveAGaplessLog() throws {
    let lists = 12
    let temporary = try TemporaryStore(kind: .postgres, json: Self.file(lists: lists))
    defer { withExtendedLifetime(temporary) {} }
    let start = try temporary.store.logHighWater()
    let startVersions = try (1...lists).map { try temporary.store.version(of: "L\($0)") }
    let writers = 4
    let path = temporary.path
    let done = LockedValue(0)
    let acknowledged = LockedValue(0)  // edits whose write returned
    let failures = LockedValue([String]())
    let threads = (0..<writers).map { writer in
      Thread {
        defer { done.withLock { $0 += 1 } }
        do {
          let store = try Store(path: path)
          var random = SystemRandomNumberGenerator()
          for round in 0..<60 {
            // Writers 0 and 1 share lists 1–4; the others spread over all of them.
            let pick = { () -> (String, String) in
              let list =
                writer < 2
                ? Int.random(in: 1...4, using: &random)
                : Int.random(in: 1...lists, using: &random)
              return ("L\(list)", "L\(list)R\(Int.random(in: 1...10, using: &random))")
            }
            var made: [(String, String)] = []
            let edit = { () throws(StoreError) in
              let (list, row) = pick()
              let text = "w\(writer) r\(round) \(made.count)"
              _ = try store.updateRow(row, in: list, text: text, detail: nil)
              made.append((row, text))
            }
            if round % 3 == 0 {
              do {
                try store.committingTogether { for _ in 0..<3 { try? edit() } }
              } catch {
                made = []  // the group was not committed: run them again alone
                for _ in 0..<3 { try edit() }
              }
            } else {
              try edit()
            }
            acknowledged.withLock { $0 += made.count }
          }
        } catch {
          failures.withLock { $0.append("writer \(writer): \(error)") }
        }
      }
    }
    for thread in threads { thread.start() }
    let reader = try Store(path: temporary.path)
    var tail: [Store.LogEntry] = []
    var position = start
    while done.withLock({ $0 }) < writers {
      let entries = try reader.logEntries(after: position)
      tail += entries
      position = entries.last?.id ?? position
    }
    tail += try reader.logEntries(after: position, limit: 1_000_000)

    #expect(failures.withLock { $0 } == [])
    let log = try reader.logEntries(after: start, limit: 1_000_000)
    #expect(tail.map(\.id) == log.map(\.id), "the tail read while writing differs from the log")
    #expect(tail == log)
    #expect(Set(log.map(\.id)).count == log.count)
    for list in 1...lists {
      let versions = log.filter { $0.list == "L\(list)" }.compactMap(\.version)
      let first = startVersions[list - 1]
      #expect(
        versions == Array((first + 1)..<(first + 1 + versions.count)), "L\(list): \(versions)")
      #expect(try reader.version(of: "L\(list)") == first + versions.count)
    }
    // Every row's text is the one the last entry touching it wrote.
    var lastText: [String: String] = [:]
    for entry in log {
      for edit in entry.edits ?? [] {
        if case .update(let row) = edit { lastText[row.id] = row.text }
      }
    }
    for list in 1...lists {
      for row in try reader.snapshot(of: "L\(list)").sections[0].rows {
        if let text = lastText[row.id] { #expect(row.text == text) }
      }
    }
    #expect(log.reduce(0) { $0 + ($1.edits?.count ?? 0) } == acknowledged.withLock { $0 })
  }
}
