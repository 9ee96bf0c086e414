import TableModel

/// The record of who changed what, kept for an audit view. `export` leaves it out, as it
/// does grants and sessions.
extension Store {
  /// One row of `change_log`. A write given one (a command's `author` argument) adds it
  /// in its own transaction: the change and its record are committed together or not at
  /// all.
  public struct ChangeRecord: Sendable, Hashable {
    public var list: String
    public var command: String
    public var author: ChangeAuthor
  }

  /// Adds the write's record, if it has one, to `change_log`.
  func logAuthor(of context: WriteContext) throws(StoreError) {
    try changeLogStore.record(context)
  }

  /// The newest `limit` records, newest first.
  public func changeLog(limit: Int = 100) throws(StoreError) -> [ChangeRecord] {
    try changeLogStore.records(limit: limit)
  }
}
