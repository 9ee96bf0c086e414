import Foundation
import Logging
import TableClient
import TableModel
import TableStore
import Testing

@testable import TableServer

/// Several libwebsockets service threads on one port (`serviceThreads`), the one core
/// handing each its connections' frames: every viewer still gets every diff once and in
/// order, and the connection limits count every thread's connections together.
@Suite(.serialized) struct ServiceThreadsTests {
  typealias Peer = ServerIntegrationTests.Peer

  /// A server on `fixture`'s store with `threads` service threads, on a free port.
  static func startServer(
    _ fixture: Fixture, threads: Int,
    configure: (inout TablewebServer.Configuration) -> Void = { _ in }
  ) async throws -> TablewebServer {
    let source = StoreDataSource(store: try Store(path: fixture.path))
    var configuration = TablewebServer.Configuration(port: 0)
    configuration.serviceThreads = threads
    configure(&configuration)
    let server = TablewebServer(
      dataSource: source, sessionStorage: source, configuration: configuration)
    try await server.start()
    return server
  }

  /// Opens `count` viewers of Ltasks.
  static func viewers(_ count: Int, url: String) throws -> [Peer] {
    try (0..<count).map { _ in
      let peer = try Peer(url: url)
      peer.send(#"{"type":"tap","list":"Lhome","row":"Rtasks","ref":1}"#)
      _ = try peer.next("ack")
      return peer
    }
  }

  @Test func everyDiffReachesEveryViewerOnceAndInOrder() async throws {
    let fixture = try Fixture(.sqlite)
    let server = try await Self.startServer(fixture, threads: 3)
    let url = "ws://127.0.0.1:\(server.port)/ws"
    do {
      let viewers = try Self.viewers(30, url: url)
      let writers = try Self.viewers(3, url: url)
      let perThread = await server.connectionsPerServiceThread()
      #expect(perThread.reduce(0, +) == 33)
      #expect(perThread.filter { $0 > 0 }.count >= 2, "connections on \(perThread)")
      let start = try #require(viewers[0].screen?["version"]?.intValue)

      // A burst from every writer at once, none waiting for its answers.
      let rows = ["Reggs", "Rbread", "Rtea"]
      let edits = 20
      for step in 0..<edits {
        for (index, writer) in writers.enumerated() {
          writer.send(
            #"{"type":"update","list":"Ltasks","row":"\#(rows[index])","text":"w\#(index) s\#(step)","ref":\#(step + 2)}"#
          )
        }
      }
      let end = start + edits * writers.count
      for writer in writers {
        var acked = 0
        while acked < edits {
          if try writer.next("ack")["ref"] != .int(1) { acked += 1 }
        }
      }

      // (The writers read past the diffs while waiting for their answers.)
      for viewer in viewers {
        var screen = try #require(viewer.screen)
        var version = start
        while version < end {
          let diff = try viewer.next("diff")
          #expect(diff["list"] == .string("Ltasks"))
          // Each diff follows the one before: none missing, none twice, none out of order.
          #expect(diff["from"] == .int(version), "a diff from \(diff["from"]!) after \(version)")
          version = try #require(diff["to"]?.intValue)
          screen = ScreenModel.apply(diff: diff, to: screen)
        }
        #expect(version == end)
        let texts = Self.texts(screen)
        for (index, row) in rows.enumerated() {
          #expect(texts[row] == "w\(index) s\(edits - 1)")
        }
      }
      // Nothing more comes after the last change.
      viewers[0].send(#"{"type":"reload","ref":99}"#)
      let again = try viewers[0].next("screen")
      #expect(again["screen"]?["version"] == .int(end))
      // Each change's fan-out timed once, to the kernel, across the threads.
      let metrics = try HTTPResponse.fetch(port: server.port, path: "/metrics")
      #expect(
        metrics.body.contains("tableweb_fanout_written_seconds_count \(edits * writers.count)"),
        "\(metrics.body.split(separator: "\n").filter { $0.contains("written_seconds_count") })")
      // The final state is the database's.
      let store = try Store(path: fixture.path)
      let stored = try store.snapshot(of: "Ltasks")
      for section in stored.sections {
        for row in section.rows where rows.contains(row.id) {
          #expect(Self.texts(try #require(viewers[0].screen))[row.id] == row.text)
        }
      }
    }
    await server.stop()
  }

  @Test func oneAddressIsCappedAcrossEveryServiceThread() async throws {
    let fixture = try Fixture(.sqlite)
    let server = try await Self.startServer(fixture, threads: 3) {
      $0.maxConnectionsPerAddress = 4
      $0.maxConnections = 6
    }
    do {
      var held: [RawSocket] = []
      for _ in 0..<4 {
        held.append(try TransportLimitsTests.upgraded(port: server.port, from: "127.0.0.2"))
      }
      let perThread = await server.connectionsPerServiceThread()
      #expect(perThread.filter { $0 > 0 }.count >= 2, "connections on \(perThread)")
      // Whichever thread the next one lands on, the address holds four already.
      for _ in 0..<3 {
        let refused = try HTTPResponse.fetch(
          port: server.port, path: "/ws", headers: TransportLimitsTests.upgradeHeaders,
          from: "127.0.0.2")
        #expect(refused.status == 503)
      }
      // The total too: two more from elsewhere, then nobody.
      held.append(try TransportLimitsTests.upgraded(port: server.port, from: "127.0.0.3"))
      held.append(try TransportLimitsTests.upgraded(port: server.port, from: "127.0.0.4"))
      let full = try HTTPResponse.fetch(
        port: server.port, path: "/ws", headers: TransportLimitsTests.upgradeHeaders,
        from: "127.0.0.5")
      #expect(full.status == 503)
      // One goes, on whichever thread held it: the address may connect again.
      held.removeFirst()
      var again: RawSocket?
      for _ in 0..<50 where again == nil {
        again = try? TransportLimitsTests.upgraded(port: server.port, from: "127.0.0.2")
        if again == nil { usleep(20_000) }
      }
      #expect(again != nil)
      // Every refusal counted once, whichever thread refused it.
      withExtendedLifetime((held, again)) {}
      held = []
      again = nil
      usleep(100_000)
      let metrics = try HTTPResponse.fetch(port: server.port, path: "/metrics")
      #expect(metrics.body.contains(#"tableweb_connections_refused_total{reason="per_address"} 3"#))
      // (At least one: the retry above may have come before the close was seen.)
      let total = metrics.body.split(separator: "\n").first {
        $0.hasPrefix(#"tableweb_connections_refused_total{reason="total"} "#)
      }
      #expect((total?.split(separator: " ").last).flatMap { Int($0) } ?? 0 >= 1)
    }
    await server.stop()
  }

  @Test func closesComeFromEveryThreadWithTheirCodes() async throws {
    let fixture = try Fixture(.sqlite)
    let server = try await Self.startServer(fixture, threads: 3) {
      $0.burstSize = 3
      $0.commandsPerSecond = 1
      $0.refusalsBeforeClose = 5
    }
    let url = "ws://127.0.0.1:\(server.port)/ws"
    var peers = try (0..<9).map { _ in try Peer(url: url) }
    #expect(await server.connectionsPerServiceThread() == [3, 3, 3])
    // Three floods, one on each thread (peers are dealt out in turn): each closed for abuse.
    let flooders = Array(peers.prefix(3))
    for flooder in flooders {
      for ref in 0..<20 { flooder.send(#"{"type":"reload","ref":\#(ref)}"#) }
    }
    for flooder in flooders {
      var event = flooder.client.nextEvent(timeout: .seconds(5))
      while case .message = event { event = flooder.client.nextEvent(timeout: .seconds(5)) }
      guard case .closed(let status, _) = event else {
        Issue.record("expected a close, got \(String(describing: event))")
        continue
      }
      #expect(status == SessionServer.abuseCloseCode)
    }
    peers.removeFirst(3)
    // The others, on every thread, get 1001 when the server stops.
    let stopping = Task { await server.stop() }
    for peer in peers {
      var event = peer.client.nextEvent(timeout: .seconds(5))
      while case .message = event { event = peer.client.nextEvent(timeout: .seconds(5)) }
      #expect(event == .closed(status: 1001, reason: "server stopping"))
    }
    await stopping.value
  }

  /// Each row's text by id.
  static func texts(_ screen: JSONValue) -> [String: String] {
    var texts: [String: String] = [:]
    for section in screen["sections"]?.arrayValue ?? [] {
      for row in section["rows"]?.arrayValue ?? [] {
        if let id = row["id"]?.stringValue { texts[id] = row["text"]?.stringValue }
      }
    }
    return texts
  }
}
