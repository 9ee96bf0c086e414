import Foundation
import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// What the world can do to the file: read-only, locked, full, corrupt. Each is a clear
/// error and never a half-applied change.
@Suite struct FailureTests {
  @Test(arguments: StoreKind.allCases)
  func aReadOnlyStoreReadsAndRefusesChanges(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: CommandTests.file)
    let readOnly = try Store(path: temporary.path, readOnly: true)
    #expect(try readOnly.snapshot(of: "home").sections[0].rows.count == 4)
    #expect(try readOnly.exportJSON() == (try temporary.store.exportJSON()))
    #expect(throws: StoreError.readOnly("the database was opened read-only")) {
      try readOnly.select("t2", in: "tones")
    }
    #expect(throws: StoreError.self) {
      try readOnly.importJSON(#"{"title": "x", "sections": [{"rows": []}]}"#)
    }
    #expect(throws: StoreError.self) {
      try readOnly.saveSession(
        token: "t", stack: NavigationStack(root: NavigationLevel(list: "home", title: "Home")))
    }
  }

  @Test func aFileThatCannotBeWrittenIsRefusedUnlessOpenedReadOnly() throws {
    let temporary = try TemporaryStore(json: CommandTests.file)
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: temporary.path)
    defer {
      try? FileManager.default.setAttributes(
        [.posixPermissions: 0o644], ofItemAtPath: temporary.path)
    }
    guard getuid() != 0 else { return }  // root writes read-only files anyway
    #expect {
      _ = try Store(path: temporary.path)
    } throws: { error in
      if case StoreError.readOnly = error { return true }
      return false
    }
    #expect(try Store(path: temporary.path, readOnly: true).rootList() == "home")
  }

  @Test func aLockedDatabaseFailsAfterTheBusyTimeoutAndChangesNothing() throws {
    let temporary = try TemporaryStore(json: CommandTests.file)
    let other = try Store(path: temporary.path, busyTimeout: 50)
    try temporary.store.sqlite.execute("BEGIN IMMEDIATE")
    let version = try other.version(of: "tones")
    #expect {
      _ = try other.select("t2", in: "tones")
    } throws: { error in
      guard case StoreError.sqlite(let code, _, _) = error else { return false }
      return code & 0xFF == 5 && "\(error)".contains("lock")
    }
    try temporary.store.sqlite.execute("ROLLBACK")
    #expect(try other.version(of: "tones") == version)
    #expect(try other.select("t2", in: "tones").lists.count == 2)  // works once released
  }

  @Test func aFullDiskRollsBackTheWholeImport() throws {
    let temporary = try TemporaryStore(json: CommandTests.file)
    let before = try temporary.store.exportJSON()
    let pages = try #require(try temporary.store.fetchInt("PRAGMA page_count"))
    try temporary.store.sqlite.execute("PRAGMA max_page_count = \(pages + 2)")
    let rows = (0..<5_000).map { #"{"text": "row \#($0) with some text to fill pages"}"# }.joined(
      separator: ",")
    #expect {
      try temporary.store.importJSON(#"{"title": "Big", "sections": [{"rows": [\#(rows)]}]}"#)
    } throws: { error in
      guard case StoreError.sqlite(let code, _, _) = error else { return false }
      // The rows go in 50 a statement: the message names it in one short line, not with
      // its 900 parameters.
      return code & 0xFF == 13 && "\(error)".contains("disk is full")
        && "\(error)".contains("(\(Store.loadRowsAtOnce) rows)") && "\(error)".count < 400
    }
    #expect(try temporary.store.exportJSON() == before)
  }

  /// A commit is in the WAL file when the call returns: a writer that never closes (as
  /// after `kill -9`) loses nothing, and the next process sees the change.
  @Test(arguments: StoreKind.allCases)
  func aCommittedChangeOutlivesItsWriter(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: CommandTests.file)
    let writer = try Store(path: temporary.path)
    _ = try writer.select("t2", in: "tones")
    _ = Unmanaged.passRetained(writer)  // never closed, never checkpointed
    let reader = try Store(path: temporary.path, readOnly: true)
    #expect(try reader.snapshot(of: "home").sections[0].rows[0].detail == "Radar")
  }

  @Test func aCorruptFileIsAClearError() throws {
    let temporary = try TemporaryStore()
    let path = temporary.folder.appendingPathComponent("corrupt.sqlite").path
    try Data(repeating: 0x5A, count: 8_192).write(to: URL(fileURLWithPath: path))
    #expect {
      _ = try Store(path: path)
    } throws: { error in
      guard case StoreError.sqlite(let code, _, _) = error else { return false }
      return SQLiteError(extendedCode: code, message: "", sql: nil).isNotADatabase
        && "\(error)".contains("not a tableweb database")
    }
  }

  @Test(arguments: StoreKind.allCases)

  func aNewerSchemaIsRefused(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind)
    try temporary.store.database.inTransaction(writing: true) { () throws(StoreError) in
      try temporary.store.database.setSchemaVersion(99)
    }
    #expect {
      _ = try Store(path: temporary.path)
    } throws: { error in
      "\(error)".contains("schema version 99")
    }
  }
}
