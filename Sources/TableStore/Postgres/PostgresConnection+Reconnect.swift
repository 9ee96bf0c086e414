import CPostgres

extension PostgresConnection {
  /// Connects again with the same parameters after the connection broke (the server
  /// restarted, the backend was terminated): libpq's `PQreset`. Statements are prepared
  /// again on first use; `LISTEN`s are not renewed. Throws when the server still cannot be
  /// reached.
  public func reconnect() throws(PostgresError) {
    PQreset(handle)
    prepared = [:]
    guard isConnected else {
      throw PostgresError(
        sqlState: "08001", message: Self.trimmed(PQerrorMessage(handle)), statement: nil)
    }
  }
}
