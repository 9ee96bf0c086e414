import Foundation
import StoreTestSupport
import TableModel
import TableStore
import Testing

@testable import TableClient
@testable import TableServer

/// The session core behind the real transport on a loopback port, driven by real
/// WebSocket clients (libwebsockets' client API).
@Suite(.serialized) struct ServerIntegrationTests {
  /// `tableweb serve` in-process: the transport on port 0, the session core over the
  /// fixture's database.
  /// With `TABLEWEB_SERVICE_THREADS` set above 1 in the environment, the server has that
  /// many service threads and the core a thread of its own, as `serve --service-threads`.
  final class RunningServer {
    let transport: WebSocketServer
    let lanes: [WebSocketServer]
    let host: SessionHost
    let folder: URL

    init(fixture: Fixture) throws {
      folder = fixture.folder.appendingPathComponent("Public-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let threads = Int(ProcessInfo.processInfo.environment["TABLEWEB_SERVICE_THREADS"] ?? "") ?? 1
      lanes = WebSocketServer.lanes(
        configuration: .init(port: 0, publicDirectory: folder.path), count: max(1, threads))
      transport = lanes[0]
      guard lanes.count > 1 else {
        host = SessionHost(store: try Store(path: fixture.path), transport: transport)
        try transport.start(delegate: host)
        return
      }
      let relay = CoreRelay(transports: lanes, core: CoreThread())
      host = SessionHost(store: try Store(path: fixture.path), transport: relay)
      relay.attach(host)
      for lane in lanes {
        try lane.start(
          delegate: relay, responder: relay, port: lane === transport ? nil : transport.port,
          onRefusal: nil)
      }
    }

    var url: String { "ws://127.0.0.1:\(transport.port)/ws" }

    func stop() async {
      for lane in lanes { lane.requestStop() }
      for lane in lanes { await lane.waitUntilStopped() }
    }
  }

  /// One connection, reading the server's messages as parsed JSON.
  final class Peer {
    let client: WebSocketClient
    var token: String?
    var screen: JSONValue?

    convenience init(_ server: RunningServer, token: String? = nil) throws {
      try self.init(url: server.url, token: token)
    }

    init(url: String, token: String? = nil) throws {
      client = try WebSocketClient(url: url)
      client.connect()
      guard client.nextEvent(timeout: .seconds(5)) == .opened else {
        throw IntegrationFailure("no connection")
      }
      let session = token.map { "\"\($0)\"" } ?? "null"
      client.send(#"{"type":"hello","session":\#(session)}"#)
      let welcome = try next("welcome")
      self.token = welcome["session"]?.stringValue
      _ = try next("screen")
    }

    deinit { client.shutDown() }

    /// Reads until a message of type `type`; remembers screens on the way.
    func next(_ type: String) throws -> JSONValue {
      while true {
        guard case .message(let text) = client.nextEvent(timeout: .seconds(5)) else {
          throw IntegrationFailure("no \(type) within 5 s")
        }
        let message = try JSONValue(parsing: text)
        if message["type"]?.stringValue == "screen" { screen = message["screen"] }
        if message["type"]?.stringValue == type { return message }
      }
    }

    func send(_ text: String) { client.send(text) }
  }

  struct IntegrationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }

  @Test(arguments: StoreKind.allCases)
  func drillDownEditAndSeeEachOthersChanges(kind: StoreKind) async throws {
    let fixture = try Fixture(kind)
    let server = try RunningServer(fixture: fixture)
    do {
      let alice = try Peer(server)
      let bob = try Peer(server)
      for peer in [alice, bob] {
        peer.send(#"{"type":"tap","list":"Lhome","row":"Rtasks","ref":1}"#)
        #expect(try peer.next("screen")["transition"] == .string("push"))
        #expect(try peer.next("ack")["ref"] == .int(1))
      }
      let version = alice.screen!["version"]!.intValue!
      alice.send(#"{"type":"update","list":"Ltasks","row":"Rtea","text":"Green tea","ref":2}"#)
      let diff = try bob.next("diff")
      #expect(diff["from"] == .int(version))
      #expect(diff["ops"]?[0]?["row"]?["text"] == .string("Green tea"))
      #expect(try alice.next("ack")["version"] == .int(version + 1))
      bob.send(#"{"type":"back","ref":3}"#)
      #expect(try bob.next("screen")["stack"] == .array([.string("Home")]))
    }
    await server.stop()
  }

  @Test(arguments: StoreKind.allCases)
  func aSessionResumesAfterTheServerRestarts(kind: StoreKind) async throws {
    let fixture = try Fixture(kind)
    var server = try RunningServer(fixture: fixture)
    var token = ""
    do {
      let peer = try Peer(server)
      peer.send(#"{"type":"tap","list":"Lhome","row":"Rtrails"}"#)
      _ = try peer.next("screen")
      token = peer.token!
    }
    await server.stop()
    server = try RunningServer(fixture: fixture)
    do {
      let peer = try Peer(server, token: token)
      #expect(peer.token == token)
      #expect(peer.screen?["list"] == .string("Lregions"))
    }
    await server.stop()
  }
}
