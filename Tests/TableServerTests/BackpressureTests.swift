import StoreTestSupport
import TableModel
import Testing

@testable import TableServer

/// A transport with a bounded queue per connection that nobody drains unless told to.
final class QueueingTransport: MessageTransport {
  var limit: Int
  var queues: [ConnectionID: [OutgoingFrame]] = [:]
  var closed: [ConnectionID: String] = [:]

  init(limit: Int) {
    self.limit = limit
  }

  /// Presence has its own suite (PresenceTests): this transport takes it and drops it.
  static func isPresence(_ frame: OutgoingFrame) -> Bool {
    frame.text.hasPrefix(#"{"type":"presence""#)
  }

  func send(_ frame: OutgoingFrame, to connection: ConnectionID) -> Bool {
    if Self.isPresence(frame) { return true }
    guard queues[connection, default: []].count < limit else { return false }
    queues[connection, default: []].append(frame)
    return true
  }

  func replaceQueue(of connection: ConnectionID, with frames: [OutgoingFrame]) {
    queues[connection] = frames.filter { !Self.isPresence($0) }
  }

  func close(_ connection: ConnectionID, reason: String) {
    closed[connection] = reason
  }

  func queuedFrameCount(of connection: ConnectionID) -> Int { queues[connection]?.count ?? 0 }

  /// What `connection` would read, summarized, and empties its queue.
  func drain(_ connection: ConnectionID) -> [String] {
    defer { queues[connection] = [] }
    return (queues[connection] ?? []).map { Transcript.summarize(try! JSONValue(parsing: $0.text)) }
  }
}

@Suite struct BackpressureTests {
  @Test(arguments: StoreKind.allCases)
  func aConnectionThatFallsBehindGetsAFreshScreenAndSlowsNobody(kind: StoreKind) throws {
    let fixture = try Fixture(kind)
    let driver = try fixture.makeDriver()
    let transport = QueueingTransport(limit: 4)
    let host = SessionHost(server: driver.server, transport: transport)
    let slow = ConnectionID(1)
    let fast = ConnectionID(2)
    for connection in [slow, fast] {
      host.connectionDidOpen(connection)
      host.connection(connection, didReceive: #"{"type":"hello","session":null}"#)
      host.connection(connection, didReceive: #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
      _ = transport.drain(connection)
    }
    let v = try fixture.version("Ltasks")
    for step in 1...6 {
      host.connection(
        fast, didReceive: #"{"type":"update","list":"Ltasks","row":"Rtea","text":"Tea \#(step)"}"#)
      #expect(
        transport.drain(fast) == [
          "diff Ltasks \(v + step - 1)→\(v + step) update[1,0]\"Tea \(step)\""
        ])
    }
    // The slow reader's queue held four diffs; the fifth replaced them with the screen at
    // that version, and the sixth diff follows it without a gap.
    #expect(
      transport.drain(slow) == [
        "screen none \"Tasks\" Ltasks@\(v + 5) depth=1 back=\"Home\"",
        "diff Ltasks \(v + 5)→\(v + 6) update[1,0]\"Tea 6\"",
      ])
    #expect(host.resynchronizations == 1)
    #expect(transport.closed.isEmpty)
  }
}
