import CPostgres
import Foundation
import StoreTestSupport
import Testing

@testable import TableStore

/// libpq's pipeline mode through `PostgresConnection` (what a group's writes use), against
/// a real throwaway cluster.
@Suite struct PostgresPipelineTests {
  func table() throws -> PostgresConnection {
    let db = try PostgresConnection(PostgresCluster.shared.get().newDatabase())
    try db.executeScript("CREATE TABLE t (id integer PRIMARY KEY, name text)")
    return db
  }

  func beginPipelineInATransaction(_ db: PostgresConnection) throws {
    try db.executeScript("BEGIN")
    try db.beginPipeline()
  }

  @Test func statementsSentAheadAreInPlaceForTheNextRead() throws {
    let db = try table()
    try beginPipelineInATransaction(db)
    #expect(db.isPipelined)
    for id in 1...5 {
      // The first use of the statement prepares it inside the pipeline.
      try db.executeLater("INSERT INTO t VALUES ($1, $2)", arguments: [id, "row \(id)"])
    }
    try db.executeLater("UPDATE t SET name = $1 WHERE id = $2", arguments: ["three", 3])
    #expect(
      try db.fetchAll("SELECT name FROM t ORDER BY id") { $0.string(0) }
        == ["row 1", "row 2", "three", "row 4", "row 5"])
    try db.executeLater("DELETE FROM t WHERE id = $1", arguments: [5])
    try db.endPipeline()
    #expect(!db.isPipelined)
    try db.executeScript("COMMIT")
    #expect(try db.fetchInt("SELECT count(*) FROM t") == 4)
  }

  @Test func anErrorSentAheadSurfacesAtTheNextReadAndAbortsWhatFollows() throws {
    let db = try table()
    try db.execute("INSERT INTO t VALUES ($1, $2)", 1, "one")
    try beginPipelineInATransaction(db)
    try db.executeLater("INSERT INTO t VALUES ($1, $2)", arguments: [2, "two"])
    try db.executeLater("INSERT INTO t VALUES ($1, $2)", arguments: [1, "again"])  // duplicate
    try db.executeLater("INSERT INTO t VALUES ($1, $2)", arguments: [3, "three"])
    do {
      _ = try db.fetchInt("SELECT count(*) FROM t")
      Issue.record("the duplicate went unnoticed")
    } catch {
      #expect(error.isUniqueViolation)
      #expect(error.statement == "INSERT INTO t VALUES ($1, $2)")
    }
    try db.endPipeline()
    try db.executeScript("ROLLBACK")
    #expect(try db.fetchAll("SELECT name FROM t ORDER BY id") { $0.string(0) } == ["one"])
  }

  @Test func endingThePipelineReportsAnErrorStillUnread() throws {
    let db = try table()
    try beginPipelineInATransaction(db)
    try db.executeLater("INSERT INTO t VALUES ($1, $2)", arguments: [1, "one"])
    try db.executeLater("INSERT INTO t VALUES ($1, $2)", arguments: [1, "one again"])
    #expect(throws: PostgresError.self) { try db.endPipeline() }
    #expect(!db.isPipelined)
    try db.executeScript("ROLLBACK")
    #expect(try db.fetchInt("SELECT count(*) FROM t") == 0)
  }

  /// `fetchTogether` (one sync for all its reads: not counted here) reads each statement's
  /// result in order, after the writes sent ahead of it.
  @Test func readsFetchedTogetherSeeWhatWasSentAhead() throws {
    let db = try table()
    try beginPipelineInATransaction(db)
    try db.executeLater("INSERT INTO t VALUES ($1, $2)", arguments: [1, "one"])
    try db.executeLater("INSERT INTO t VALUES ($1, $2)", arguments: [2, "two"])
    var seen: [Int: String] = [:]
    try db.fetchTogether([
      ("SELECT name FROM t WHERE id = $1", [2]),
      ("SELECT count(*) FROM t WHERE id > $1", [0]),
      ("SELECT name FROM t WHERE id = $1", [9]),  // no row
    ]) { index, result in
      if PQntuples(result) > 0 { seen[index] = PostgresRow(result: result, index: 0).string(0) }
    }
    #expect(seen == [0: "two", 1: "2"])
    try db.endPipeline()
    try db.executeScript("ROLLBACK")
  }
}
