extension Store {
  /// Whether the database file at `path` can be read now: opened afresh, read-only, and
  /// its schema read (a missing, unreadable or corrupted file says no). For health checks.
  /// Any thread: it uses a connection of its own.
  public static func canRead(path: String) -> Bool {
    do {
      let database = try Database(path: path, readOnly: true, busyTimeout: 1_000)
      try database.execute("SELECT count(*) FROM sqlite_master")
      return true
    } catch {
      return false
    }
  }
}
