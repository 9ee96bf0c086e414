import Foundation
import Testing

@testable import TableServer

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Transport: keepalive", .timeLimit(.minutes(1)))
struct TransportKeepaliveTests {
  static func quickKeepalive(_ configuration: inout WebSocketServer.Configuration) {
    configuration.pingAfterIdleSeconds = 1
    configuration.hangUpAfterIdleSeconds = 2
  }

  @Test func aPeerThatNeverAnswersIsPingedThenDropped() async throws {
    let server = try TestServer(configure: Self.quickKeepalive)
    let socket = try RawSocket(port: server.port)
    try socket.sendUpgrade()
    let started = ContinuousClock.now
    // Read everything until the server hangs up: the 101, then a ping (0x89) we ignore.
    let received = socket.receiveUntilClosed(timeout: 8)
    let text = String(decoding: received, as: UTF8.self)
    #expect(text.hasPrefix("HTTP/1.1 101"))
    #expect(received.contains(0x89), "a ping frame")
    #expect(ContinuousClock.now - started < .seconds(7))
    #expect(server.delegate.wait { $0.contains(.closed(ConnectionID(1))) })
    await server.stop()
  }

  @Test func aPeerThatKeepsTalkingStaysThoughItNeverAnswersPings() async throws {
    let server = try TestServer(configure: Self.quickKeepalive)
    let socket = try RawSocket(port: server.port)
    try socket.sendUpgrade()
    // A message every 0.4 s for 3.6 s, past the 2 s hang-up: each counts as heard from.
    for _ in 0..<9 {
      try socket.send(bytes: [0x81, 0x80 | 1, 0, 0, 0, 0, UInt8(ascii: "x")])
      usleep(400_000)  // blocking: a busy cooperative pool may resume a Task.sleep late
      _ = socket.receiveAvailable()
    }
    #expect(server.delegate.wait { $0.filter { $0 == .received(ConnectionID(1), "x") }.count == 9 })
    #expect(!server.delegate.events.contains(.closed(ConnectionID(1))))
    await server.stop()
  }

  @Test func aPeerThatAnswersPingsStays() async throws {
    let server = try TestServer(configure: Self.quickKeepalive)
    let client = try server.connectedClient()  // lws answers pings itself
    #expect(client.nextEvent(timeout: .milliseconds(3500)) == nil)
    client.send("still here")
    #expect(server.delegate.wait { $0.contains(.received(ConnectionID(1), "still here")) })
    client.shutDown()
    await server.stop()
  }
}

/// A plain TCP connection to the loopback address, for speaking WebSocket by hand; from
/// `source` (any address of 127.0.0.0/8 reaches 127.0.0.1 on Linux).
final class RawSocket {
  let descriptor: Int32

  init(port: Int, from source: String = "127.0.0.1") throws {
    descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw TransportTestFailure("socket() failed") }
    var local = sockaddr_in()
    local.sin_family = sa_family_t(AF_INET)
    local.sin_addr.s_addr = inet_addr(source)
    let bound = withUnsafePointer(to: &local) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0 else {
      Glibc.close(descriptor)
      throw TransportTestFailure("cannot bind to \(source)")
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      Glibc.close(descriptor)
      throw TransportTestFailure("cannot connect to port \(port)")
    }
  }

  deinit { Glibc.close(descriptor) }

  /// Asks for the WebSocket upgrade of `/ws` with the tableweb subprotocol.
  func sendUpgrade() throws {
    try send(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + HTTPResponse.upgradeHeaders(subprotocol: "tableweb.v1", origin: nil)
        .map { "\($0): \($1)\r\n" }.joined() + "\r\n")
  }

  func send(_ text: String) throws {
    try send(bytes: Array(text.utf8))
  }

  func send(bytes: [UInt8]) throws {
    guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
      throw TransportTestFailure("send failed")
    }
  }

  /// What has arrived, without waiting: a byte count.
  func receiveAvailable() -> Int {
    var buffer = [UInt8](repeating: 0, count: 65536)
    let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
    return max(count, 0)
  }

  /// Everything received until the peer closes, or `timeout` seconds pass.
  func receiveUntilClosed(timeout: TimeInterval) -> [UInt8] {
    var time = timeval(tv_sec: 0, tv_usec: 200_000)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    let deadline = Date().addingTimeInterval(timeout)
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while Date() < deadline {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count == 0 { break }
      if count > 0 { received += buffer[0..<count] }
    }
    return received
  }
}
