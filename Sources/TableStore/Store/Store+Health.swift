extension Store {
  /// Whether the database at `path` (a file, or a `postgres://` URL) can be read now:
  /// opened afresh, read-only, and its schema read (a missing, unreadable or corrupted
  /// file, or an unreachable server, says no). For health checks. Any thread: it uses a
  /// connection of its own.
  public static func canRead(path: String) -> Bool {
    do {
      let connection: any StoreConnection =
        isPostgresURL(path)
        ? try PostgresStoreConnection(url: path, readOnly: true)
        : try Database(path: path, readOnly: true, busyTimeout: 1_000)
      return connection.ping()
    } catch {
      return false
    }
  }
}
