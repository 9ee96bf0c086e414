import Foundation
import StoreTestSupport
import TableModel
import TableStore
import Testing

@testable import TableClient
@testable import TableServer

/// `undo` over real WebSocket connections to real servers on a loopback port: the session's
/// stack is in the database, so the same session undoes after reconnecting to another
/// server on the same database and after a restart; a conflict applies nothing.
@Suite(.serialized) struct UndoServerTests {
  typealias RunningServer = ServerIntegrationTests.RunningServer
  typealias Peer = ServerIntegrationTests.Peer

  func tasks(_ fixture: Fixture) throws -> [[String]] {
    try Store(path: fixture.path).snapshot(of: "Ltasks").sections.map { $0.rows.map(\.text) }
  }

  func openTasks(_ peer: Peer, ref: Int) throws {
    peer.send(#"{"type":"tap","list":"Lhome","row":"Rtasks","ref":\#(ref)}"#)
    _ = try peer.next("screen")
    _ = try peer.next("ack")
  }

  @Test(arguments: StoreKind.allCases)
  func theSameSessionUndoesOnAnotherServerAndAfterARestart(kind: StoreKind) async throws {
    let fixture = try Fixture(kind)
    let a = try RunningServer(fixture: fixture)
    let b = try RunningServer(fixture: fixture)
    var token = ""
    do {
      let ann = try Peer(a)
      try openTasks(ann, ref: 1)
      token = try #require(ann.token)
      ann.send(#"{"type":"delete","list":"Ltasks","rows":["Reggs"],"ref":2}"#)
      #expect(try ann.next("ack")["ref"] == .int(2))
      ann.send(#"{"type":"update","list":"Ltasks","row":"Rtea","text":"Coffee","ref":3}"#)
      #expect(try ann.next("ack")["ref"] == .int(3))
    }
    #expect(try tasks(fixture) == [["Milk", "Bread"], ["Coffee"]])
    do {
      let bob = try Peer(b)
      try openTasks(bob, ref: 1)
      // Ann's session, reconnected to server B.
      let ann = try Peer(b, token: token)
      #expect(ann.screen?["list"] == .string("Ltasks"))
      ann.send(#"{"type":"undo","ref":4}"#)
      let ack = try ann.next("ack")
      #expect(ack["ref"] == .int(4))
      let diff = try bob.next("diff")
      #expect(diff["to"] == ack["version"])
      #expect(try tasks(fixture) == [["Milk", "Bread"], ["Tea"]])
    }
    await a.stop()
    await b.stop()
    // A restart: a new server on the same database.
    let restarted = try RunningServer(fixture: fixture)
    do {
      let ann = try Peer(restarted, token: token)
      ann.send(#"{"type":"undo","ref":5}"#)
      #expect(try ann.next("ack")["ref"] == .int(5))
      #expect(try tasks(fixture) == [["Milk", "Eggs", "Bread"], ["Tea"]])
      ann.send(#"{"type":"undo","ref":6}"#)
      let error = try ann.next("error")
      #expect(error["ref"] == .int(6))
      #expect(error["code"] == .string("not_found"))
    }
    await restarted.stop()
  }

  @Test(arguments: StoreKind.allCases)
  func aConflictAppliesNothing(kind: StoreKind) async throws {
    let fixture = try Fixture(kind)
    let server = try RunningServer(fixture: fixture)
    do {
      let ann = try Peer(server)
      let bob = try Peer(server)
      let carl = try Peer(server)
      for peer in [ann, bob, carl] { try openTasks(peer, ref: 1) }
      ann.send(
        #"{"type":"move","list":"Ltasks","row":"Rtea","section":"Stodo","after":null,"ref":2}"#)
      _ = try ann.next("ack")
      bob.send(#"{"type":"update","list":"Ltasks","row":"Rtea","text":"Mint tea","ref":2}"#)
      _ = try bob.next("ack")
      let before = try tasks(fixture)
      let version = try fixture.version("Ltasks")
      ann.send(#"{"type":"undo","ref":3}"#)
      let error = try ann.next("error")
      #expect(error["ref"] == .int(3))
      #expect(error["code"] == .string("conflict"))
      #expect(error["message"]?.stringValue?.contains("Mint tea") == true)
      #expect(try tasks(fixture) == before)
      #expect(try fixture.version("Ltasks") == version)
      // A third viewer, sent the screen again, sees the list as it was.
      carl.send(#"{"type":"reload","ref":4}"#)
      let screen = try carl.next("screen")
      #expect(screen["screen"]?["version"] == .int(version))
      #expect(try carl.next("ack")["ref"] == .int(4))
    }
    await server.stop()
  }

  /// `tableweb client`'s `undo` and `redo` lines.
  @Test func theClientUndoesAndRedoes() async throws {
    let fixture = try Fixture(.sqlite)
    let server = try RunningServer(fixture: fixture)
    var options = HeadlessClientRunner.Options(url: server.url)
    options.timeout = .seconds(3)
    var lines: [String] = []
    var errors: [String] = []
    var runner = HeadlessClientRunner(
      options: options, write: { lines.append($0) }, writeError: { errors.append($0) })
    var script = [
      "tap Tasks", "delete Eggs", "wait 300", "undo", "wait 300", "redo", "wait 300", "undo",
      "wait 300", "undo", "wait 300", "quit",
    ][...]
    let exit = runner.runScript { script.popFirst() }
    #expect(exit == .finished, "\(errors)")
    #expect(try tasks(fixture) == [["Milk", "Eggs", "Bread"], ["Tea"]])
    let said = (lines + errors).joined(separator: "\n")
    #expect(said.contains("not_found"), "\(said)")
    #expect(
      try Store(path: fixture.path).changeLog(limit: 3).map(\.command) == ["undo", "redo", "undo"])
    await server.stop()
  }
}
