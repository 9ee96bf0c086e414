import CSQLite

/// A whole database as `sqlite3_serialize` gives it: its pages, one after another, in
/// memory SQLite allocated. ``Database/attach(_:as:)`` hands it to another connection,
/// which takes it over; dropped, it is freed.
struct DatabaseImage: ~Copyable {
  fileprivate let bytes: UnsafeMutablePointer<UInt8>
  let count: Int

  deinit { sqlite3_free(bytes) }

  /// The bytes, no longer freed by this image.
  fileprivate consuming func release() -> UnsafeMutablePointer<UInt8> {
    let bytes = self.bytes
    discard self
    return bytes
  }
}

extension Database {
  /// A copy of the database `schema` names (`main`, or one attached).
  func image(of schema: String = "main") throws(SQLiteError) -> DatabaseImage {
    var size: sqlite3_int64 = 0
    guard let bytes = sqlite3_serialize(handle, schema, &size, 0) else {
      throw SQLiteError(
        extendedCode: SQLITE_NOMEM, message: "sqlite3_serialize gave no copy of \(schema)",
        sql: nil)
    }
    return DatabaseImage(bytes: bytes, count: Int(size))
  }

  /// Attaches `image` as the read-only database `schema` (`ATTACH`, then
  /// `sqlite3_deserialize`), which SQLite frees when it is detached or the connection
  /// closes. `schema` is a plain identifier the caller chose, not user text. Allowed
  /// inside a transaction; ``detach(_:)`` is not, once the transaction has read it.
  func attach(_ image: consuming DatabaseImage, as schema: String) throws(SQLiteError) {
    let count = sqlite3_int64(image.count)
    let bytes = image.release()
    do {
      try executeScript("ATTACH ':memory:' AS \(schema)")
    } catch {
      sqlite3_free(bytes)
      throw error
    }
    // On failure SQLite frees the bytes itself (SQLITE_DESERIALIZE_FREEONCLOSE).
    let code = sqlite3_deserialize(
      handle, schema, bytes, count, count,
      UInt32(SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_READONLY))
    guard code == SQLITE_OK else {
      let error = lastError(sql: nil)
      try? detach(schema)
      throw error
    }
  }

  /// Detaches the database `schema` (see ``attach(_:as:)``).
  func detach(_ schema: String) throws(SQLiteError) {
    try executeScript("DETACH \(schema)")
  }
}
