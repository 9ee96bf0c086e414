import TableModel

/// The per-connection rate limit: a token bucket; a connection refused too many times in
/// a row is closed for abuse (1008).
extension SessionServer {
  /// The WebSocket close code of a connection closed for abuse (RFC 6455: policy
  /// violation).
  public static let abuseCloseCode = 1008

  /// The rate limit. Nil lets the message through; a refusal carries the message's `ref`,
  /// read (only then) by `ref`. A connection closed for abuse gets nothing more.
  mutating func admit(
    _ connection: ConnectionID, at now: ContinuousClock.Instant, ref: () -> Int? = { nil }
  ) -> [ServerAction]? {
    guard var state = connections[connection] else {
      preconditionFailure("a message from \(connection), which is not open")
    }
    guard !state.isClosedForAbuse else { return [] }
    defer { connections[connection] = state }
    if state.bucket.take(at: now) {
      state.refusedInARow = 0
      return nil
    }
    state.refusedInARow += 1
    let error = reply(
      .error(ref: ref(), ProtocolError(.rateLimited, "too many commands; slow down")),
      to: connection)
    // Once: messages already on their way are refused too, but the close is asked once.
    if state.refusedInARow == configuration.refusalsBeforeClose {
      state.isClosedForAbuse = true
      return [error, .close(connection, reason: "too many commands", code: Self.abuseCloseCode)]
    }
    return [error]
  }
}
