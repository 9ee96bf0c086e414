import TableModel

/// What a data source offers beyond ``TableDataSource``, said once: the server reads
/// ``TableDataSource/capabilities`` when it is made and does what it says. Adopting one of
/// the protocols named here changes nothing until the data source declares it too.
///
/// ```swift
/// final class Shelf: WindowedDataSource {
///   var capabilities: DataSourceCapabilities { DataSourceCapabilities(windows: self) }
///   …
/// }
/// ```
///
/// Each capability is the object that provides it (nearly always the data source itself),
/// so a declaration can only name what the type really implements.
public struct DataSourceCapabilities {
  /// Long lists answered by what is on screen: lists longer than
  /// ``TablewebServer/Configuration/windowedListThreshold`` are held as their first screen
  /// only and never read whole (see ``WindowedDataSource``). nil: every list is read whole.
  public var windows: (any WindowedDataSource)?
  /// A change log that other processes sharing the data write too: the server publishes
  /// what it holds and replays older versions to a client that resumes with `have` (see
  /// ``ChangeLogReading``). nil: the server replays only the diffs it sent itself.
  public var changeLog: (any ChangeLogReading)?
  /// The database (an SQLite file's path or a PostgreSQL URL) whose commits by other
  /// processes the server watches for, to publish them from ``changeLog``: a poll of the
  /// SQLite file on the cooperative pool, or `LISTEN` on PostgreSQL (docs/threading.md).
  /// Needs ``changeLog``. nil: nothing is watched.
  public var watchedDatabase: String?
  /// Commands that queue up on the core thread are committed in one transaction (see
  /// ``GroupCommitting``). nil: each command commits on its own.
  public var groupCommit: (any GroupCommitting)?
  /// Lists held as whole snapshots that the app replaces from any thread
  /// (``SnapshotDataSource/apply(_:)``): the server hears each one and diffs it. nil:
  /// the app says what changed through ``TablewebServer/reloadList(_:)``.
  public var snapshots: SnapshotDataSource?
  /// Whether a call may wait on a network round trip (PostgreSQL), so that the core
  /// thread, which runs the data source, should be a thread of its own rather than the
  /// main listener's service thread (docs/threading.md). The configuration's
  /// ``TablewebServer/Configuration/runsCoreOnOwnThread`` overrides it.
  public var needsOwnThread: Bool
  /// Searches read off the core thread: the server calls this once, on a thread of its
  /// own, and asks the ``SearchReader`` it makes for each search's results there; the
  /// core thread answers when they come, so that a long search holds nobody else. Used
  /// only when the data source ``TableDataSource/keepsVersions`` (the results' version
  /// says whether they are still current). nil: searches run on the core thread.
  public var searchReader: (@Sendable () throws(ProtocolError) -> any SearchReader)?

  public init(
    windows: (any WindowedDataSource)? = nil, changeLog: (any ChangeLogReading)? = nil,
    watchedDatabase: String? = nil, groupCommit: (any GroupCommitting)? = nil,
    snapshots: SnapshotDataSource? = nil, needsOwnThread: Bool = false
  ) {
    precondition(
      watchedDatabase == nil || changeLog != nil,
      "watchedDatabase \(watchedDatabase ?? "") needs a changeLog to publish what it sees")
    self.windows = windows
    self.changeLog = changeLog
    self.watchedDatabase = watchedDatabase
    self.groupCommit = groupCommit
    self.snapshots = snapshots
    self.needsOwnThread = needsOwnThread
  }
}
