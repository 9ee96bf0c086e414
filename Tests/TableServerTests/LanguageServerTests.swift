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

  static let indexedApps:
    [(language: String, rows: [String], inserted: String, titles: String, at: Int)] = [
      ("ru", ["Анна", "Борис", "Яков"], "Вера", "А Б В Г", 2),
      ("sv", ["Anna", "Zack", "Örjan"], "Åsa", "Y Z Å Ä Ö #", 26),
      ("ja", ["さくら", "かおり", "わたる"], "あきら", "あ か さ", 0),
      ("zh-Hans", ["王芳", "李娜", "张伟"], "白云", "X Y Z #", 1),
      ("he", ["אבי", "בתיה", "תמר"], "גיל", "א ב ג", 2),
    ]

  /// The screen's index strip and sections are the language's; an inserted row arrives in
  /// its letter's section, for every viewer.
  @Test(arguments: StoreKind.allCases, indexedApps.indices)
  func indexedListsAreIndexedByTheirLanguage(kind: StoreKind, which: Int) async throws {
    let app = Self.indexedApps[which]
    let rows = app.rows.map { #"{"text": "\#($0)"}"# }.joined(separator: ", ")
    let fixture = try Fixture(
      kind,
      app:
        #"{"id": "L", "title": "x", "language": "\#(app.language)", "index": true, "editable": true, "sections": [{"rows": [\#(rows)]}]}"#
    )
    let server = try RunningServer(fixture: fixture)
    do {
      let peer = try Peer(server)
      let strip = try #require(peer.screen?["indexTitles"]?.arrayValue)
      let titles = strip.compactMap { $0.stringValue }
      #expect(titles.joined(separator: " ").contains(app.titles), "\(titles)")
      #expect(titles.last == "#")
      let sections = try #require(peer.screen?["sections"]?.arrayValue)
      #expect(sections.map { $0["header"]?.stringValue } == titles.map { $0 })
      let section = try #require(sections[app.at]["id"]?.stringValue)
      peer.send(
        #"{"type":"insert","list":"L","section":"\#(section)","after":null,"row":{"text":"\#(app.inserted)"},"ref":1}"#
      )
      let diff = try peer.next("diff")
      let op = try #require(diff["ops"]?[0])
      #expect(op["op"] == .string("insert"))
      #expect(op["at"] == .array([.int(app.at), .int(0)]))
      #expect(op["row"]?["text"] == .string(app.inserted))
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
    try await server.start()
    do {
      let peer = try Peer(url: "ws://127.0.0.1:\(server.port)/ws")
      #expect(peer.screen?["language"] == .string("ja"))
    }
    await server.stop()
  }
}
