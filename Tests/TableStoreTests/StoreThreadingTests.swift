import CSQLite
import Foundation
import StoreTestSupport
import Testing

@testable import TableStore

/// A store is used from one thread at a time: a second thread reading while the first has
/// a transaction open stops the program, on both backends, instead of running its
/// statements inside the first one's transaction on the shared connection.
@Suite struct StoreThreadingTests {
  /// SQLite keeps no memory statistics: with them, every allocation of every connection
  /// takes one process-wide mutex, and a search thread at nice 10, preempted while holding
  /// it, held the service thread for up to 123 ms (`tablebench search` on a busy machine).
  @Test func connectionsShareNoMutexForMemoryStatistics() throws {
    let database = try Database(path: ":memory:")
    try database.runScript("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('a'), ('b');")
    #expect(try database.fetchInt("SELECT count(*) FROM t") == 2)
    #expect(sqlite3_memory_used() == 0, "SQLite counts its memory: SQLITE_CONFIG_MEMSTATUS is on")
  }

  @Test(arguments: StoreKind.allCases)
  func aSecondThreadReadingInsideAnotherThreadsTransactionStopsTheProgram(kind: StoreKind) async {
    await #expect(processExitsWith: .failure) { [kind] in
      try Self.readFromASecondThreadInsideATransaction(kind)
    }
  }

  /// Opens a read transaction and, inside it, reads from another thread.
  static func readFromASecondThreadInsideATransaction(_ kind: StoreKind) throws {
    let temporary = try TemporaryStore(
      kind: kind,
      json:
        #"{"id": "L", "title": "L", "sections": [{"id": "S", "rows": [{"id": "R", "text": "x"}]}]}"#
    )
    nonisolated(unsafe) let store = temporary.store
    try store.read { () throws(StoreError) in
      let done = DispatchSemaphore(value: 0)
      Thread {
        _ = try? store.snapshot(of: "L")
        done.signal()
      }.start()
      done.wait()
    }
    withExtendedLifetime(temporary) {}
  }
}
