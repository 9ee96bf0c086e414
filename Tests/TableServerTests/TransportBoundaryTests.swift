import Foundation
import TableModel
import Testing

@testable import TableServer

/// Answers `POST /api/commands` with what it was sent, and records what the transport
/// refused before asking it: a stand-in for the session host's commands.
final class RecordingResponder: HTTPResponder, Sendable {
  private let state = LockedValue<(answered: [HTTPRequest], refused: [HTTPRefusal.Reason])>(
    ([], []))

  var answered: [HTTPRequest] { state.withLock { $0.answered } }
  var refused: [HTTPRefusal.Reason] { state.withLock { $0.refused } }

  func respond(to request: HTTPRequest) -> TableServer.HTTPResponse? {
    guard request.path == "/api/commands" else { return nil }
    state.withLock { $0.answered.append(request) }
    return TableServer.HTTPResponse(status: 200, body: request.body)
  }

  func refused(_ request: HTTPRequest, _ refusal: HTTPRefusal) {
    state.withLock { $0.refused.append(refusal.reason) }
  }
}

@Suite("Transport: Host and cross-site writes, on a real server", .timeLimit(.minutes(1)))
struct TransportBoundaryTests {
  @Test func aLoopbackServerRefusesAForeignHostOnEveryPathAndTheUpgrade() async throws {
    let responder = RecordingResponder()
    let server = try TestServer(
      configure: { $0.allowedHosts = ["tables.example"] }, responder: responder)
    let evil = "evil.example:\(server.port)"
    let page = try HTTPResponse.fetch(port: server.port, path: "/", headers: ["Host": evil])
    #expect(page.status == 403 && !page.body.contains("tableweb"))
    #expect(page.body.contains("--allowed-host"))
    let write = try HTTPResponse.fetch(
      port: server.port, path: "/api/commands",
      headers: [
        "Host": evil, "Origin": "http://\(evil)", "Content-Type": "application/json",
      ], body: #"{"type":"delete","list":"L","rows":["R"]}"#)
    #expect(write.status == 403)
    let upgrade = try HTTPResponse.fetch(
      port: server.port, path: "/ws",
      headers: HTTPResponse.upgradeHeaders(subprotocol: "tableweb.v1", origin: "http://\(evil)")
        .merging(["Host": evil]) { $1 })
    #expect(upgrade.status == 403)
    #expect(responder.answered.isEmpty)
    #expect(server.delegate.events.isEmpty)
    #expect(responder.refused == [.host, .host, .host])

    for host in ["localhost:\(server.port)", "[::1]:1", "127.0.0.1", "tables.example"] {
      let answered = try HTTPResponse.fetch(port: server.port, path: "/", headers: ["Host": host])
      #expect(answered.status == 200, "\(host)")
    }
    await server.stop()
  }

  @Test func writesNeedJSONAndAnOriginTheUpgradeWouldAllow() async throws {
    let responder = RecordingResponder()
    let server = try TestServer(
      configure: { $0.allowedOrigins = ["http://localhost:3000"] }, responder: responder)
    let body = #"{"type":"delete","list":"L","rows":["R"]}"#
    func post(_ headers: [String: String]) throws -> HTTPResponse {
      try HTTPResponse.fetch(port: server.port, path: "/api/commands", headers: headers, body: body)
    }
    // A page elsewhere: a "simple" request, and one that declares JSON.
    let crossSite = try post(["Origin": "http://evil.example", "Content-Type": "text/plain"])
    #expect(crossSite.status == 403)
    #expect(
      try post(["Origin": "http://evil.example", "Content-Type": "application/json"]).status == 403)
    // A script that did not say JSON.
    let form = try post(["Content-Type": "application/x-www-form-urlencoded"])
    #expect(form.status == 415 && form.body.contains("application/json"))
    #expect(try post([:]).status == 415)
    #expect(responder.answered.isEmpty)
    #expect(responder.refused == [.origin, .origin, .contentType, .contentType])

    // Scripts, the page itself and an allowed origin.
    #expect(try post(["Content-Type": "application/json"]).body == body)
    #expect(
      try post(["Content-Type": "application/json", "Origin": "http://127.0.0.1:\(server.port)"])
        .status == 200)
    #expect(
      try post([
        "Content-Type": "application/json; charset=utf-8", "Origin": "http://localhost:3000",
      ])
      .status == 200)
    #expect(responder.answered.count == 3)
    await server.stop()
  }

  @Test func aServerOnEveryAddressChecksNoHostUnlessNamed() async throws {
    let open = try TestServer(configure: { $0.host = "0.0.0.0" })
    #expect(
      try HTTPResponse.fetch(port: open.port, path: "/", headers: ["Host": "192.0.2.1"]).status
        == 200)
    await open.stop()
    let named = try TestServer(configure: {
      $0.host = "0.0.0.0"
      $0.allowedHosts = ["tables.example"]
    })
    #expect(
      try HTTPResponse.fetch(port: named.port, path: "/", headers: ["Host": "192.0.2.1"]).status
        == 403)
    #expect(
      try HTTPResponse.fetch(port: named.port, path: "/", headers: ["Host": "tables.example"])
        .status == 200)
    await named.stop()
  }
}
