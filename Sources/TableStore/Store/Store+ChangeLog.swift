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
    guard let record = context.record else { return }
    try executeLater(
      "INSERT INTO change_log (at, list, command, \"user\", role) VALUES (unixepoch(), ?, ?, ?, ?)",
      record.list, record.command, record.author.name, record.author.role.rawValue)
  }

  /// The newest `limit` records, newest first.
  public func changeLog(limit: Int = 100) throws(StoreError) -> [ChangeRecord] {
    try read { () throws(StoreError) in
      try fetchAll(
        "SELECT list, command, \"user\", role FROM change_log ORDER BY id DESC LIMIT ?", [limit]
      ) { row in
        ChangeRecord(
          list: row.string(0), command: row.string(1),
          author: ChangeAuthor(
            name: row.isNull(2) ? nil : row.string(2),
            role: AccessRole(rawValue: row.string(3)) ?? .viewer))
      }
    }
  }
}
