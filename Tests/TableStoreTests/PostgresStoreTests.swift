import Foundation
import StoreTestSupport
import Testing

@testable import TableStore

/// What only the PostgreSQL store does: reconnecting after its connection was lost.
@Suite struct PostgresStoreTests {
  /// The backend of a store's connection is terminated (as a server restart would): the
  /// next command finds it broken at its first statement, before anything was applied,
  /// so it reconnects and runs whole, once.
  @Test func aStoreReconnectsAfterItsConnectionIsLost() throws {
    let temporary = try TemporaryStore(kind: .postgres, json: CommandTests.file)
    let store = temporary.store
    let pid = try #require(store.database as? PostgresStoreConnection).connection.backendPID
    let admin = try PostgresConnection(temporary.path)
    try admin.execute("SELECT pg_terminate_backend($1)", Int(pid))
    for _ in 0..<200 {
      guard
        try admin.fetchInt("SELECT count(*) FROM pg_stat_activity WHERE pid = $1", Int(pid)) == 1
      else { break }
      Thread.sleep(forTimeInterval: 0.01)
    }
    let version = try admin.fetchInt("SELECT version FROM list WHERE key = 'tones'")
    _ = try store.select("t2", in: "tones")
    #expect(try store.snapshot(of: "home").sections[0].rows[0].detail == "Radar")
    #expect(try store.version(of: "tones") == (version ?? 0) + 1)
  }
}
