import Testing

@testable import TableClient
@testable import TableServer

/// Frames that wait together for one connection go to the kernel in one write (an edit's
/// `ack` and its change: one send, not two), framed by the server itself.
@Suite("Transport: frames written together", .timeLimit(.minutes(1)))
struct TransportWriteTests {
  /// Lengths on each side of the frame header's sizes (2 bytes below 126, 4 below 65,536,
  /// 10 above), and past what one write takes together; one frame holds non-ASCII text.
  static let texts: [String] = [1, 2, 125, 126, 127, 1_000, 16_000, 65_535, 65_536, 70_000, 3, 4]
    .enumerated().map { index, length in
      let letter = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(index)))
      return index == 5
        ? String(repeating: "é", count: length / 2) : String(repeating: letter, count: length)
    }

  /// An event in a line: a message by its length and first bytes.
  static func brief(_ event: WebSocketClient.Event?) -> String {
    guard case .message(let text) = event else { return String(describing: event) }
    return "a message of \(text.utf8.count) bytes: \(text.prefix(12))…"
  }

  /// Makes `server` answer any message with ``texts``, queued in one callback.
  static func answerWithTheTexts(_ server: TestServer) {
    let transport = server.server
    server.delegate.onReceive = { connection, _ in
      for text in texts { _ = transport.send(OutgoingFrame(text), to: connection) }
    }
  }

  /// Expects ``texts`` on `client`, whole and in order.
  static func expectTheTexts(on client: WebSocketClient) {
    for (index, text) in texts.enumerated() {
      let event = client.nextEvent(timeout: .seconds(5))
      let arrived = event == .message(text)
      #expect(arrived, "frame \(index) (\(text.utf8.count) bytes): \(brief(event))")
    }
  }

  /// The frames and writes each service thread has counted so far.
  static func written(by transport: WebSocketServer) -> (frames: Int, writes: Int) {
    let counts = Recorded<[Int]>()
    transport.perform { counts.set([transport.written.frames, transport.written.writes]) }
    let values = counts.wait() ?? [-1, -1]
    return (values[0], values[1])
  }

  @Test func framesThatWaitTogetherArriveWholeAndInOrderFromFewerWrites() async throws {
    let server = try TestServer()
    let transport = server.server
    Self.answerWithTheTexts(server)
    let client = try server.connectedClient()
    client.send("go")
    Self.expectTheTexts(on: client)
    // 1…1,000 bytes in one write; 16,000 alone (with the next it passes 16 KiB); 65,535,
    // 65,536 and 70,000 each alone (larger than a write together); 3 and 4 together.
    let counts = Self.written(by: transport)
    #expect(counts.frames == Self.texts.count)
    #expect(counts.writes == 6)
    client.shutDown()
    await server.stop()
  }

  @Test func aReaderThatFallsBehindGetsEveryFrameInOrder() async throws {
    let server = try TestServer()
    let transport = server.server
    let rounds = 30
    let queued = Recorded<Int>()
    server.delegate.onReceive = { connection, _ in
      // 30 × 12 frames, 6.9 MB (within the queue's 8 MiB): more than the socket takes at
      // once, so lws holds part of a write back and the rest goes at writeable callbacks.
      var count = 0
      for round in 0..<rounds {
        for text in Self.texts {
          if transport.send(OutgoingFrame("\(round) \(text)"), to: connection) { count += 1 }
        }
      }
      queued.set(count)
    }
    let client = try server.connectedClient()
    client.send("go")
    #expect(queued.wait() == rounds * Self.texts.count)
    for round in 0..<rounds {
      for text in Self.texts {
        let event = client.nextEvent(timeout: .seconds(10))
        guard event == .message("\(round) \(text)") else {
          Issue.record("round \(round), \(text.utf8.count) bytes: \(Self.brief(event))")
          client.shutDown()
          await server.stop()
          return
        }
      }
    }
    let counts = Self.written(by: transport)
    #expect(counts.frames == rounds * Self.texts.count)
    #expect(counts.writes < counts.frames)
    client.shutDown()
    await server.stop()
  }

  @Test func withCompressionEachFrameIsItsOwnWrite() async throws {
    let server = try TestServer {
      $0.permessageDeflate = true
      $0.maxMessageSize = 1 << 20
    }
    let transport = server.server
    Self.answerWithTheTexts(server)
    let client = try WebSocketClient(url: server.url, permessageDeflate: true)
    client.connect()
    #expect(client.nextEvent(timeout: .seconds(5)) == .opened)
    client.send("go")
    Self.expectTheTexts(on: client)
    let counts = Self.written(by: transport)
    #expect(counts.frames == Self.texts.count)
    #expect(counts.writes == Self.texts.count)
    client.shutDown()
    await server.stop()
  }
}
