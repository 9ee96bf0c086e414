import TableModel
import TableStore

/// Access (protocol v1.1): who may say `hello`, what a viewer may not do, and closing
/// the connections whose access was revoked.
extension SessionServer {
  /// Failed `hello`s one peer address may make in a burst, and per second after it.
  static let failedHelloBurst = 10.0
  static let failedHellosPerSecond = 0.5
  /// Addresses tracked at most; past it the table starts again (a flood of addresses is
  /// stopped by the per-connection close, not by memory).
  static let failedHelloAddresses = 10_000

  /// Checks a `hello`'s credential. Nil lets it through (and sets the connection's
  /// identity); otherwise `error` `unauthorized` (or `rate_limited` for an address that
  /// failed too often) and a close with 4401: one attempt per connection.
  mutating func refuseUnauthorized(
    _ access: String?, ref: Int?, on connection: ConnectionID, at now: ContinuousClock.Instant
  ) -> [ServerAction]? {
    guard let authenticator, let state = connections[connection], state.session == nil else {
      return nil
    }
    let address = state.request.peerAddress
    if var probe = failedHellos[address], !probe.take(at: now) {
      return refusal(
        ProtocolError(.rateLimited, "too many failed attempts from this address; wait a minute"),
        ref: ref, on: connection)
    }
    switch authenticator.authenticate(state.request, access: access) {
    case .open:
      return nil
    case .granted(let identity):
      connections[connection]?.identity = identity
      return nil
    case .refused(let reason) where reason.contains(StoreError.unreachable):
      // The grants cannot be read now (the database is restarting): not a failed attempt;
      // close with 1013 (try again later), which a page reconnects after, not 4401.
      return [
        reply(
          .error(
            ref: ref,
            ProtocolError(.internal, "the database \(StoreError.unreachable): try again shortly")),
          to: connection),
        .close(connection, reason: "database unavailable", code: 1013),
      ]
    case .refused:
      if failedHellos.count >= Self.failedHelloAddresses { failedHellos.removeAll() }
      var bucket =
        failedHellos[address]
        ?? TokenBucket(
          capacity: Self.failedHelloBurst, refillPerSecond: Self.failedHellosPerSecond, now: now)
      _ = bucket.take(at: now)
      failedHellos[address] = bucket
      let message =
        access == nil
        ? "this server requires access: open the access link you were given"
        : "this access credential is not valid (it may have been revoked)"
      return refusal(ProtocolError(.unauthorized, message), ref: ref, on: connection)
    }
  }

  private func refusal(_ error: ProtocolError, ref: Int?, on connection: ConnectionID)
    -> [ServerAction]
  {
    [
      reply(.error(ref: ref, error), to: connection),
      .close(connection, reason: "unauthorized", code: 4401),
    ]
  }

  /// Whether `session` may change `list`: not on a read-only server, not as a viewer, not
  /// where the data source says the list is read-only for this identity.
  func mayWrite(_ list: String, session: Session) -> Bool {
    !configuration.isReadOnly && session.identity?.role != .viewer
      && !dataSource.isReadOnly(list, for: session.identity)
  }

  func checkMayWrite(_ list: String, as identity: AccessIdentity?) throws(ProtocolError) {
    if configuration.isReadOnly { throw ProtocolError(.notAllowed, "this server is read-only") }
    if identity?.role == .viewer {
      throw ProtocolError(.notAllowed, "a viewer cannot change anything")
    }
    if dataSource.isReadOnly(list, for: identity) {
      throw ProtocolError(.notAllowed, "this list is read-only for you")
    }
  }

  /// Who sent an HTTP request (`Authorization: Bearer CREDENTIAL`, or what an embedding
  /// app's authenticator reads from it): nil when the server requires no access.
  /// `unauthorized` when it does and the request carries no valid credential.
  public func authenticate(_ request: UpgradeRequest) -> Result<AccessIdentity?, ProtocolError> {
    guard let authenticator else { return .success(nil) }
    let bearer = request.authorization.flatMap { header -> String? in
      let parts = header.split(separator: " ", maxSplits: 1)
      guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
      return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
    switch authenticator.authenticate(request, access: bearer) {
    case .open: return .success(nil)
    case .granted(let identity): return .success(identity)
    case .refused:
      return .failure(
        ProtocolError(
          .unauthorized, "this server requires access: send Authorization: Bearer CREDENTIAL"))
    }
  }

  /// Closes (4401, after an `unauthorized` error) every connection whose identity the
  /// authenticator revoked, and those let in as nobody while access is now required.
  public mutating func recheckAccess() -> [ServerAction] {
    guard let authenticator else { return [] }
    let identities = Set(connections.values.compactMap(\.identity))
    let revoked = authenticator.revoked(among: identities)
    // One decision per distinct request without a credential (10,000 viewers of an open
    // server are one read of the grants, not 10,000), and only the revoked sorted.
    var openDecisions: [UpgradeRequest: Bool] = [:]
    var refused: [ConnectionID] = []
    for (connection, state) in connections {
      let isRevoked: Bool
      if let identity = state.identity {
        isRevoked = revoked.contains(identity)
      } else {
        guard state.session != nil else { continue }  // not in yet: its hello decides
        if let decided = openDecisions[state.request] {
          isRevoked = decided
        } else {
          isRevoked = !authenticator.staysOpen(state.request)
          openDecisions[state.request] = isRevoked
        }
      }
      if isRevoked { refused.append(connection) }
    }
    var effects: [ServerAction] = []
    for connection in refused.sorted(by: { $0.rawValue < $1.rawValue }) {
      effects += refusal(
        ProtocolError(.unauthorized, "your access was revoked"), ref: nil, on: connection)
    }
    return effects
  }
}
