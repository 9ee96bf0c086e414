import Foundation
import StoreTestSupport
import Testing

@testable import TableStore

/// libpq through `PostgresConnection`, against a real throwaway cluster.
@Suite struct PostgresConnectionTests {
  func connection() throws -> PostgresConnection {
    try PostgresConnection(PostgresCluster.shared.get().newDatabase())
  }

  @Test func argumentsTravelApartFromTheStatement() throws {
    let db = try connection()
    try db.executeScript("CREATE TABLE t (id integer PRIMARY KEY, name text, done boolean)")
    let awkward = "O'Brien; DROP TABLE t; -- ✓ \u{1F600}"
    #expect(try db.execute("INSERT INTO t VALUES ($1, $2, $3)", 1, awkward, true) == 1)
    #expect(try db.execute("INSERT INTO t VALUES ($1, $2, $3)", 2, nil, false) == 1)
    let rows = try db.fetchAll("SELECT id, name, done FROM t ORDER BY id") { row in
      (row.int(0), row.optionalString(1), row.bool(2))
    }
    #expect(rows.map(\.0) == [1, 2])
    #expect(rows.map(\.1) == [awkward, nil])
    #expect(rows.map(\.2) == [true, false])
    #expect(try db.fetchInt("SELECT count(*) FROM t WHERE id > $1", 1) == 1)
    #expect(try db.fetchOne("SELECT name FROM t WHERE id = $1", [99]) { $0.string(0) } == nil)
    #expect(try db.execute("UPDATE t SET done = NOT done") == 2)
  }

  @Test func failuresCarryTheirSQLStateMessageAndStatement() throws {
    let db = try connection()
    try db.executeScript("CREATE TABLE t (id integer PRIMARY KEY)")
    try db.execute("INSERT INTO t VALUES ($1)", 1)
    do {
      try db.execute("INSERT INTO t VALUES ($1)", 1)
      Issue.record("a duplicate key was accepted")
    } catch {
      #expect(error.isUniqueViolation)
      #expect(error.message.contains("duplicate key"))
      #expect(error.statement == "INSERT INTO t VALUES ($1)")
      #expect(!error.isConnectionFailure)
    }
    #expect(throws: PostgresError.self) { try db.execute("SELECT * FROM missing") }
    do {
      _ = try db.fetchAll("SELEKT 1") { _ in 0 }
      Issue.record("a syntax error was accepted")
    } catch {
      #expect(error.sqlState == "42601")
      #expect(error.description.contains("SELEKT 1"))
    }
  }

  @Test func aTransactionIsAppliedWholeOrNotAtAll() throws {
    struct Refused: PostgresErrorConvertible {
      init(_ error: PostgresError) {}
      init() {}
    }
    let db = try connection()
    try db.executeScript("CREATE TABLE t (id integer PRIMARY KEY)")
    #expect(throws: Refused.self) {
      try db.inTransaction { () throws(Refused) in
        do throws(PostgresError) { try db.execute("INSERT INTO t VALUES (1)") } catch {
          throw Refused(error)
        }
        throw Refused()
      }
    }
    #expect(try db.fetchInt("SELECT count(*) FROM t") == 0)
    #expect(throws: PostgresError.self) {
      try db.inTransaction { () throws(PostgresError) in
        try db.execute("INSERT INTO t VALUES (1)")
        try db.execute("INSERT INTO t VALUES (1)")
      }
    }
    #expect(try db.fetchInt("SELECT count(*) FROM t") == 0)
    try db.inTransaction { () throws(PostgresError) in
      try db.execute("INSERT INTO t VALUES (1)")
      try db.execute("INSERT INTO t VALUES (2)")
    }
    #expect(try db.fetchInt("SELECT count(*) FROM t") == 2)
  }

  @Test func notificationsArriveOnlyWhenTheirTransactionCommits() throws {
    let url = try PostgresCluster.shared.get().newDatabase()
    let listener = try PostgresConnection(url)
    let sender = try PostgresConnection(url)
    try listener.listen("changes")
    #expect(throws: PostgresError.self) {
      try sender.inTransaction { () throws(PostgresError) in
        try sender.notify("changes", "L1:7")
        try sender.execute("SELECT 1/0")
      }
    }
    try sender.inTransaction { () throws(PostgresError) in try sender.notify("changes", "L2:8") }
    var received: [PostgresConnection.Notification] = []
    let deadline = Date().addingTimeInterval(5)
    while received.isEmpty, Date() < deadline {
      received += try listener.pendingNotifications()
      if received.isEmpty { usleep(10_000) }
    }
    #expect(received.map(\.payload) == ["L2:8"])
    #expect(received.first?.channel == "changes")
    #expect(received.first?.senderPID == sender.backendPID)
    #expect(received.first?.senderPID != listener.backendPID)
  }

  @Test func aLostConnectionIsReportedAsOne() throws {
    let url = try PostgresCluster.shared.get().newDatabase()
    let victim = try PostgresConnection(url)
    let killer = try PostgresConnection(url)
    #expect(
      try killer.fetchOne("SELECT pg_terminate_backend($1)", [Int(victim.backendPID)]) {
        $0.bool(0)
      } == true)
    do {
      _ = try victim.fetchInt("SELECT 1")
      Issue.record("a terminated connection still answered")
    } catch {
      #expect(error.isConnectionFailure)
    }
    #expect(!victim.isConnected)
  }

  @Test func aServerThatIsNotThereIsAClearErrorWithoutThePassword() throws {
    do {
      _ = try PostgresConnection("postgres://someone:s3cret@127.0.0.1:1/nothing?connect_timeout=2")
      Issue.record("connected to a closed port")
    } catch {
      #expect(error.sqlState == "08001")
      #expect(error.isConnectionFailure)
      #expect(!error.description.contains("s3cret"))
    }
    #expect(
      PostgresConnection.redacted("postgres://u:s3cret@h:5432/db?password=x&sslmode=disable")
        == "postgres://u:***@h:5432/db?password=***&sslmode=disable")
    #expect(
      PostgresConnection.redacted("host=h password=pw user=u") == "host=h password=*** user=u")
  }
}
