/// What the server knows about one open connection.
struct ConnectionState: Sendable, Hashable {
  /// Nil until the connection says `hello`.
  var session: SessionToken?
  var bucket: TokenBucket
  /// Messages refused by the rate limit since the last one let through.
  var refusedInARow = 0
  /// Whether the connection was asked to close for abuse: what it sends after that is
  /// dropped (nothing can be sent to it after its close frame, and a flood still arriving
  /// would otherwise be let through again as the bucket refills, and closed, and counted,
  /// again).
  var isClosedForAbuse = false
  /// The upgrade request's headers and peer, for the authenticator.
  var request: UpgradeRequest
  /// Who the connection acts as once its `hello` was let in; nil on an open server.
  var identity: AccessIdentity?

  init(bucket: TokenBucket, request: UpgradeRequest = UpgradeRequest()) {
    self.bucket = bucket
    self.request = request
  }
}
