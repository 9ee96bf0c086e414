import Foundation
import Logging
import TableClient
import TableModel
import Testing

@testable import TableServer

/// tableweb as a library: an app's own data source, changed by the app's code (not by a
/// command), reaches a real client over a real socket as diffs.
@Suite(.serialized) struct LibraryTests {
  typealias Peer = ServerIntegrationTests.Peer

  static func fruit(_ ids: [String]) -> TableSnapshot {
    TableSnapshot(
      list: "home", version: 0, title: "Fruit",
      sections: [Section(id: "s", rows: ids.map { Row(id: $0, text: $0.capitalized) })])
  }

  /// Runs `body` on a thread of its own, as an app's timer or watcher would.
  static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread {
      body()
      done.signal()
    }.start()
    done.wait()
  }

  func serve(_ dataSource: some TableDataSource) async throws -> TablewebServer {
    let server = TablewebServer(dataSource: dataSource, configuration: .init(port: 0))
    try await server.start()
    return server
  }

  func url(_ server: TablewebServer) -> String { "ws://127.0.0.1:\(server.port)/ws" }

  /// `run()` is the one entry: it starts, tells `onServerRunning` the port the system
  /// picked, serves, and returns once cancelled, every connection closed.
  @Test func runStartsTellsTheBoundPortAndEndsWhenCancelled() async throws {
    let (ports, told) = AsyncStream.makeStream(of: Int.self)
    let server = TablewebServer(
      dataSource: SnapshotDataSource(root: Self.fruit(["apple"])), configuration: .init(port: 0),
      onServerRunning: { port in told.yield(port) })
    let running = Task { try await server.run() }
    var heard = ports.makeAsyncIterator()
    let port = try #require(await heard.next())
    #expect(port != 0 && port == server.port)
    do {
      let viewer = try Peer(url: "ws://127.0.0.1:\(port)/ws")
      #expect(viewer.screen?["list"] == .string("home"))
    }
    running.cancel()
    try await running.value
    #expect(throws: (any Error).self) { try Peer(url: "ws://127.0.0.1:\(port)/ws") }
  }

  /// What goes wrong without a client to tell (here a snapshot with a duplicate id, which
  /// makes no diff) goes to the configured logger, not to one of the library's own.
  @Test func whatGoesWrongWithoutAClientIsLoggedToTheConfiguredLogger() async throws {
    let lines = CapturedLines()
    var configuration = TablewebServer.Configuration(port: 0)
    configuration.logger = Logger(label: "app") { _ in CapturingHandler(lines: lines) }
    let lists = SnapshotDataSource(root: Self.fruit(["apple", "banana"]))
    let server = TablewebServer(dataSource: lists, configuration: configuration)
    try await server.start()
    do {
      let viewer = try Peer(url: url(server))
      lists.apply(Self.fruit(["apple", "apple"]))
      _ = try viewer.next("screen")  // the screens are sent again
    }
    await server.stop()
    #expect(lines.all.contains { $0.hasPrefix("list home cannot be diffed") }, "\(lines.all)")
  }

  /// A start that cannot listen throws at once (no wait on another task), and so does the
  /// metrics listener's.
  @Test func aStartThatCannotListenThrows() async throws {
    let first = TablewebServer(
      dataSource: SnapshotDataSource(root: Self.fruit(["apple"])), configuration: .init(port: 0))
    try await first.start()
    var configuration = TablewebServer.Configuration(port: first.port)
    configuration.metricsPort = 0
    let second = TablewebServer(
      dataSource: SnapshotDataSource(root: Self.fruit(["apple"])), configuration: configuration)
    await #expect(throws: TransportError.self) { try await second.start() }
    await first.stop()
  }

  @Test func aSnapshotAppliedFromAnotherThreadReachesEveryViewerAsOneDiff() async throws {
    let lists = SnapshotDataSource(root: Self.fruit(["apple", "banana"]))
    let server = try await serve(lists)
    do {
      let viewers = [try Peer(url: url(server)), try Peer(url: url(server))]
      #expect(viewers[0].screen?["version"] == .int(1))
      Self.onAnotherThread { lists.apply(Self.fruit(["banana", "cherry"])) }
      for viewer in viewers {
        let diff = try viewer.next("diff")
        #expect(diff["from"] == .int(1) && diff["to"] == .int(2))
        #expect(diff["ops"]?[0]?["op"] == .string("delete"))
        #expect(diff["ops"]?[1]?["row"]?["id"] == .string("cherry"))
      }
      // The same snapshot again changes nothing and sends nothing: the next diff is 2→3.
      lists.apply(Self.fruit(["banana", "cherry"]))
      lists.apply(Self.fruit(["cherry"]))
      #expect(try viewers[0].next("diff")["from"] == .int(2))
    }
    await server.stop()
  }

  /// A data source in UIKit's shape over the app's own model.
  final class Shelf: TableDataSource, Sendable {
    let items = LockedValue<[String]>(["apple", "banana"])

    func rootList() throws(ProtocolError) -> String { "home" }

    func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
      guard list == "home" else { throw ProtocolError(.notFound, "no list \(list)") }
      return LibraryTests.fruit(items.withLock { $0 })
    }
  }

  @Test func reloadListAndBatchUpdatesSendWhatTheAppChanged() async throws {
    let shelf = Shelf()
    let server = try await serve(shelf)
    do {
      let viewer = try Peer(url: url(server))
      Self.onAnotherThread {
        shelf.items.withLock { $0.append("cherry") }
        server.reloadList("home")
      }
      var diff = try viewer.next("diff")
      #expect(diff["to"] == .int(2))
      #expect(
        diff["ops"]
          == .array([
            try JSONValue(
              parsing:
                #"{"op":"insert","at":[0,2],"row":{"id":"cherry","style":"default","text":"Cherry","detail":null,"image":null,"accessory":"none","control":null,"editing":"none","movable":false,"selectable":true}}"#
            )
          ]))
      shelf.items.withLock { $0.removeFirst() }
      server.performBatchUpdates(in: "home", [.delete(row: "apple")])
      diff = try viewer.next("diff")
      #expect(diff["from"] == .int(2))
      #expect(diff["ops"] == .array([try JSONValue(parsing: #"{"op":"delete","at":[0,0]}"#)]))
      // A command the list does not allow is refused: the default commit says not_allowed.
      viewer.send(#"{"type":"delete","list":"home","rows":["banana"],"ref":7}"#)
      #expect(try viewer.next("error")["code"] == .string("not_allowed"))
    }
    await server.stop()
  }

  @Test func aRowLeadsToAListAndARemovedListPopsItsViewers() async throws {
    let lists = SnapshotDataSource(root: Self.fruit(["apple"]))
    var detail = Self.fruit(["seed"])
    detail.list = "apple"
    detail.title = "Apple"
    lists.apply(detail)
    lists.setDestination("apple", ofRow: "apple", in: "home")
    let server = try await serve(lists)
    do {
      let viewer = try Peer(url: url(server))
      viewer.send(#"{"type":"tap","list":"home","row":"apple"}"#)
      #expect(try viewer.next("screen")["stack"] == .array([.string("Fruit"), .string("Apple")]))
      lists.remove(list: "apple")
      let popped = try viewer.next("screen")
      #expect(popped["transition"] == .string("pop"))
      #expect(try viewer.next("notice")["text"] == .string("“Apple” was deleted."))
    }
    await server.stop()
  }
}
