import Foundation
import TableModel
import Testing

@testable import TableClient
@testable import TableServer

/// A stand-in for the sessions layer: Settings with one row that pushes General, deletes
/// answered with a diff, everything else acknowledged; read-only refuses writes.
final class FakeSessions: ConnectionDelegate, @unchecked Sendable {
  weak var transport: WebSocketServer?
  private var version = 1
  private var rows = [
    ClientHeadlessTests.wifi, ClientHeadlessTests.airplane, ClientHeadlessTests.general,
  ]
  var isReadOnly = false
  /// Every hello received.
  var hellos: [ClientMessage] = []

  func connectionDidOpen(_ connection: ConnectionID) {}
  func connectionDidSendTooLarge(_ connection: ConnectionID) {}
  func connectionDidClose(_ connection: ConnectionID) {}

  func connection(_ connection: ConnectionID, didReceive text: String) {
    let (ref, result) = ClientMessage.decode(text)
    func send(_ message: ServerMessage) {
      transport?.send(OutgoingFrame(message.serialized), to: connection)
    }
    guard case .success(let message) = result else {
      if case .failure(let error) = result { send(.error(ref: ref, error)) }
      return
    }
    if isReadOnly, message.list != nil, message.kind != .tap {
      send(.error(ref: ref, ProtocolError(.notAllowed, "the server is read-only")))
      return
    }
    switch message {
    case .hello(let session, _, _, let have, _):
      hellos.append(message)
      // A client that has this version of the screen is caught up: no screen.
      let caughtUp = have == ListVersion(list: "L1", version: version)
      send(.welcome(session: session ?? "NEW-TOKEN", resumed: session != nil, caughtUp: caughtUp))
      if !caughtUp { send(settings(.none)) }
    case .tap(_, "R2", _):
      // Airplane Mode: the line drops before the answer.
      transport?.close(connection, code: 1001, reason: "going away")
      return
    case .tap(_, "R3", _):
      send(
        .screen(
          ScreenMessage(
            transition: .push, stack: ["Settings", "General"],
            screen: LoadedScreen(
              list: "L2", version: 1, title: "General", backTitle: "Settings",
              sections: [LoadedSection(Section(id: "S1", rows: [Row(id: "R9", text: "About")]))]))))
    case .back:
      send(settings(.pop))
    case .delete(_, let ids):
      let indexes = ids.compactMap { id in rows.firstIndex { $0.id == id } }
      send(
        .diff(
          TableDiff(
            list: "L1", from: version,
            ops: indexes.map { .delete(at: TableIndexPath(row: $0, section: 0)) })))
      rows.removeAll { ids.contains($0.id) }
      version += 1
    default:
      break
    }
    if let ref { send(.ack(ref: ref, version: version)) }
  }

  private func settings(_ transition: ScreenTransition) -> ServerMessage {
    .screen(
      ScreenMessage(
        transition: transition, stack: ["Settings"],
        screen: LoadedScreen(
          list: "L1", version: version, title: "Settings", style: .grouped,
          sections: [LoadedSection(Section(id: "S1", header: "NETWORK", rows: rows))])))
  }
}

@Suite("Client: the headless client against a server", .timeLimit(.minutes(1)))
struct ClientRunnerTests {
  struct Run {
    var exit: HeadlessClientRunner.Exit
    var output: [String]
    var errors: [String]
  }

  static func run(
    _ script: [String], on server: TestServer,
    configure: (inout HeadlessClientRunner.Options) -> Void = { _ in }
  ) -> Run {
    var options = HeadlessClientRunner.Options(url: server.url)
    options.timeout = .seconds(3)
    configure(&options)
    var lines: [String] = []
    var errors: [String] = []
    var runner = HeadlessClientRunner(
      options: options, write: { lines.append($0) }, writeError: { errors.append($0) })
    var remaining = script[...]
    let exit = runner.runScript { remaining.popFirst() }
    return Run(exit: exit, output: lines, errors: errors)
  }

  static func fakeServer(readOnly: Bool = false) throws -> (TestServer, FakeSessions) {
    let server = try TestServer()
    let sessions = FakeSessions()
    sessions.isReadOnly = readOnly
    sessions.transport = server.server
    server.delegate.forward = sessions
    return (server, sessions)
  }

  @Test func showsTheScreenAndFollowsCommands() async throws {
    let (server, sessions) = try Self.fakeServer()
    let run = Self.run(["tap General", "back", "delete Wi-Fi", "quit"], on: server)
    #expect(run.exit == .finished, "\(run.errors)")
    #expect(run.output.first == "session: NEW-TOKEN (new)")
    let text = run.output.joined(separator: "\n")
    #expect(text.contains("General  (back: Settings; L2 v1; plain)"))
    #expect(text.contains("R9 | default | About | - | none"))
    #expect(run.output.last?.hasPrefix("Settings  (root; L1 v2; grouped)") == true)
    #expect(run.output.last?.contains("Wi-Fi") == false)
    _ = sessions
    await server.stop()
  }

  @Test func reconnectsAfterADropAndResumesWithWhatItHas() async throws {
    let (server, sessions) = try Self.fakeServer()
    let run = Self.run(["tap Airplane Mode", "delete Wi-Fi", "quit"], on: server)
    #expect(run.exit == .finished, "\(run.errors)")
    #expect(run.errors.contains("tableweb client: reconnected"))
    #expect(
      sessions.hellos.last
        == .hello(
          session: "NEW-TOKEN", client: "tableweb client", have: ListVersion(list: "L1", version: 1)
        ))
    #expect(run.output.last?.hasPrefix("Settings  (root; L1 v2; grouped)") == true)
    #expect(run.output.last?.contains("Wi-Fi") == false)
    await server.stop()
  }

  @Test func printsEveryMessageAsJSONLines() async throws {
    let (server, _) = try Self.fakeServer()
    let run = Self.run(["reload"], on: server) {
      $0.printsJSON = true
      $0.session = "OLD"
    }
    #expect(run.exit == .finished)
    let types = run.output.compactMap { try? JSONValue(parsing: $0)["type"]?.stringValue }
    #expect(types == ["welcome", "screen", "ack"])
    #expect(run.output.first == #"{"type":"welcome","session":"OLD","resumed":true}"#)
    await server.stop()
  }

  @Test func strictStopsAtTheFirstError() async throws {
    let (server, _) = try Self.fakeServer(readOnly: true)
    let lenient = Self.run(["delete R1", "tap General"], on: server)
    #expect(lenient.exit == .finished)
    #expect(lenient.output.contains { $0.hasPrefix("error not_allowed (ref 1)") })
    let strict = Self.run(["delete R1", "tap General"], on: server) { $0.isStrict = true }
    #expect(strict.exit == .serverError)
    #expect(!strict.output.joined().contains("General  (back"))
    await server.stop()
  }

  @Test func aBadScriptLineFailsOnlyWhenStrict() async throws {
    let (server, _) = try Self.fakeServer()
    #expect(Self.run(["tap Nowhere", "fly"], on: server).exit == .finished)
    #expect(Self.run(["fly"], on: server) { $0.isStrict = true }.exit == .cannotRun)
    await server.stop()
  }

  @Test func saysWhenTheServerIsUnreachableOrRefuses() async throws {
    let unreachable = Self.run([], on: try TestServer()) { $0.url = "ws://127.0.0.1:1/ws" }
    #expect(unreachable.exit == .cannotRun)
    #expect(unreachable.errors.first?.contains("cannot connect to ws://127.0.0.1:1/ws") == true)
    let server = try TestServer()
    let refused = Self.run([], on: server) { $0.url = "ws://127.0.0.1:\(server.port)/elsewhere" }
    #expect(refused.exit == .cannotRun)
    #expect(refused.errors.first?.contains("HTTP 404") == true)
    await server.stop()
  }

  @Test func aSilentServerTimesOut() async throws {
    let server = try TestServer()
    let started = ContinuousClock.now
    let run = Self.run(["quit"], on: server) { $0.timeout = .milliseconds(300) }
    #expect(run.exit == .lost)
    #expect(ContinuousClock.now - started < .seconds(3))
    await server.stop()
  }
}
