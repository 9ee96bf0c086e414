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
    withExtendedLifetime(stalled) {}  // open until here: it is the connection that stalls
    await server.stop()
  }

  static let big = OutgoingFrame(String(repeating: "z", count: 64 * 1024))

  /// A server whose connection 1 is a raw socket that reads nothing, its socket's buffers
  /// and then its queue (`maxQueuedFrames`, 1 MiB) filled with ``big`` frames, and how many
  /// frames were taken. A frame is handed over only once the one before was sent, and the
  /// filling ends only when lws, given time to write, still finds no room (handed over
  /// together, 300 frames filled the queue before lws wrote any: CI then found room in it).
  static func stalledConnection(maxQueuedFrames: Int) throws -> (TestServer, RawSocket, Int) {
    let server = try TestServer {
      $0.maxQueuedFrames = maxQueuedFrames
      $0.maxQueuedBytes = 1 << 20
    }
    let stalled = try RawSocket(port: server.port)
    try stalled.sendUpgrade()
    #expect(server.delegate.wait { $0.contains(.opened(ConnectionID(1))) })
    let transport = server.server
    var taken = 0
    var refusedInARow = 0
    // Until three sends in a row are refused, 20 ms apart: lws had time to write between
    // them and found no room in the socket. 125 MiB at most, more than any buffers hold.
    for _ in 0..<2_000 where refusedInARow < 3 {
      let sent = Recorded<Bool>()
      transport.perform { sent.set(transport.send(big, to: ConnectionID(1))) }
      if try #require(sent.wait()) {
        taken += 1
        refusedInARow = 0
      } else {
        refusedInARow += 1
        usleep(20_000)
      }
    }
    return (server, stalled, taken)
  }

  /// A reader that stopped reading has its queue replaced by a fresh screen, but the
  /// answers in it (acks, errors) stay, ahead of the screen, and an answer is queued even
  /// when the queue is full: every command with a `ref` is answered.
  @Test func answersOutliveAQueueReplacedByAFreshScreen() throws {
    let (server, stalled, taken) = try Self.stalledConnection(maxQueuedFrames: 8)
    defer { Task { [server] in await server.stop() } }
    let transport = server.server
    let big = Self.big
    let outcome = Recorded<[String]>()
    transport.perform {
      var steps: [String] = []
      steps.append("diff queued: \(transport.send(big, to: ConnectionID(1)))")
      for answer in ["answer 1", "answer 2"] {
        steps.append(
          "\(answer) queued: \(transport.send(OutgoingFrame(answer, isAnswer: true), to: ConnectionID(1)))"
        )
      }
      transport.replaceQueue(of: ConnectionID(1), with: [OutgoingFrame("screen")])
      _ = transport.send(OutgoingFrame("answer 3", isAnswer: true), to: ConnectionID(1))
      _ = transport.send(OutgoingFrame("after"), to: ConnectionID(1))
      outcome.set(steps)
    }
    #expect(
      outcome.wait() == ["diff queued: false", "answer 1 queued: true", "answer 2 queued: true"])
    let texts = stalled.receiveFrames(until: "after", timeout: 10).map {
      $0.utf8.count == 64 * 1024 ? "big" : $0
    }
    #expect(Array(texts.suffix(5)) == ["answer 1", "answer 2", "screen", "answer 3", "after"])
    #expect(texts.dropLast(5).allSatisfy { $0 == "big" })
    #expect(texts.count - 5 < taken, "the queue's diffs were dropped")
    #expect(server.refusals.all.isEmpty)
  }

  /// Answers have a bound of their own (the queue's again): a connection that reads none
  /// of them past it is closed with 1008, and the refusal is counted.
  @Test func aConnectionThatReadsNoAnswersIsClosedAtTheirBound() throws {
    let (server, stalled, _) = try Self.stalledConnection(maxQueuedFrames: 4)
    defer { Task { [server] in await server.stop() } }
    // The socket must stay open until the end: closed, it would be a connection that left,
    // and `send` refuses every frame to a connection that left.
    defer { withExtendedLifetime(stalled) {} }
    let transport = server.server
    let outcome = Recorded<[Bool]>()
    transport.perform {
      outcome.set(
        (1...5).map {
          transport.send(OutgoingFrame("answer \($0)", isAnswer: true), to: ConnectionID(1))
        })
    }
    #expect(outcome.wait() == [true, true, true, true, false])
    #expect(server.refusals.wait(count: 1))
    #expect(server.refusals.all == ["unread_answers 127.0.0.1"])
    #expect(server.delegate.wait(timeout: 10) { $0.contains(.closed(ConnectionID(1))) })
  }
}

extension RawSocket {
  /// The text of every server frame (unmasked, uncompressed) after the upgrade's answer,
  /// until one reads `last`, the peer closes, or `timeout` seconds pass.
  func receiveFrames(until last: String, timeout: TimeInterval) -> [String] {
    var time = timeval(tv_sec: 0, tv_usec: 200_000)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    let deadline = Date().addingTimeInterval(timeout)
    var bytes: [UInt8] = []
    var start: Int?
    var texts: [String] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while Date() < deadline, texts.last != last {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count == 0 { break }
      if count < 0 { continue }
      bytes += buffer[0..<count]
      if start == nil, let end = bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
        start = end
      }
      while var at = start, at + 2 <= bytes.count {
        var length = Int(bytes[at + 1] & 0x7F)
        at += 2
        let extra = length == 126 ? 2 : length == 127 ? 8 : 0
        guard at + extra <= bytes.count else { break }
        if extra > 0 {
          length = bytes[at..<at + extra].reduce(0) { $0 << 8 | Int($1) }
          at += extra
        }
        guard at + length <= bytes.count else { break }
        texts.append(String(decoding: bytes[at..<at + length], as: UTF8.self))
        start = at + length
      }
    }
    return texts
  }
}
