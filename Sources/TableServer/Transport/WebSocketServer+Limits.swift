import CWebsockets

#if canImport(Glibc)
  import Glibc
#endif

/// The connection limits (`ConnectionLimits`) at the points lws reports: a socket just
/// accepted (refused there, before lws reads a byte or gives it a header table), each
/// connection made and destroyed, and each request's headers in.
///
/// The limits are the server's, not one service thread's: every service thread
/// (``Lane``) counts into the same `ConnectionLimits`, under its lock.
///
/// - Important: Service thread only, like the rest of the transport's state.
extension WebSocketServer {
  /// `LWS_CALLBACK_FILTER_NETWORK_CONNECTION`. Returns non-zero to refuse: lws then closes
  /// the socket, after the 503 written here.
  func connectionAccepted(descriptor: Int32) -> Int32 {
    precondition(isOnServiceThread, "lws callbacks run on the service thread")
    let address = IPAddress.peer(of: descriptor) ?? ""
    // A socket for another lane goes there as a copy of its descriptor (lws closes its
    // own), admitted under the copy's number: unique while the copy is open, that is until
    // the lane has adopted it and bound the admission.
    let handOff = laneForNextConnection().flatMap { lane in
      let copy = dup(descriptor)
      return copy >= 0 ? (lane: lane, copy: copy) : nil
    }
    let admission = handOff.map { Self.admission(of: $0.copy) } ?? lane.index
    let refusal = limits.withLock {
      $0.admit(address, at: .now, lane: admission) { Self.requestIsIn(descriptor) }
    }
    guard let refusal else {
      guard let handOff else { return 0 }
      handOver(handOff.copy, to: handOff.lane, admission: admission)
      return 1
    }
    if let copy = handOff?.copy { Glibc.close(copy) }
    onRefusal?(refusal, address)
    Self.writeRefusal(to: descriptor, Self.explanation(of: refusal))
    return 1
  }

  /// `LWS_CALLBACK_WSI_CREATE`: the connection just admitted, or one of lws's own.
  func connectionCreated(_ wsi: OpaquePointer) {
    let key = Self.key(wsi)
    let admission = adoptedAdmission ?? lane.index
    adoptedAdmission = nil
    limits.withLock { $0.bind(key, lane: admission) }
  }

  /// `LWS_CALLBACK_WSI_DESTROY`, for every connection however it ended.
  func connectionDestroyed(_ wsi: OpaquePointer) {
    let key = Self.key(wsi)
    let released = limits.withLock { limits -> (ConnectionRefusal, String)? in
      guard let address = limits.address(of: key),
        let refusal = limits.release(key, at: .now)
      else { return nil }
      return (refusal, address)
    }
    if let (refusal, address) = released { onRefusal?(refusal, address) }
  }

  /// A request's headers are in (`FILTER_HTTP_CONNECTION`, `HTTP_CONFIRM_UPGRADE`). From a
  /// trusted proxy, the connection now counts against the client it names. Returns what
  /// the callback returns: non-zero after answering 503.
  func headersArrived(_ wsi: OpaquePointer) -> Int32 {
    let key = Self.key(wsi)
    guard let peer = limits.withLock({ $0.address(of: key) }) else { return 0 }
    let trusted = limitSettings.trustedProxies
    let forwardedFor =
      trusted.contains(peer) ? Self.header(wsi, WSI_TOKEN_X_FORWARDED_FOR) : nil
    let refused = limits.withLock { $0.headersArrived(key, forwardedFor: forwardedFor) }
    guard let refusal = refused else { return 0 }
    let client = ForwardedFor.client(peer: peer, header: forwardedFor, trusted: trusted)
    onRefusal?(refusal, client)
    return Self.writeRefusal(wsi, status: 503, reason: Self.explanation(of: refusal)) ? 1 : -1
  }

  /// The address a connection counts against: its peer's, or the client a trusted proxy
  /// named. What logs, the failed-`hello` limit and HTTP requests are told.
  func clientAddress(_ wsi: OpaquePointer) -> String {
    let key = Self.key(wsi)
    return limits.withLock { $0.address(of: key) } ?? Self.peerAddress(wsi)
  }

  private static func key(_ wsi: OpaquePointer) -> UInt {
    UInt(bitPattern: Int(bitPattern: wsi))
  }

  static func explanation(of refusal: ConnectionRefusal) -> String {
    switch refusal {
    case .total: "the server holds as many connections as it may; try again later"
    case .perAddress: "too many connections from your address; try again later"
    case .headerTimeout: "the request's headers took too long"
    case .rateLimited: "too many commands"
    case .unreadAnswers: "too many answers unread"
    }
  }

  /// Whether the socket's first request has arrived to its blank line, read without
  /// taking it (lws reads it next).
  private static func requestIsIn(_ descriptor: Int32) -> Bool {
    var head = [UInt8](repeating: 0, count: 8192)
    let count = recv(descriptor, &head, head.count, Int32(MSG_PEEK | MSG_DONTWAIT))
    guard count >= 4 else { return false }
    for index in 3..<count
    where head[index] == 10 && head[index - 1] == 13 && head[index - 2] == 10
      && head[index - 3] == 13
    {
      return true
    }
    return false
  }

  /// Answers a socket refused at its accept with 503 before lws closes it. What the
  /// client already sent is read first, so that the close does not answer it with a reset
  /// that could overtake the 503.
  private static func writeRefusal(to descriptor: Int32, _ reason: String) {
    let response = refusalResponse(status: 503, reason: reason, retryAfter: 10)
    _ = Glibc.send(descriptor, response, response.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL))
    shutdown(descriptor, Int32(SHUT_WR))
    var scratch = [UInt8](repeating: 0, count: 4096)
    var reads = 0
    while reads < 4, recv(descriptor, &scratch, scratch.count, Int32(MSG_DONTWAIT)) > 0 {
      reads += 1
    }
  }
}
