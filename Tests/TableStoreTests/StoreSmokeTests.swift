import Foundation
import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

@Suite struct StoreSmokeTests {
  @Test(arguments: StoreKind.allCases)
  func importsSnapshotsAndInserts(kind: StoreKind) throws {
    let temporary = try TemporaryStore(
      kind: kind,
      json: """
        {"title": "Tasks", "editable": true, "sections": [{"id": "S", "rows": [
          {"id": "a", "text": "A"}, {"id": "b", "text": "B"}]}]}
        """)
    let store = temporary.store
    let root = try store.rootList()
    var snapshot = try store.snapshot(of: root)
    #expect(snapshot.sections[0].rows.map(\.text) == ["A", "B"])
    let change = try store.insertRow(in: root, section: "S", after: "a", NewRow(text: "C"))
    #expect(change.lists.count == 1)
    #expect(change.lists[0].version == snapshot.version + 1)
    try snapshot.apply(try #require(change.lists[0].edits))
    snapshot.version = change.lists[0].version
    #expect(snapshot == (try store.snapshot(of: root)))
    #expect(snapshot.sections[0].rows.map(\.text) == ["A", "C", "B"])
  }
}

@Suite struct ThreadCheckerTests {
  @Test func aCheckerBindsToTheFirstThreadAndKnowsItsOwner() {
    let checker = ThreadChecker("Thing")
    #expect(!checker.isOwnerThread)
    checker.check()
    #expect(checker.isOwnerThread)
    let elsewhere = LockedValue<Bool?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread {
      elsewhere.withLock { $0 = checker.isOwnerThread }
      done.signal()
    }.start()
    done.wait()
    #expect(elsewhere.withLock { $0 } == false)
    checker.unbind()
    #expect(!checker.isOwnerThread)
  }

  @Test func exclusiveUseIsReentrantAndReleased() {
    let checker = ThreadChecker("Thing")
    let value = checker.exclusively { checker.exclusively { 42 } }
    #expect(value == 42)
    #expect(!checker.isOwnerThread)
  }
}

@Suite struct ThreadCheckerFailureTests {
  @Test func aSecondThreadStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      let checker = ThreadChecker("Thing")
      checker.check()
      let done = DispatchSemaphore(value: 0)
      Thread {
        checker.check()
        done.signal()
      }.start()
      done.wait()
    }
  }

  @Test func aSecondThreadInsideExclusiveUseStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      let checker = ThreadChecker("Thing")
      checker.exclusively {
        let done = DispatchSemaphore(value: 0)
        Thread {
          checker.exclusively {}
          done.signal()
        }.start()
        done.wait()
      }
    }
  }
}
