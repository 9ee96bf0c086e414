import Testing

@testable import TableClient
@testable import TableServer

@Suite("Transport: WebSocket upgrade", .timeLimit(.minutes(1)))
struct TransportUpgradeTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var path = "/ws"
    var subprotocol: String?
    var origin: String?
    var status: Int
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "no subprotocol", subprotocol: nil, status: 403),
    Case(name: "unknown subprotocol", subprotocol: "chat", status: 403),
    Case(name: "the http protocol", subprotocol: "http", status: 403),
    Case(name: "http before tableweb.v1", subprotocol: "http, tableweb.v1", status: 403),
    Case(
      name: "foreign origin", subprotocol: "tableweb.v1", origin: "http://evil.example", status: 403
    ),
    Case(
      name: "origin on another port", subprotocol: "tableweb.v1", origin: "http://127.0.0.1:1",
      status: 403),
    Case(name: "null origin", subprotocol: "tableweb.v1", origin: "null", status: 403),
    Case(name: "another path", path: "/socket", subprotocol: "tableweb.v1", status: 404),
    Case(name: "no origin (not a browser)", subprotocol: "tableweb.v1", status: 101),
    Case(
      name: "allowed origin", subprotocol: "tableweb.v1", origin: "http://localhost:3000",
      status: 101),
    Case(name: "among others", subprotocol: "chat, tableweb.v1", status: 101),
  ]

  @Test(arguments: cases)
  func answersTheUpgrade(_ testCase: Case) async throws {
    let server = try TestServer { $0.allowedOrigins = ["http://localhost:3000"] }
    let response = try HTTPResponse.fetch(
      port: server.port, path: testCase.path,
      headers: HTTPResponse.upgradeHeaders(
        subprotocol: testCase.subprotocol, origin: testCase.origin))
    #expect(response.status == testCase.status)
    if testCase.status == 101 {
      #expect(response.headers["sec-websocket-protocol"] == "tableweb.v1")
    }
    await server.stop()
  }

  @Test func acceptsTheServersOwnOrigin() async throws {
    let server = try TestServer()
    let response = try HTTPResponse.fetch(
      port: server.port, path: "/ws",
      headers: HTTPResponse.upgradeHeaders(
        subprotocol: "tableweb.v1", origin: "http://127.0.0.1:\(server.port)"))
    #expect(response.status == 101)
    await server.stop()
  }

  @Test func theClientReportsARefusal() async throws {
    let server = try TestServer()
    let client = try WebSocketClient(url: server.url, subprotocol: "chat")
    client.connect()
    let event = client.nextEvent(timeout: .seconds(5))
    guard case .failed(_, let status) = event else {
      Issue.record("expected a refusal, got \(String(describing: event))")
      client.shutDown()
      await server.stop()
      return
    }
    #expect(status == 403)
    client.shutDown()
    #expect(server.delegate.events.isEmpty)
    await server.stop()
  }

  @Test func theClientReportsAnUnreachableServer() throws {
    // Port 1 on loopback: nothing listens there.
    let client = try WebSocketClient(url: "ws://127.0.0.1:1/ws")
    client.connect()
    let event = client.nextEvent(timeout: .seconds(10))
    guard case .failed = event else {
      Issue.record("expected a failure, got \(String(describing: event))")
      client.shutDown()
      return
    }
    client.shutDown()
  }
}
