/// Why a connection was refused, or closed for abuse: the `reason` label of
/// `tableweb_connections_refused_total`.
package enum ConnectionRefusal: String, Sendable, CaseIterable {
  /// Its request's headers did not arrive within `WebSocketServer.Configuration.headerTimeoutSeconds`.
  case headerTimeout = "header_timeout"
  /// Its address already held as many connections as it may (open ones, or ones still
  /// sending headers).
  case perAddress = "per_address"
  /// The server already held `WebSocketServer.Configuration.maxConnections`.
  case total
  /// It sent commands faster than the rate limit allows, again and again: closed (1008).
  case rateLimited = "rate_limited"
  /// It sent so many commands without reading their answers that the answers waiting for
  /// it passed their bound (`OutgoingQueue`): closed (1008), since an answer is never dropped.
  case unreadAnswers = "unread_answers"
}
