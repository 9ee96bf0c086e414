import Foundation

/// Who may hold a connection: at most `Settings.maxConnections` in all, at most
/// `Settings.maxConnectionsPerAddress` from one address, of which at most
/// `Settings.maxSendingHeadersPerAddress` may still be sending their first request's
/// headers. A pure state machine: the transport tells it what happened to each connection
/// (by a key of its own, the lws connection's address) and carries out its answers.
///
/// An address is the peer's, or, when the peer is a trusted proxy, the last address in
/// `X-Forwarded-For` that is not a trusted proxy (known once the headers are in). Trusted
/// proxies themselves are limited only by the total.
///
/// Several service threads share one (under a lock): each accepts on its own *lane*, so a
/// connection admitted on one thread is bound on that thread whatever the others admit
/// meanwhile, and counts from its admission on.
///
/// - Important: Not thread-safe; the transport keeps it under a lock (`LockedValue`).
struct ConnectionLimits {
  struct Settings: Sendable, Equatable {
    var maxConnections: Int
    var maxConnectionsPerAddress: Int
    var maxSendingHeadersPerAddress: Int
    /// A connection that dies still sending its first headers this long after it was
    /// accepted was dropped at the deadline (lws drops it; this only names the reason).
    var headerTimeout: Duration
    var trustedProxies: Set<String>
  }

  private struct Held {
    /// The address it counts against.
    var address: String
    let acceptedAt: ContinuousClock.Instant
    var isSendingHeaders = true
  }

  let settings: Settings
  private var held: [UInt: Held] = [:]
  private var openByAddress: [String: Int] = [:]
  private var sendingHeadersByAddress: [String: Int] = [:]
  /// Connections let in by ``admit(_:at:lane:requestIsIn:)`` and not yet bound to their
  /// key, by lane (a service thread): counted already.
  private var admitted: [Int: (address: String, at: ContinuousClock.Instant)] = [:]

  init(_ settings: Settings) {
    self.settings = settings
  }

  var total: Int { held.count + admitted.count }

  func openConnections(from address: String) -> Int { openByAddress[address, default: 0] }

  func sendingHeaders(from address: String) -> Int { sendingHeadersByAddress[address, default: 0] }

  /// The address `key` counts against, while it is held.
  func address(of key: UInt) -> String? { held[key]?.address }

  /// A connection from `address` was just accepted: nil lets it in (bind it with
  /// ``bind(_:)``), otherwise why it is refused. `requestIsIn` says whether its request's
  /// headers have already arrived whole (asked only when the address is at its limit of
  /// connections still sending headers: a burst of quick requests is not slow). `lane`
  /// is the service thread that accepted it; one it admitted before and never bound is
  /// forgotten.
  mutating func admit(
    _ address: String, at now: ContinuousClock.Instant, lane: Int = 0,
    requestIsIn: () -> Bool = { false }
  ) -> ConnectionRefusal? {
    forget(lane: lane)
    if total >= settings.maxConnections { return .total }
    if !settings.trustedProxies.contains(address) {
      if openConnections(from: address) >= settings.maxConnectionsPerAddress {
        return .perAddress
      }
      if sendingHeaders(from: address) >= settings.maxSendingHeadersPerAddress, !requestIsIn() {
        return .perAddress
      }
    }
    admitted[lane] = (address, now)
    openByAddress[address, default: 0] += 1
    sendingHeadersByAddress[address, default: 0] += 1
    return nil
  }

  /// The connection `lane` admitted last will not be bound (it could not be adopted).
  mutating func forget(lane: Int) {
    guard let unbound = admitted.removeValue(forKey: lane) else { return }
    Self.decrement(&openByAddress, unbound.address)
    Self.decrement(&sendingHeadersByAddress, unbound.address)
  }

  /// The connection `lane` admitted last got its key (lws creates it right after the
  /// accept). Other connections lws creates (its own listening socket) are not counted.
  mutating func bind(_ key: UInt, lane: Int = 0) {
    guard let admitted = admitted.removeValue(forKey: lane) else { return }
    if held[key] != nil { _ = release(key, at: admitted.at) }
    held[key] = Held(address: admitted.address, acceptedAt: admitted.at)
  }

  /// A request's headers are in. With a trusted proxy for a peer, the connection now
  /// counts against `forwardedFor` (the header's value), which may be refused.
  mutating func headersArrived(_ key: UInt, forwardedFor: String?) -> ConnectionRefusal? {
    guard var connection = held[key] else { return nil }
    if connection.isSendingHeaders {
      connection.isSendingHeaders = false
      Self.decrement(&sendingHeadersByAddress, connection.address)
    }
    defer { held[key] = connection }
    let client = ForwardedFor.client(
      peer: connection.address, header: forwardedFor, trusted: settings.trustedProxies)
    guard client != connection.address else { return nil }
    guard openConnections(from: client) < settings.maxConnectionsPerAddress else {
      return .perAddress
    }
    Self.decrement(&openByAddress, connection.address)
    openByAddress[client, default: 0] += 1
    connection.address = client
    return nil
  }

  /// The connection is gone. Returns `ConnectionRefusal.headerTimeout` when it was still
  /// sending its first headers at the deadline.
  mutating func release(_ key: UInt, at now: ContinuousClock.Instant) -> ConnectionRefusal? {
    guard let connection = held.removeValue(forKey: key) else { return nil }
    Self.decrement(&openByAddress, connection.address)
    guard connection.isSendingHeaders else { return nil }
    Self.decrement(&sendingHeadersByAddress, connection.address)
    return now - connection.acceptedAt >= settings.headerTimeout ? .headerTimeout : nil
  }

  private static func decrement(_ counts: inout [String: Int], _ address: String) {
    guard let count = counts[address] else { return }
    counts[address] = count > 1 ? count - 1 : nil
  }
}

/// `X-Forwarded-For` as a trusted proxy sends it: each proxy appends the address it was
/// reached from, so the last entry that is not a trusted proxy is the one nobody but a
/// trusted proxy wrote. Everything before it may be made up by the client.
enum ForwardedFor {
  /// The client's address: `peer` itself unless it is a trusted proxy and `header` names
  /// an untrusted address.
  static func client(peer: String, header: String?, trusted: Set<String>) -> String {
    guard trusted.contains(peer), let header else { return peer }
    for entry in header.split(separator: ",").reversed() {
      let address = entry.trimmingCharacters(in: .whitespaces)
      if trusted.contains(address) { continue }
      return IPAddress.normalized(address) ?? peer
    }
    return peer
  }
}
