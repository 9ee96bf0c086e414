import Foundation
import Testing

@testable import TableServer

#if canImport(Glibc)
  import Glibc
#endif

/// The connection limits of a real server, from raw sockets bound to several loopback
/// addresses (every address of 127.0.0.0/8 reaches 127.0.0.1 on Linux).
@Suite("Transport: slow headers, per-address and total limits, trusted proxies")
struct TransportLimitsTests {
  @Test func slowHeadersAreDroppedAtTheDeadline() async throws {
    let server = try TestServer { $0.headerTimeoutSeconds = 1 }
    let slow = try RawSocket(port: server.port, from: "127.0.0.2")
    let started = ContinuousClock.now
    try slow.send("GET / HTTP/1.1\r\n")
    // A header line every 200 ms, never the blank line: each byte must not buy more time.
    // (Blocking sleeps: other suites' blocking waits may hold the few threads tasks wake on.)
    var closedAfter: Duration?
    while ContinuousClock.now - started < .seconds(4) {
      usleep(200_000)
      let sent = Glibc.send(slow.descriptor, "X-Slow: 1\r\n", 11, Int32(MSG_NOSIGNAL))
      var byte: UInt8 = 0
      if sent < 0 || recv(slow.descriptor, &byte, 1, Int32(MSG_DONTWAIT)) == 0 {
        closedAfter = ContinuousClock.now - started
        break
      }
    }
    let after = try #require(closedAfter, "still open after 4 s")
    #expect(after >= .milliseconds(900) && after < .milliseconds(2500))
    #expect(server.refusals.wait(count: 1))
    #expect(server.refusals.all == ["header_timeout 127.0.0.2"])
    await server.stop()
  }

  @Test func connectionsStillSendingHeadersHoldNoSlotAFreshVisitorNeeds() async throws {
    let server = try TestServer {
      $0.headerTimeoutSeconds = 30
      $0.maxPendingHeadersPerAddress = 100
    }
    // More than lws's old pool of 64 header tables, each half a request.
    var slow: [RawSocket] = []
    for index in 0..<150 {
      let socket = try RawSocket(port: server.port, from: "127.0.0.\(2 + index % 3)")
      try socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
      slow.append(socket)
    }
    usleep(300_000)
    let fresh = try HTTPResponse.fetch(port: server.port, path: "/", timeout: 2)
    #expect(fresh.status == 200)
    #expect(server.refusals.all.isEmpty)
    withExtendedLifetime(slow) {}
    await server.stop()
  }

  @Test func oneAddressIsCappedAndNobodyElseIsDisturbed() async throws {
    let server = try TestServer { $0.maxConnectionsPerAddress = 3 }
    var held: [RawSocket] = []
    for _ in 0..<3 {
      held.append(try Self.upgraded(port: server.port, from: "127.0.0.2"))
    }
    let refused = try HTTPResponse.fetch(
      port: server.port, path: "/ws", headers: Self.upgradeHeaders, from: "127.0.0.2")
    #expect(refused.status == 503)
    #expect(refused.headers["retry-after"] != nil)
    #expect(server.refusals.all == ["per_address 127.0.0.2"])
    // Others get in, and those already in still work.
    let other = try Self.upgraded(port: server.port, from: "127.0.0.3")
    let client = try server.connectedClient()
    client.send("still served")
    #expect(
      server.delegate.wait { events in
        events.contains { event in
          if case .received(_, let text) = event { return text == "still served" }
          return false
        }
      })
    for socket in held { #expect(Self.isOpen(socket)) }
    // A place freed is a place taken again.
    held.removeLast()
    try Self.eventually {
      (try? Self.upgraded(port: server.port, from: "127.0.0.2")) != nil
    }
    client.shutDown()
    withExtendedLifetime(other) {}
    await server.stop()
  }

  @Test func oneAddressMayHaveOnlyAFewConnectionsStillSendingHeaders() async throws {
    let server = try TestServer { $0.maxPendingHeadersPerAddress = 2 }
    let idle = try (0..<2).map { _ in try RawSocket(port: server.port, from: "127.0.0.2") }
    usleep(100_000)
    // A third that has sent nothing yet is refused at once.
    let third = try RawSocket(port: server.port, from: "127.0.0.2")
    let refused = String(decoding: third.receiveUntilClosed(timeout: 2), as: UTF8.self)
    #expect(refused.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
    #expect(try HTTPResponse.fetch(port: server.port, path: "/", from: "127.0.0.3").status == 200)
    // Once their headers are in, they no longer count as slow.
    for socket in idle {
      try socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
      var time = timeval(tv_sec: 5, tv_usec: 0)
      setsockopt(
        socket.descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
      var buffer = [UInt8](repeating: 0, count: 64)
      #expect(recv(socket.descriptor, &buffer, buffer.count, 0) > 0)  // answered
    }
    #expect(try HTTPResponse.fetch(port: server.port, path: "/", from: "127.0.0.2").status == 200)
    #expect(server.refusals.all == ["per_address 127.0.0.2"])
    await server.stop()
  }

  @Test func aBurstOfQuickRequestsFromOneAddressIsNotSlow() async throws {
    let server = try TestServer { $0.maxPendingHeadersPerAddress = 2 }
    // While the service thread is busy, 20 requests arrive whole and wait to be accepted
    // together: more than 2 at once are not sending headers, they have sent them.
    server.server.perform { usleep(300_000) }
    usleep(50_000)
    let burst = try (0..<20).map { _ in
      let socket = try RawSocket(port: server.port, from: "127.0.0.2")
      try socket.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
      return socket
    }
    for socket in burst {
      let answer = String(decoding: socket.receiveUntilClosed(timeout: 3), as: UTF8.self)
      #expect(answer.hasPrefix("HTTP/1.1 200"))
    }
    #expect(server.refusals.all.isEmpty)
    await server.stop()
  }

  @Test func theTotalIsCapped() async throws {
    let server = try TestServer { $0.maxConnections = 3 }
    var held = try (2..<5).map { try Self.upgraded(port: server.port, from: "127.0.0.\($0)") }
    let refused = try HTTPResponse.fetch(
      port: server.port, path: "/ws", headers: Self.upgradeHeaders, from: "127.0.0.9")
    #expect(refused.status == 503)
    #expect(server.refusals.all == ["total 127.0.0.9"])
    for socket in held { #expect(Self.isOpen(socket)) }
    held.removeFirst()
    try Self.eventually {
      (try? Self.upgraded(port: server.port, from: "127.0.0.9")) != nil
    }
    await server.stop()
  }

  @Test func aTrustedProxyNamesTheClientAndNobodyElseDoes() async throws {
    let server = try TestServer {
      $0.maxConnectionsPerAddress = 1
      $0.trustedProxies = ["127.0.0.2"]
    }
    // Through the proxy: each client has its own place; the proxy itself is not capped.
    let first = try Self.upgraded(port: server.port, from: "127.0.0.2", forwardedFor: "10.0.0.9")
    let second = try Self.upgraded(
      port: server.port, from: "127.0.0.2", forwardedFor: "10.0.0.8, 127.0.0.2")
    let sameClient = try HTTPResponse.fetch(
      port: server.port, path: "/ws",
      headers: Self.upgradeHeaders.merging(["X-Forwarded-For": "203.0.113.7, 10.0.0.9"]) { $1 },
      from: "127.0.0.2")
    #expect(sameClient.status == 503)
    // Anyone else's X-Forwarded-For is not read: its own address counts.
    let direct = try Self.upgraded(port: server.port, from: "127.0.0.3", forwardedFor: "10.0.0.7")
    let spoofed = try HTTPResponse.fetch(
      port: server.port, path: "/ws",
      headers: Self.upgradeHeaders.merging(["X-Forwarded-For": "10.0.0.6"]) { $1 },
      from: "127.0.0.3")
    #expect(spoofed.status == 503)
    #expect(server.refusals.all == ["per_address 10.0.0.9", "per_address 127.0.0.3"])
    withExtendedLifetime([first, second, direct]) {}
    await server.stop()
  }

  @Test func forwardedForIsReadFromTheEnd() {
    let trusted: Set = ["10.0.0.1", "10.0.0.2"]
    #expect(
      ForwardedFor.client(peer: "10.0.0.1", header: "1.2.3.4, 5.6.7.8", trusted: trusted)
        == "5.6.7.8")
    #expect(
      ForwardedFor.client(peer: "10.0.0.1", header: "1.2.3.4, 5.6.7.8, 10.0.0.2", trusted: trusted)
        == "5.6.7.8")
    #expect(
      ForwardedFor.client(peer: "10.0.0.1", header: "10.0.0.2", trusted: trusted) == "10.0.0.1")
    #expect(ForwardedFor.client(peer: "10.0.0.1", header: nil, trusted: trusted) == "10.0.0.1")
    #expect(
      ForwardedFor.client(peer: "10.0.0.1", header: "1.2.3.4, junk", trusted: trusted) == "10.0.0.1"
    )
    #expect(
      ForwardedFor.client(peer: "10.0.0.1", header: " ::FFFF:1.2.3.4 ", trusted: trusted)
        == "1.2.3.4")
    #expect(ForwardedFor.client(peer: "9.9.9.9", header: "1.2.3.4", trusted: trusted) == "9.9.9.9")
  }

  @Test func theLimitsCountEachConnectionOnceWhateverBecomesOfIt() {
    let start = ContinuousClock.now
    var limits = ConnectionLimits(
      .init(
        maxConnections: 3, maxConnectionsPerAddress: 2, maxSendingHeadersPerAddress: 1,
        headerTimeout: .seconds(5), trustedProxies: ["10.0.0.1"]))
    #expect(limits.admit("1.1.1.1", at: start) == nil)
    limits.bind(1)
    #expect(limits.admit("1.1.1.1", at: start) == .perAddress)  // still sending headers
    #expect(limits.admit("1.1.1.1", at: start, requestIsIn: { true }) == nil)  // a quick one
    #expect(limits.headersArrived(1, forwardedFor: nil) == nil)
    #expect(limits.admit("1.1.1.1", at: start) == nil)
    limits.bind(2)
    #expect(limits.headersArrived(2, forwardedFor: "9.9.9.9") == nil)  // not a proxy: ignored
    #expect(limits.address(of: 2) == "1.1.1.1")
    #expect(limits.admit("1.1.1.1", at: start) == .perAddress)  // two open
    #expect(limits.admit("10.0.0.1", at: start) == nil)
    limits.bind(3)
    #expect(limits.headersArrived(3, forwardedFor: "1.1.1.1") == .perAddress)
    #expect(limits.headersArrived(3, forwardedFor: "2.2.2.2") == nil)
    #expect(limits.address(of: 3) == "2.2.2.2")
    #expect(limits.admit("3.3.3.3", at: start) == .total)
    #expect(limits.release(1, at: start + .seconds(60)) == nil)  // its headers had come
    #expect(limits.release(1, at: start) == nil)  // twice: nothing
    #expect(limits.openConnections(from: "1.1.1.1") == 1)
    #expect(limits.admit("3.3.3.3", at: start) == nil)
    limits.bind(4)
    #expect(limits.release(4, at: start + .seconds(5)) == .headerTimeout)
    #expect(limits.admit("3.3.3.3", at: start) == nil)
    limits.bind(5)
    #expect(limits.release(5, at: start + .seconds(1)) == nil)  // gave up early, by itself
    limits.bind(6)  // one of lws's own: nothing was admitted
    #expect(limits.address(of: 6) == nil)
    #expect(limits.total == 2)
    #expect(limits.sendingHeaders(from: "3.3.3.3") == 0)
  }

  // MARK: - Helpers

  static let upgradeHeaders = HTTPResponse.upgradeHeaders(subprotocol: "tableweb.v1", origin: nil)

  /// A WebSocket upgraded by hand from `source`, or a failed test.
  static func upgraded(port: Int, from source: String, forwardedFor: String? = nil) throws
    -> RawSocket
  {
    let socket = try RawSocket(port: port, from: source)
    var headers = upgradeHeaders
    if let forwardedFor { headers["X-Forwarded-For"] = forwardedFor }
    try socket.send(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        + headers.map { "\($0): \($1)\r\n" }.joined() + "\r\n")
    var time = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(
      socket.descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    var buffer = [UInt8](repeating: 0, count: 1024)
    let count = recv(socket.descriptor, &buffer, buffer.count, 0)
    let answer = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    guard answer.hasPrefix("HTTP/1.1 101") else {
      throw TransportTestFailure("the upgrade from \(source) was answered: \(answer)")
    }
    return socket
  }

  /// Whether the server has not closed `socket`.
  static func isOpen(_ socket: RawSocket) -> Bool {
    var byte: UInt8 = 0
    let count = recv(socket.descriptor, &byte, 1, Int32(MSG_DONTWAIT | MSG_PEEK))
    return count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
  }

  /// Tries `condition` every 50 ms for up to 3 s (blocking, as above).
  static func eventually(_ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + .seconds(3)
    while ContinuousClock.now < deadline {
      if try condition() { return }
      usleep(50_000)
    }
    Issue.record("not within 3 s")
  }
}
