import Foundation
import Testing

@testable import TableServer

@Suite("Transport: messages", .timeLimit(.minutes(1)))
struct TransportMessageTests {
  @Test func deliversMessagesBothWays() async throws {
    let server = try TestServer()
    let transport = server.server
    server.delegate.onReceive = { connection, text in
      transport.send(OutgoingFrame("echo: \(text)"), to: connection)
    }
    let client = try server.connectedClient()
    client.send(#"{"type":"hello","session":null}"#)
    #expect(
      client.nextEvent(timeout: .seconds(5)) == .message(#"echo: {"type":"hello","session":null}"#))
    let id = ConnectionID(1)
    #expect(server.delegate.events.first == .opened(id))
    client.shutDown()
    #expect(server.delegate.wait { $0.contains(.closed(id)) })
    await server.stop()
  }

  @Test func reassemblesFragments() async throws {
    let server = try TestServer()
    let client = try server.connectedClient()
    let text = String(repeating: "fragmented ", count: 300)
    client.send(text, fragmentSize: 100)
    client.send("after")
    #expect(server.delegate.wait { $0.contains(.received(ConnectionID(1), "after")) })
    #expect(
      server.delegate.events.filter { if case .received = $0 { true } else { false } }
        == [.received(ConnectionID(1), text), .received(ConnectionID(1), "after")])
    client.shutDown()
    await server.stop()
  }

  @Test(arguments: [nil, 1000])
  func dropsTooLargeMessagesAndStaysUsable(fragmentSize: Int?) async throws {
    let server = try TestServer { $0.maxMessageSize = 4096 }
    let client = try server.connectedClient()
    client.send(String(repeating: "x", count: 4097), fragmentSize: fragmentSize)
    client.send(String(repeating: "y", count: 4096))
    let id = ConnectionID(1)
    #expect(
      server.delegate.wait { $0.contains(.received(id, String(repeating: "y", count: 4096))) })
    #expect(
      server.delegate.events == [
        .opened(id), .tooLarge(id), .received(id, String(repeating: "y", count: 4096)),
      ])
    client.shutDown()
    await server.stop()
  }

  @Test func aFullQueueRefusesMore() async throws {
    let server = try TestServer {
      $0.maxQueuedFrames = 4
      $0.maxQueuedBytes = 1 << 20
    }
    let client = try server.connectedClient()
    let transport = server.server
    let results = Recorded<[Bool]>()
    transport.perform {
      // Nothing is written before this work returns, so the queue only fills.
      let sent = (0..<6).map { transport.send(OutgoingFrame("frame \($0)"), to: ConnectionID(1)) }
      results.set(sent)
    }
    #expect(results.wait() == [true, true, true, true, false, false])
    for number in 0..<4 {
      #expect(client.nextEvent(timeout: .seconds(5)) == .message("frame \(number)"))
    }
    #expect(client.nextEvent(timeout: .milliseconds(100)) == nil)
    client.shutDown()
    await server.stop()
  }

  @Test func replacingTheQueueDropsWhatWaited() async throws {
    let server = try TestServer()
    let client = try server.connectedClient()
    let transport = server.server
    transport.perform {
      transport.send(OutgoingFrame("stale 1"), to: ConnectionID(1))
      transport.send(OutgoingFrame("stale 2"), to: ConnectionID(1))
      transport.replaceQueue(of: ConnectionID(1), with: [OutgoingFrame("fresh screen")])
    }
    #expect(client.nextEvent(timeout: .seconds(5)) == .message("fresh screen"))
    client.shutDown()
    await server.stop()
  }

  @Test func closingSendsWhatIsQueuedFirst() async throws {
    let server = try TestServer()
    let client = try server.connectedClient()
    let transport = server.server
    transport.perform {
      transport.send(OutgoingFrame("last words"), to: ConnectionID(1))
      transport.close(ConnectionID(1), reason: "bye")
    }
    #expect(client.nextEvent(timeout: .seconds(5)) == .message("last words"))
    #expect(client.nextEvent(timeout: .seconds(5)) == .closed(status: 1000, reason: "bye"))
    #expect(server.delegate.wait { $0.contains(.closed(ConnectionID(1))) })
    client.shutDown()
    await server.stop()
  }

  @Test func stoppingClosesEveryClientWithGoingAway() async throws {
    let server = try TestServer()
    let first = try server.connectedClient()
    let second = try server.connectedClient()
    await server.server.stop()
    for client in [first, second] {
      #expect(
        client.nextEvent(timeout: .seconds(5)) == .closed(status: 1001, reason: "server stopping"))
      client.shutDown()
    }
    let events = server.delegate.events
    #expect(events.last == .transportStopped)
    #expect(events.filter { if case .closed = $0 { true } else { false } }.count == 2)
    await server.stop()
  }

  @Test func performRunsOnTheServiceThread() async throws {
    let server = try TestServer()
    let transport = server.server
    #expect(!transport.isOnServiceThread)
    let result = Recorded<Bool>()
    transport.perform { result.set(transport.isOnServiceThread) }
    #expect(result.wait() == true)
    await server.stop()
  }
}

/// A value set on one thread and awaited on another.
final class Recorded<Value: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: Value?

  func set(_ newValue: Value) {
    condition.lock()
    value = newValue
    condition.broadcast()
    condition.unlock()
  }

  func wait(timeout: TimeInterval = 5) -> Value? {
    let deadline = Date().addingTimeInterval(timeout)
    condition.lock()
    defer { condition.unlock() }
    while value == nil { if !condition.wait(until: deadline) { break } }
    return value
  }
}
