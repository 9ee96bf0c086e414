import Foundation
import StoreTestSupport
import TableModel
import Testing

@testable import TableServer

/// `screen` carries the screen's `language` (v1.2): the screen's own, else the app's; left
/// out when none is known. Real server on a loopback port, real WebSocket clients.
@Suite(.serialized) struct LanguageServerTests {
  typealias Peer = ServerIntegrationTests.Peer
  typealias RunningServer = ServerIntegrationTests.RunningServer

  static let app = #"""
    {"id": "Lroot", "title": "ראשי", "language": "he", "sections": [{"id": "Sroot", "rows": [
      {"id": "Rnames", "text": "שמות", "children":
        {"id": "Lnames", "title": "שמות", "sections": [{"rows": [{"text": "אבי"}]}]}},
      {"id": "Rarabic", "text": "عربي", "children":
        {"id": "Larabic", "title": "عربي", "language": "ar", "sections": [{"rows": [{"text": "أحمد"}]}]}}]}]}
    """#

  @Test(arguments: StoreKind.allCases)
  func screensCarryTheirLanguageElseTheApps(kind: StoreKind) async throws {
    let fixture = try Fixture(kind, app: Self.app)
    let server = try RunningServer(fixture: fixture)
    do {
      let peer = try Peer(server)
      #expect(peer.screen?["language"] == .string("he"))
      peer.send(#"{"type":"tap","list":"Lroot","row":"Rnames","ref":1}"#)
      #expect(try peer.next("screen")["screen"]?["language"] == .string("he"))
      peer.send(#"{"type":"back","ref":2}"#)
      _ = try peer.next("screen")
      peer.send(#"{"type":"tap","list":"Lroot","row":"Rarabic","ref":3}"#)
      #expect(try peer.next("screen")["screen"]?["language"] == .string("ar"))
    }
    await server.stop()
  }

  @Test(arguments: StoreKind.allCases)
  func aScreenOfUnknownLanguageSaysNothing(kind: StoreKind) async throws {
    let fixture = try Fixture(kind)
    let server = try RunningServer(fixture: fixture)
    do {
      let peer = try Peer(server)
      #expect(peer.screen?["title"] == .string("Home"))
      #expect(peer.screen?["language"] == nil)
    }
    await server.stop()
  }

  @Test func aSwiftDataSourceSaysItsLanguageOnItsSnapshots() async throws {
    var snapshot = TableSnapshot(
      list: "home", version: 0, title: "ホーム",
      sections: [Section(id: "s", rows: [Row(id: "1", text: "山田")])])
    snapshot.language = "ja"
    let server = TablewebServer(
      dataSource: SnapshotDataSource(root: snapshot), configuration: .init(port: 0))
    try server.start()
    do {
      let peer = try Peer(url: "ws://127.0.0.1:\(server.port)/ws")
      #expect(peer.screen?["language"] == .string("ja"))
    }
    await server.stop()
  }
}
