import CSQLite
import Foundation

/// SQLite's search index for a bulk import, built on a thread of its own while the writer
/// inserts the rows, and copied into the import's transaction at its end
/// (`Store.buildSearchIndex(from:)`).
///
/// The thread keeps a private in-memory database holding an FTS5 table defined as
/// `row_search` is (trigram, `detail = none`, `columnsize = 0`) but contentless. The
/// writer hands it each loaded row's id and search text, in id order, a batch at a time;
/// the thread inserts them and, once the writer is done, runs `'optimize'` as the import's
/// own build did. `row_search`'s data and term tables are then copied from that database,
/// which holds exactly what `'rebuild'` and `'optimize'` write on the same rows: the same
/// library fed the same rowids and texts in the same order, the index's bytes equal
/// (`SearchIndexTests.anImportsIndexBuiltAsideEqualsTheRebuiltOne`, with FTS5's
/// `'integrity-check'` against `row.search`).
///
/// The import used to build it after the rows, on the writer's thread: 0.48–0.50 s of a
/// 3.01–3.09 s import (`tablebench import`, 1,000,000 rows). Beside the rows, on the
/// second core, the writer waits 0.00 s for it and spends 0.04 s making `row_search` from
/// it; the import's writing takes 2.46–2.59 s. The in-memory database is 14 MB for those
/// rows (`sqlite3_serialize`'s size in Python's sqlite3, the same texts), held twice while
/// it is copied for the writer.
///
/// The writer's side (`add`, `close`, `finish`, `cancel`) is one thread's.
final class SearchIndexBuilder: @unchecked Sendable {
  static let batchSize = 4_096
  /// Batches that may wait for the thread before the writer waits for it.
  static let depth = 8

  static let createTable = """
    CREATE VIRTUAL TABLE row_search USING fts5(
      search, tokenize = 'trigram', content = '', detail = none, columnsize = 0);
    BEGIN;
    """
  static let insertRow = "INSERT INTO row_search (rowid, search) VALUES (?, ?)"

  private let condition = NSCondition()
  // Guarded by `condition`:
  private var queue: [[(id: Int, search: String)]] = []
  private var isClosed = false
  private var isCancelled = false
  private var isDone = false
  private var failure: SQLiteError?
  private var built: DatabaseImage?
  private var buildingTime = Duration.zero
  // The writer's:
  private var batch: [(id: Int, search: String)] = []
  private(set) var waited = Duration.zero

  init() {
    batch.reserveCapacity(Self.batchSize)
    let thread = Thread { [self] in run() }
    thread.name = "tableweb search index"
    thread.start()
  }

  /// Adds a loaded row; ids come in increasing order.
  func add(_ id: Int, _ search: String) {
    batch.append((id, search))
    if batch.count == Self.batchSize { hand() }
  }

  private func hand() {
    let began = ContinuousClock.now
    condition.lock()
    while queue.count >= Self.depth && !isDone { condition.wait() }
    if !isDone { queue.append(batch) }
    condition.signal()
    condition.unlock()
    waited += ContinuousClock.now - began
    batch.removeAll(keepingCapacity: true)
  }

  /// Tells the thread that every row is in, so that it optimizes its index while the
  /// writer goes on (building the table's own indexes). Again changes nothing.
  func close() {
    if !batch.isEmpty { hand() }
    condition.lock()
    isClosed = true
    condition.signal()
    condition.unlock()
  }

  /// Waits for the thread to have every row in and its index optimized, and returns its
  /// database; throws what failed it.
  func finish() throws(SQLiteError) -> DatabaseImage {
    close()
    let began = ContinuousClock.now
    condition.lock()
    while !isDone { condition.wait() }
    defer { condition.unlock() }
    waited += ContinuousClock.now - began
    if let failure { throw failure }
    guard let image = built.take() else {
      throw SQLiteError(
        extendedCode: SQLITE_ERROR, message: "the search index was taken already", sql: nil)
    }
    return image
  }

  /// The time the thread spent building (read after `finish()`).
  var building: Duration {
    condition.lock()
    defer { condition.unlock() }
    return buildingTime
  }

  /// Stops the thread, keeping nothing (the load failed, or `finish()` returned).
  func cancel() {
    condition.lock()
    isCancelled = true
    condition.signal()
    condition.unlock()
  }

  private func run() {
    var image: DatabaseImage?
    var error: SQLiteError?
    do throws(SQLiteError) {
      image = try build()
    } catch let thrown {
      error = thrown
    }
    condition.lock()
    built = image.take()
    failure = error
    isDone = true
    queue.removeAll()
    condition.broadcast()
    condition.unlock()
  }

  /// The thread's work: nil when cancelled.
  private func build() throws(SQLiteError) -> DatabaseImage? {
    let database = try Database(path: ":memory:")
    try database.executeScript(Self.createTable)
    let insert = try database.cachedStatement(Self.insertRow)
    while true {
      condition.lock()
      while queue.isEmpty && !isClosed && !isCancelled { condition.wait() }
      if isCancelled {
        condition.unlock()
        return nil
      }
      guard !queue.isEmpty else {
        condition.unlock()
        break
      }
      let rows = queue.removeFirst()
      condition.signal()
      condition.unlock()
      let began = ContinuousClock.now
      for row in rows { try insert.execute([row.id, row.search]) }
      account(ContinuousClock.now - began)
    }
    let began = ContinuousClock.now
    try database.executeScript(
      "COMMIT; INSERT INTO row_search (row_search) VALUES ('optimize');")
    let image = try database.image()
    account(ContinuousClock.now - began)
    return image
  }

  private func account(_ duration: Duration) {
    condition.lock()
    buildingTime += duration
    condition.unlock()
  }
}
