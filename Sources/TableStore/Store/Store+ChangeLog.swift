import TableModel

/// The record of who changed what, kept for an audit view. `export` leaves it out, as it
/// does grants and sessions.
extension Store {
  /// One row of `change_log`.
  public struct ChangeRecord: Sendable, Hashable {
    public var list: String
    public var command: String
    public var author: ChangeAuthor
  }

  /// Runs `body` (one store write) so that its transaction also records that `author` made
  /// it: the change and its record are committed together or not at all.
  public func recordingAuthor<T>(
    _ author: ChangeAuthor, command: String, list: String,
    _ body: () throws(StoreError) -> T
  ) throws(StoreError) -> T {
    precondition(pendingAuthor == nil, "recordingAuthor inside another on \(path)")
    pendingAuthor = author
    pendingChange = (command, list)
    defer {
      pendingAuthor = nil
      pendingChange = nil
    }
    return try body()
  }

  func logPendingAuthor() throws(StoreError) {
    guard let author = pendingAuthor, let change = pendingChange else { return }
    pendingAuthor = nil
    try executeLater(
      "INSERT INTO change_log (at, list, command, \"user\", role) VALUES (unixepoch(), ?, ?, ?, ?)",
      change.list, change.command, author.name, author.role.rawValue)
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
