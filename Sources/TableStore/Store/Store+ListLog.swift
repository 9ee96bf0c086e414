import TableModel

/// The change log: every committed change to a list, appended in the change's own
/// transaction, so that any process sharing the file can publish it (changes made by
/// another server) and rebuild older versions of a list (a client resuming with `have`).
///
/// Each entry holds the list, its new version, the `RowEdit`s (by id, as the store
/// reports them) and the `PriorRow`s: the content and place before the change of every
/// row it deleted, moved or updated. That is enough to undo an entry on the current
/// snapshot (`TableSnapshot.undoing(_:prior:)`): any server rebuilds the snapshot at
/// version N from the current one and the log, then replays forward and diffs, without
/// keeping snapshots of old versions. (Storing index-based diffs instead would need the
/// list read before every change, which a 1,000,000-row list cannot afford.)
///
/// An import writes one `replaced` entry: readers resend whole screens. Deleted child
/// lists get `removed` entries. Retention is bounded by ``LogRetention``.
extension Store {
  /// One entry of the change log.
  public struct LogEntry: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
      /// The list went to `version` by `edits` (nil when the writer could not say).
      case edits
      /// The list no longer exists.
      case removed
      /// Everything was replaced (an import): every list is to be read again.
      case replaced
    }

    public var id: Int
    public var list: String
    public var version: Int?
    public var kind: Kind
    public var edits: [RowEdit]?
    public var prior: [PriorRow]?
  }

  /// How much of the change log is kept: at most `count` entries (up to 63 more between
  /// prunings), none older than `age` seconds. A client further behind gets a screen.
  public struct LogRetention: Sendable, Hashable {
    public var count: Int
    public var age: Int

    public init(count: Int = LogRetention.default.count, age: Int = LogRetention.default.age) {
      self.count = count
      self.age = age
    }

    /// 10,000 entries, one day.
    public static let `default` = LogRetention(count: 10_000, age: 24 * 60 * 60)
  }

  /// Appends the entries of a committed `change` (inside its write transaction), with the
  /// prior rows its write noted in `context`.
  func appendToLog(_ change: TableChange, _ context: WriteContext) throws(StoreError) {
    try changeLogStore.append(change, context)
  }

  /// Appends the entries the open write transaction kept for its end (PostgreSQL: under
  /// the commit lock, so that ids grow in commit order).
  func flushLog() throws(StoreError) {
    try changeLogStore.flushPending()
  }

  /// Forgets what the write transaction kept for its end (``flushLog()``): it was rolled
  /// back, or is about to start.
  func discardPending() {
    pendingLog = []
    pendingRecords = []
    pendingUndoSteps = []
  }

  /// Appends a `replaced` entry: every list was rewritten (an import).
  func appendReplacedToLog(by author: ChangeAuthor?) throws(StoreError) {
    try changeLogStore.appendReplaced(by: author)
  }

  /// The id of the newest entry (0 when the log is empty): where a reader starts.
  public func logHighWater() throws(StoreError) -> Int {
    try changeLogStore.highWater()
  }

  /// The most entries ``logEntries(after:limit:skipping:)`` returns by default: fewer means the
  /// log held no more when it was read.
  public static let logBatch = 1_000

  /// Up to `limit` entries after `id`, oldest first. An entry for which `skipping` (given
  /// its list and version) says true comes without its edits and prior rows, which are
  /// then not decoded: a server skips what it has published already (its own commits).
  /// Inside a group (`committingTogether(_:)`), after the first read there: none, since
  /// only the group's own entries can have come, unless a list it locked since changed
  /// meanwhile (see `logReadIsNeeded(skipping:)`).
  public func logEntries(
    after id: Int, limit: Int = logBatch, skipping: (String, Int?) -> Bool = { _, _ in false }
  ) throws(StoreError) -> [LogEntry] {
    try changeLogStore.entries(after: id, limit: limit, skipping: skipping)
  }

  /// The entries that take `list` past `version`, in order, when the log still holds every
  /// one of them up to `current`; nil when it does not (pruned, or an import since).
  public func logEntries(of list: String, after version: Int, upTo current: Int)
    throws(StoreError) -> [LogEntry]?
  {
    try changeLogStore.entries(of: list, after: version, upTo: current)
  }
}

extension Store {
  /// SQLite's `PRAGMA data_version` (changes whenever another connection, in this process
  /// or another, commits to the file; no page is read), PostgreSQL's newest change-log id.
  /// A watcher polls it on a connection of its own to learn that the change log has grown.
  package func dataVersion() throws(StoreError) -> Int {
    try database.dataVersion()
  }
}
