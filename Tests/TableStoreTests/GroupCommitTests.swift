import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// Group commit (`Store.committingTogether`): several commands' writes in one transaction,
/// each still whole or not at all, on both stores.
@Suite struct GroupCommitTests {
  static let file = """
    {"id": "home", "title": "Home", "editable": true, "sections": [{"id": "s", "rows": [
      {"id": "a", "text": "A"}, {"id": "b", "text": "B"}, {"id": "c", "text": "C"}]}]}
    """

  @Test(arguments: StoreKind.allCases)
  func writesCommitTogetherEachWithItsOwnVersionAndLogEntry(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let other = try Store(path: temporary.path)
    let start = try store.version(of: "home")
    let logStart = try store.logHighWater()
    var versions: [Int?] = []
    var seenByOthers: [String] = []
    try store.committingTogether {
      for (row, text) in [("a", "A1"), ("b", "B1"), ("a", "A2")] {
        let change = try? store.updateRow(row, in: "home", text: text, detail: nil)
        versions.append(change?.version(of: "home"))
      }
      // Inside the group, this connection reads its own writes; others see none of them.
      seenByOthers = (try? other.snapshot(of: "home").sections[0].rows.map(\.text)) ?? []
      #expect((try? store.snapshot(of: "home").sections[0].rows.map(\.text)) == ["A2", "B1", "C"])
    }
    #expect(versions == [start + 1, start + 2, start + 3])
    #expect(seenByOthers == ["A", "B", "C"])
    #expect(try other.snapshot(of: "home").sections[0].rows.map(\.text) == ["A2", "B1", "C"])
    let entries = try other.logEntries(after: logStart)
    #expect(entries.map(\.version) == [start + 1, start + 2, start + 3])
  }

  /// A group's records and change-log entries are added together at its end on
  /// PostgreSQL, many to a statement (up to 64): each write still gets one of each, in
  /// the order of the writes.
  @Test(arguments: StoreKind.allCases)
  func aLongGroupRecordsEveryWriteInOrder(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let start = try store.version(of: "home")
    let logStart = try store.logHighWater()
    let writes = 150
    try store.committingTogether {
      for index in 0..<writes {
        _ = try? store.updateRow(
          ["a", "b", "c"][index % 3], in: "home", text: "T\(index)", detail: nil,
          by: ChangeAuthor(name: "user \(index)", role: .editor))
      }
    }
    let entries = try store.logEntries(after: logStart, limit: 1_000)
    #expect(entries.map(\.version) == Array((start + 1)...(start + writes)))
    #expect(entries.last?.edits?.first.map { "\($0)" }?.contains("T149") == true)
    // Newest first, and before them the import's.
    let records = try store.changeLog(limit: writes + 1)
    #expect(
      records.map { $0.author.name } == (0..<writes).reversed().map { "user \($0)" } + [nil])
  }

  /// A group's undo steps are added together (PostgreSQL: at its end, or before an undo
  /// reads the stack) and the stack is as if each had been added alone: an undo inside the
  /// group undoes the newest, a later step drops the redo side and the steps that had
  /// fallen off the stack stay off.
  @Test(arguments: StoreKind.allCases)
  func undoStepsOfAGroupAreOnTheStackInOrder(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let author = ChangeAuthor(name: "ann", role: .editor)
    var undone: [String] = []
    try store.committingTogether {
      for index in 0..<60 {
        _ = try? store.recordingUndo(for: "s") { () throws(StoreError) in
          try store.updateRow("a", in: "home", text: "A\(index)", detail: nil, by: author)
        }
      }
      _ = try? store.undo(session: "s", in: "home", by: author)
      _ = try? store.undo(session: "s", in: "home", by: author)
      undone = (try? store.snapshot(of: "home").sections[0].rows.map(\.text)) ?? []
      _ = try? store.recordingUndo(for: "s") { () throws(StoreError) in
        try store.updateRow("b", in: "home", text: "B1", detail: nil, by: author)
      }
    }
    #expect(undone == ["A57", "B", "C"])
    #expect(throws: StoreError.self) {
      try store.undo(session: "s", redo: true, in: "home", by: author)
    }
    // What was left of the stack (48 steps) and the new one.
    for _ in 1..<Store.undoDepth { _ = try store.undo(session: "s", in: "home", by: author) }
    #expect(try store.snapshot(of: "home").sections[0].rows.map(\.text) == ["A9", "B", "C"])
    #expect(throws: StoreError.self) { try store.undo(session: "s", in: "home", by: author) }
  }

  @Test(arguments: StoreKind.allCases)
  func aRefusedWriteLeavesTheOthersToCommit(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let start = try store.version(of: "home")
    var refusal: StoreError?
    try store.committingTogether {
      _ = try? store.updateRow("a", in: "home", text: "A1", detail: nil)
      do throws(StoreError) {
        _ = try store.updateRow("nope", in: "home", text: "X", detail: nil)
      } catch {
        refusal = error
      }
      _ = try? store.updateRow("b", in: "home", text: "B1", detail: nil)
    }
    #expect(refusal?.protocolError.code == .notFound)
    #expect(try store.version(of: "home") == start + 2)
    #expect(try store.snapshot(of: "home").sections[0].rows.map(\.text) == ["A1", "B1", "C"])
  }

  /// Runs a group of three writes: `a` updated, then `breaking`, then `c` updated; expects
  /// the group to fail with nothing of it kept and the store usable again. Returns the
  /// error the third write got.
  func groupBroken(
    _ kind: StoreKind, by breaking: (Store) throws(StoreError) -> Void
  ) throws -> StoreError? {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let start = try store.version(of: "home")
    var third: StoreError?
    #expect(throws: StoreError.self) {
      try store.committingTogether {
        _ = try? store.updateRow("a", in: "home", text: "A1", detail: nil)
        _ = try? store.write { () throws(StoreError) -> Int in
          try breaking(store)
          return 0
        }
        do throws(StoreError) {
          _ = try store.updateRow("c", in: "home", text: "C1", detail: nil)
        } catch {
          third = error
        }
      }
    }
    #expect(try store.version(of: "home") == start)
    #expect(try store.snapshot(of: "home").sections[0].rows.map(\.text) == ["A", "B", "C"])
    // The store is usable again, one write at a time.
    _ = try store.updateRow("c", in: "home", text: "C2", detail: nil)
    #expect(try store.version(of: "home") == start + 1)
    return third
  }

  /// A write that fails after it changed something cannot be undone alone (there is no
  /// savepoint): the whole group is rolled back and reported failed, and every write
  /// after the break fails with its error.
  @Test(arguments: StoreKind.allCases)
  func aWriteThatFailsHalfwayRollsTheGroupBack(kind: StoreKind) throws {
    let third = try groupBroken(kind) { store throws(StoreError) in
      try store.execute("UPDATE row SET text = 'half' WHERE key = 'b'")
      throw StoreError.notAllowed("halfway")
    }
    #expect(third == .notAllowed("halfway"))
  }

  /// On PostgreSQL a group's writes are sent ahead (a pipeline) and their errors surface
  /// at the next statement that is read: the write that failed may have returned, so the
  /// whole group is reported failed and nothing of it is kept. (On SQLite the same write
  /// fails at once, with the same outcome.)
  @Test(arguments: StoreKind.allCases)
  func aWriteSentAheadThatFailsLaterFailsTheGroup(kind: StoreKind) throws {
    let third = try groupBroken(kind) { store throws(StoreError) in
      try store.executeLater("UPDATE row SET key = 'a' WHERE key = 'b'")  // a's key
    }
    #expect(third?.isFromDatabase == true)
  }

  /// A group with no write opens no transaction: reads run on their own, as outside one.
  @Test(arguments: StoreKind.allCases)
  func aGroupWithoutWritesCommitsNothing(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    try store.committingTogether {
      #expect((try? store.snapshot(of: "home").title) == "Home")
      #expect(!store.database.isInTransaction)
    }
    _ = try store.updateRow("a", in: "home", text: "A1", detail: nil)
  }

  /// The change log's reader may leave entries undecoded (a server skips its own).
  @Test(arguments: StoreKind.allCases)
  func logEntriesASkipperPassesOverComeWithoutEdits(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let start = try store.logHighWater()
    let version = try store.version(of: "home")
    for text in ["A1", "A2", "A3"] {
      _ = try store.updateRow("a", in: "home", text: text, detail: nil)
    }
    let entries = try store.logEntries(after: start) { _, entryVersion in
      entryVersion != version + 2
    }
    #expect(entries.map(\.version) == [version + 1, version + 2, version + 3])
    #expect(entries.map { $0.edits == nil } == [true, false, true])
    #expect(entries[1].prior?.first?.row.text == "A1")
  }

  /// The commands of a group whose COMMIT had an unknown outcome are answered again with
  /// every write refused: on either database the refusal is
  /// `StoreError.commitOutcomeUnknown`, told to the client as an internal error with its
  /// message, and carries no SQLSTATE of its own making.
  @Test(arguments: StoreKind.allCases)
  func writesRefusedAfterAnUnknownOutcomeSayCommitOutcomeUnknown(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let version = try store.version(of: "home")
    let unknown = StoreError.commitOutcomeUnknown(
      after: .postgres(sqlState: "08006", message: "connection lost", sql: "COMMIT"))
    #expect(unknown.isCommitOutcomeUnknown && unknown.isFromDatabase)
    #expect(unknown.protocolError.code == .internal)
    #expect(unknown.protocolError.message.contains("may have been applied"))
    #expect(!"\(unknown)".contains("08007"))
    var refusal: StoreError?
    var read: Int?
    store.refusingWrites(with: unknown) {
      do throws(StoreError) {
        _ = try store.updateRow(
          "a", in: "home", text: "A1", detail: nil, by: ChangeAuthor(name: "x", role: .editor))
      } catch {
        refusal = error
      }
      read = try? store.version(of: "home")
    }
    #expect(refusal == unknown)
    #expect(read == version)
    #expect(try store.version(of: "home") == version)
    // The import's record only (`change_log` records imports too).
    #expect(try store.changeLog().map(\.command) == ["import"])
    // Once out of it, writes go through again, each with its own record.
    _ = try store.updateRow(
      "a", in: "home", text: "A1", detail: nil, by: ChangeAuthor(name: "x", role: .editor))
    #expect(try store.changeLog().map(\.command) == ["update", "import"])
  }
}
