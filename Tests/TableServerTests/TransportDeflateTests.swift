import Testing

@testable import TableClient
@testable import TableServer

@Suite("Transport: permessage-deflate", .timeLimit(.minutes(1)))
struct TransportDeflateTests {
  static let screenLike = String(
    repeating:
      #"{"id":"R42","style":"value1","text":"Wi-Fi","detail":"Home","accessory":"disclosure"},"#,
    count: 2000)

  @Test func largeMessagesSurviveCompressionBothWays() async throws {
    let server = try TestServer {
      $0.permessageDeflate = true
      $0.maxMessageSize = 1 << 20
    }
    let transport = server.server
    server.delegate.onReceive = { connection, text in
      transport.send(OutgoingFrame(text), to: connection)
      transport.send(OutgoingFrame("after \(text.utf8.count)"), to: connection)
    }
    let client = try WebSocketClient(url: server.url, permessageDeflate: true)
    client.connect()
    #expect(client.nextEvent(timeout: .seconds(5)) == .opened)
    client.send(Self.screenLike, fragmentSize: 30_000)
    #expect(client.nextEvent(timeout: .seconds(5)) == .message(Self.screenLike))
    #expect(
      client.nextEvent(timeout: .seconds(5)) == .message("after \(Self.screenLike.utf8.count)"))
    client.shutDown()
    await server.stop()
  }

  @Test func theLimitCountsInflatedBytes() async throws {
    let server = try TestServer {
      $0.permessageDeflate = true
      $0.maxMessageSize = 64 * 1024
    }
    let client = try WebSocketClient(url: server.url, permessageDeflate: true)
    client.connect()
    #expect(client.nextEvent(timeout: .seconds(5)) == .opened)
    // Compresses to a few hundred bytes, inflates to 1 MiB.
    client.send(String(repeating: "0", count: 1 << 20))
    client.send("small")
    let id = ConnectionID(1)
    #expect(server.delegate.wait { $0.contains(.received(id, "small")) })
    #expect(server.delegate.events == [.opened(id), .tooLarge(id), .received(id, "small")])
    client.shutDown()
    await server.stop()
  }
}
