/// What the server knows about one open connection.
struct ConnectionState: Sendable, Hashable {
  /// Nil until the connection says `hello`.
  var session: SessionToken?
  var bucket: TokenBucket
  /// Messages refused by the rate limit since the last one let through.
  var refusedInARow = 0

  init(bucket: TokenBucket) {
    self.bucket = bucket
  }
}
