import Foundation
import Testing

@testable import TableServer

/// Refused sends per connection, counted on the service thread.
private final class Refusals: @unchecked Sendable {
  var stalled = 0
  var reader = 0
}

@Suite("Transport: backpressure", .timeLimit(.minutes(1)))
struct TransportBackpressureTests {
  @Test func aReaderThatStopsFillsOnlyItsOwnQueue() async throws {
    let server = try TestServer {
      $0.maxQueuedFrames = 64
      $0.maxQueuedBytes = 1 << 20
    }
    // Connection 1 never reads; connection 2 reads everything.
    let stalled = try RawSocket(port: server.port)
    try stalled.send(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + HTTPResponse.upgradeHeaders(subprotocol: "tableweb.v1", origin: nil)
        .map { "\($0): \($1)\r\n" }.joined() + "\r\n")
    #expect(server.delegate.wait { $0.contains(.opened(ConnectionID(1))) })
    let reader = try server.connectedClient()

    let frame = OutgoingFrame(String(repeating: "z", count: 64 * 1024))
    let rounds = 300  // about 19 MiB each: more than any socket buffer holds
    let transport = server.server
    let refusals = Recorded<Refusals>()
    let counter = Refusals()
    // One frame to each per turn of the service loop, so that lws writes in between.
    for round in 0..<rounds {
      transport.perform {
        if !transport.send(frame, to: ConnectionID(1)) { counter.stalled += 1 }
        if !transport.send(frame, to: ConnectionID(2)) { counter.reader += 1 }
        if round == rounds - 1 { refusals.set(counter) }
      }
      if round % 16 == 15 {
        // Drain the reader as it goes, as a live client would.
        for _ in 0..<16 { _ = reader.nextEvent(timeout: .seconds(5)) }
      }
    }
    let refused = try #require(refusals.wait())
    #expect(refused.stalled > 0, "the stalled connection's queue filled")
    #expect(refused.reader == 0, "the reading connection never hit its bound")
    var received = (rounds / 16) * 16
    while received < rounds, case .message = reader.nextEvent(timeout: .seconds(5)) {
      received += 1
    }
    #expect(received == rounds)
    reader.shutDown()
    await server.stop()
  }
}
