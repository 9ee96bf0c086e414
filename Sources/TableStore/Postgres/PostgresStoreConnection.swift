import CPostgres
import TableModel

/// PostgreSQL as a ``Store``'s connection. The store's statements are SQLite's dialect
/// with `?`/`?N` placeholders: each text is rewritten to `$N` once and then prepared once
/// (`PostgresConnection` caches prepared statements by their text). `unixepoch()` is a
/// function the schema defines; booleans are `boolean` columns, which read as 0 or 1.
///
/// Transactions: a read runs in `REPEATABLE READ, READ ONLY`, so that it sees one state
/// throughout, as a SQLite read transaction does. A write runs in `READ COMMITTED` and
/// first takes transaction-scoped advisory locks (``WriteLocks``): a write to some lists
/// takes ``writeLock`` shared and then each list's lock (``listLockClass``, a stable hash of
/// the list's id), in one order (ascending keys), so writers of different lists, on any
/// number of servers, run side by side while each list's version still goes up by one per
/// change with no duplicate; an import or a grant takes ``writeLock`` exclusively and waits
/// for every other writer (and they for it), as the single lock of before did.
///
/// The change log's ids then no longer come in commit order by themselves: a write to
/// list A could take id 10, a write to list B id 11 and commit first, and a reader that
/// saw 11 would never look at 10 again. So the log's entries are appended last, just
/// before COMMIT, under a third lock (``commitLock``, see ``lockLogForCommit()``) held
/// until the transaction has committed: ids are handed out in commit order, and a reader
/// that sees id N sees every entry below it (what ``Store/logEntries(after:limit:)``
/// relies on). PostgreSQL makes a commit visible before it releases the transaction's
/// locks, so the next holder's entries are visible only after this one's.
///
/// - Important: Not `Sendable`: use it from one thread at a time (libpq's rule).
final class PostgresStoreConnection: StoreConnection {
  let connection: PostgresConnection
  let isReadOnly: Bool
  private(set) var changes = 0
  /// Statements run that do not start with SELECT (see `StoreConnection.modifications`).
  private(set) var modifications = 0
  /// The PostgreSQL text of each statement, by its SQLite text, and whether it returns
  /// the id of the row it inserts (see ``statement(_:)``).
  private var texts: [String: (text: String, returnsID: Bool)] = [:]
  /// The id of the row the last INSERT into a table with ids made.
  private var lastID = 0

  /// The advisory lock key every write transaction takes ("tw" + 1): shared by writes to
  /// some lists, exclusive for a write that may change anything.
  static let writeLock = 0x7477_0001
  /// The advisory lock key a write transaction takes just before it appends to the change
  /// log, held until it has committed ("tw" + 2).
  static let commitLock = 0x7477_0002
  /// The first half of a list's advisory lock key (PostgreSQL's two-key form, a space
  /// apart from the one-key locks above); the second half is ``listLockKey(_:)``.
  static let listLockClass: Int32 = 0x7477

  /// A list's lock key: FNV-1a of its id's UTF-8, the same on every server and build
  /// (Swift's `Hasher` is seeded per process). Two lists sharing a key only wait for each
  /// other.
  static func listLockKey(_ list: String) -> Int32 {
    var hash: UInt32 = 2_166_136_261
    for byte in list.utf8 {
      hash ^= UInt32(byte)
      hash = hash &* 16_777_619
    }
    return Int32(bitPattern: hash)
  }

  /// The lists' keys the open write transaction holds; nil: it holds ``writeLock``
  /// exclusively, which covers every list.
  private var heldListKeys: Set<Int32>? = []

  /// BEGIN with the locks of `locking`, in one round trip.
  private func beginScript(_ locking: WriteLocks) -> String {
    switch locking {
    case .all:
      heldListKeys = nil
      return "BEGIN; SELECT pg_advisory_xact_lock(\(Self.writeLock))"
    case .lists(let lists):
      let keys = Set(lists.map(Self.listLockKey))
      heldListKeys = keys
      return
        (["BEGIN", "SELECT pg_advisory_xact_lock_shared(\(Self.writeLock))"]
        + keys.sorted().map { "SELECT pg_advisory_xact_lock(\(Self.listLockClass), \($0))" })
        .joined(separator: "; ")
    }
  }

  /// Sent ahead in a group's pipeline (no round trip of its own: a group of 64 commands
  /// may lock 50 lists). Out of order it tries, and a lock another writer holds makes the
  /// statement fail (a division by zero, since plain SQL cannot raise an error; a constant
  /// error would be raised at planning), which aborts the transaction: the group breaks,
  /// and its commands run again one by one.
  func lockList(_ list: String) throws(StoreError) {
    guard var held = heldListKeys else { return }
    let key = Self.listLockKey(list)
    guard !held.contains(key) else { return }
    let lock = "(\(Self.listLockClass), \(key))"
    _ = try runLater(
      held.allSatisfy({ $0 < key })
        ? "SELECT pg_advisory_xact_lock\(lock)"
        : "SELECT 1 / pg_try_advisory_xact_lock\(lock)::int", [])
    held.insert(key)
    heldListKeys = held
  }

  func lockAll() throws(StoreError) {
    guard heldListKeys != nil else { return }
    try run("SELECT pg_advisory_xact_lock(\(Self.writeLock))", [])
    heldListKeys = nil
  }

  func holdsLock(of list: String) -> Bool {
    heldListKeys.map { $0.contains(Self.listLockKey(list)) } ?? true
  }

  func lockLogForCommit() throws(StoreError) {
    // Sent ahead in a group's pipeline: nothing is read from it.
    _ = try runLater("SELECT pg_advisory_xact_lock(\(Self.commitLock))", [])
  }

  var dialect: SQLDialect { .postgres }

  /// Connects to `url` (`postgres://…` or `postgresql://…`). A read-only connection makes
  /// every transaction read-only on the server too.
  init(url: String, readOnly: Bool) throws(StoreError) {
    do {
      connection = try PostgresConnection(url)
    } catch {
      throw StoreError(Self.oneLine(error, hiding: url))
    }
    isReadOnly = readOnly
    if readOnly { try runScript("SET default_transaction_read_only = on") }
  }

  /// libpq's message on one line, with any password in `url` (libpq may quote the part
  /// of a URL it could not parse) replaced by `***`.
  static func oneLine(_ error: PostgresError, hiding url: String) -> PostgresError {
    var error = error
    error.message = error.message.split(whereSeparator: \.isNewline)
      .map { $0.drop(while: \.isWhitespace) }.filter { !$0.isEmpty }.joined(separator: "; ")
    if let password = password(in: url), !password.isEmpty {
      error.message = error.message.replacing(password, with: "***")
    }
    return error
  }

  /// The password in a `postgres://user:password@host` URL or a `password=` option.
  static func password(in url: String) -> String? {
    if let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@"),
      let colon = url[scheme.upperBound..<at].firstIndex(of: ":")
    {
      return String(url[url.index(after: colon)..<at])
    }
    guard let option = url.range(of: "password=") else { return nil }
    let end =
      url[option.upperBound...].firstIndex(where: { $0 == " " || $0 == "&" }) ?? url.endIndex
    return String(url[option.upperBound..<end])
  }

  var access: ThreadChecker { connection.access }

  /// A transaction is open on the server (a broken connection has none).
  var isInTransaction: Bool {
    let status = PQtransactionStatus(connection.handle)
    return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
  }

  /// Whether ``inTransaction(writing:_:)`` is running a transaction: no reconnecting then,
  /// since the rest of it would run outside the transaction.
  private var isInsideTransaction = false

  /// Connects again when the connection broke, between transactions, with back-off
  /// (`PostgresConnection.reconnectWithBackoff(now:)`): the command that found it broken
  /// failed whole, and a later one gets a new connection once the server is back.
  private func reconnectIfBroken() throws(StoreError) {
    guard !isInsideTransaction, !connection.isConnected else { return }
    do {
      try connection.reconnectWithBackoff()
    } catch {
      throw StoreError(error)
    }
    if isReadOnly { try runScript("SET default_transaction_read_only = on") }
  }

  /// Runs a transaction's first statement. A connection that broke while idle (the server
  /// restarted since the last command) is only found broken here: then nothing has been
  /// applied yet, so it connects again (back-off permitting) and runs it once more.
  private func begin(_ script: String) throws(StoreError) {
    do {
      try connection.executeScript(script)
    } catch  where error.isConnectionFailure && !connection.isConnected {
      do {
        try connection.reconnectWithBackoff()
      } catch {
        throw StoreError(error)
      }
      if isReadOnly { try runScript("SET default_transaction_read_only = on") }
      try runScript(script)
    } catch {
      throw StoreError(error)
    }
  }

  /// The PostgreSQL text of a statement written with SQLite's placeholders: `?N` becomes
  /// `$N`, and a bare `?` the number after the highest so far (SQLite's rule). Quoted
  /// text and identifiers are left alone.
  static func postgresText(_ sql: String) -> String {
    var result = ""
    result.reserveCapacity(sql.utf8.count + 8)
    var highest = 0
    var quote: Character?
    var characters = sql.makeIterator()
    var pending: Character? = characters.next()
    while let character = pending {
      pending = characters.next()
      if let open = quote {
        result.append(character)
        if character == open { quote = nil }
        continue
      }
      switch character {
      case "'", "\"":
        quote = character
        result.append(character)
      case "?":
        var digits = ""
        while let next = pending, next.isASCII, next.isNumber {
          digits.append(next)
          pending = characters.next()
        }
        let index = Int(digits) ?? (highest + 1)
        highest = max(highest, index)
        result += "$\(index)"
      default:
        result.append(character)
      }
    }
    return result
  }

  /// The tables whose rows have an identity `id` (SQLite's rowid).
  static let tablesWithIDs: Set<String> = [
    "list", "section", "block", "row", "change_log", "list_log",
  ]

  /// The PostgreSQL form of a statement, made once per text. An `INSERT` into a table
  /// with ids also returns the new row's id (`RETURNING id`), so that
  /// ``lastInsertID()`` costs no round trip, as SQLite's `last_insert_rowid` costs none.
  private func statement(_ sql: String) -> (text: String, returnsID: Bool) {
    if let known = texts[sql] { return known }
    var text = Self.postgresText(sql)
    let words = sql.split(whereSeparator: { $0.isWhitespace || $0 == "(" }).prefix(3)
    let returnsID =
      words.count == 3 && words[0] == "INSERT" && words[1] == "INTO"
      && Self.tablesWithIDs.contains(String(words[2])) && !sql.contains("RETURNING")
    if returnsID { text += " RETURNING id" }
    texts[sql] = (text, returnsID)
    return (text, returnsID)
  }

  private func text(_ sql: String) -> String { statement(sql).text }

  private static func values(_ arguments: [any DatabaseValueConvertible]) -> [(any PostgresValue)?]
  {
    arguments.map { argument -> (any PostgresValue)? in
      switch argument.databaseValue {
      case .null: return nil
      case .integer(let value): return Int(value)
      case .real(let value): return value
      case .text(let value): return value
      }
    }
  }

  func run(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws(StoreError) {
    try reconnectIfBroken()
    if !sql.hasPrefix("SELECT") { modifications += 1 }
    let (text, returnsID) = statement(sql)
    do {
      if returnsID {
        lastID = try connection.fetchOne(text, Self.values(arguments)) { $0.int(0) } ?? 0
        changes = 1
      } else {
        changes = try connection.execute(text, arguments: Self.values(arguments))
      }
    } catch {
      throw StoreError(error)
    }
  }

  func each(
    _ sql: String, _ arguments: [any DatabaseValueConvertible], _ body: (Columns) -> Bool
  ) throws(StoreError) {
    try reconnectIfBroken()
    if !sql.hasPrefix("SELECT") { modifications += 1 }
    var going = true
    do {
      _ = try connection.fetchAll(text(sql), Self.values(arguments)) { row -> Void in
        if going { going = body(.postgres(row)) }
      }
    } catch {
      throw StoreError(error)
    }
  }

  func firstRows(
    _ statements: [(sql: String, arguments: [any DatabaseValueConvertible])],
    _ body: (Int, Columns) -> Void
  ) throws(StoreError) {
    guard connection.isPipelined else { return try firstRowsOneByOne(statements, body) }
    do {
      try connection.fetchTogether(statements.map { (text($0.sql), Self.values($0.arguments)) }) {
        index, result in
        if PQntuples(result) > 0 { body(index, .postgres(PostgresRow(result: result, index: 0))) }
      }
    } catch {
      throw StoreError(error)
    }
  }

  func runLater(_ sql: String, _ arguments: [any DatabaseValueConvertible]) throws(StoreError)
    -> Bool
  {
    guard connection.isPipelined else {
      try run(sql, arguments)
      return false
    }
    modifications += 1
    do {
      try connection.executeLater(text(sql), arguments: Self.values(arguments))
    } catch {
      throw StoreError(error)
    }
    return true
  }

  func runScript(_ sql: String) throws(StoreError) {
    modifications += 1
    do {
      try connection.executeScript(sql)
    } catch {
      throw StoreError(error)
    }
  }

  /// The id the last INSERT into a table with ids returned.
  func lastInsertID() throws(StoreError) -> Int { lastID }

  func inTransaction<T>(
    writing: Bool, locking: WriteLocks, _ body: () throws(StoreError) -> T
  ) throws(StoreError) -> T {
    try connection.access.exclusively { () throws(StoreError) -> T in
      // BEGIN and the write locks in one round trip.
      try reconnectIfBroken()
      isInsideTransaction = true
      defer { isInsideTransaction = false }
      let value: T
      do throws(StoreError) {
        try begin(
          writing ? beginScript(locking) : "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        value = try body()
        try run("COMMIT", [])
      } catch {
        rollBack()
        throw error
      }
      return value
    }
  }

  func beginWrite() throws(StoreError) {
    precondition(!isInsideTransaction, "beginWrite inside a transaction")
    try reconnectIfBroken()
    try begin(beginScript(.lists([])))
    isInsideTransaction = true
    do {
      try connection.beginPipeline()
    } catch {
      rollBack()
      isInsideTransaction = false
      throw StoreError(error)
    }
  }

  func endWrite(committing: Bool) throws(StoreError) {
    defer { isInsideTransaction = false }
    guard committing else { return rollBack() }
    do {
      try connection.endPipeline()
    } catch {
      rollBack()
      throw StoreError(error)
    }
    // PostgreSQL answers COMMIT of an aborted transaction by rolling it back, without an
    // error: that must not pass for a commit.
    guard PQtransactionStatus(connection.handle) == PQTRANS_INTRANS else {
      rollBack()
      throw StoreError.postgres(
        sqlState: nil, message: "the transaction was aborted and is rolled back", sql: "COMMIT")
    }
    do {
      try run("COMMIT", [])
    } catch {
      rollBack()
      // The connection broke while the COMMIT was on its way: the server may have
      // committed it or not, and nobody here can tell.
      guard connection.isConnected else { throw StoreError.commitOutcomeUnknown(after: error) }
      throw error
    }
  }

  private func rollBack() {
    do {
      try connection.endPipeline()
    } catch {
      // What made us roll back is the error to report; this one is a consequence.
    }
    guard isInTransaction else { return }
    do {
      try run("ROLLBACK", [])
    } catch {
      // The error that made us roll back is the one worth reporting; a connection that
      // broke has nothing left applied.
    }
  }

  func schemaVersion() throws(StoreError) -> Int {
    guard try integer("SELECT to_regclass('tableweb_schema') IS NOT NULL") == 1 else { return 0 }
    return try integer("SELECT max(version) FROM tableweb_schema")
  }

  func setSchemaVersion(_ version: Int) throws(StoreError) {
    try runScript(
      """
      CREATE TABLE IF NOT EXISTS tableweb_schema (version INTEGER NOT NULL);
      DELETE FROM tableweb_schema;
      INSERT INTO tableweb_schema (version) VALUES (\(version));
      """)
  }

  /// The change log's newest id: every commit that changes a list appends to it.
  func dataVersion() throws(StoreError) -> Int {
    try integer("SELECT coalesce(max(id), 0) FROM list_log")
  }

  func ping() -> Bool {
    do {
      try run("SELECT 1", [])
      return true
    } catch {
      return false
    }
  }
}
