import TableModel

/// The per-connection rate limit: a token bucket; a connection refused too many times in
/// a row is closed.
extension SessionServer {
  /// The rate limit. Nil lets the message through.
  mutating func admit(_ connection: ConnectionID, at now: ContinuousClock.Instant)
    -> [ServerAction]?
  {
    guard var state = connections[connection] else {
      preconditionFailure("a message from \(connection), which is not open")
    }
    defer { connections[connection] = state }
    if state.bucket.take(at: now) {
      state.refusedInARow = 0
      return nil
    }
    state.refusedInARow += 1
    let error = reply(
      .error(ref: nil, ProtocolError(.rateLimited, "too many commands; slow down")), to: connection)
    if state.refusedInARow >= configuration.refusalsBeforeClose {
      return [error, .close(connection, reason: "too many commands")]
    }
    return [error]
  }
}
