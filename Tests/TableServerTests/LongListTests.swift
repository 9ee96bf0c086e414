import Foundation
import StoreTestSupport
import TableModel
import TableStore
import Testing

@testable import TableServer

/// Lists longer than the windowed threshold: held as their first rows, diffed from the
/// store's edits by position. A viewer that fetched the whole list and applies every diff
/// by the protocol's rules must hold exactly what the store holds, after every kind of
/// edit, inside and outside the first screen.
@Suite struct LongListTests {
  static let rowCount = 120
  static let app = #"""
    {"id": "Lhome", "title": "Home", "sections": [{"id": "Shome", "rows": [
      {"id": "Rbig", "text": "Big", "children":
        {"id": "Lbig", "title": "Big", "editable": true, "sections": [
          {"id": "Smain", "rows": [ROWS]},
          {"id": "Stail", "header": "Tail", "rows": [
            {"id": "Rt1", "text": "Tail 1"}, {"id": "Rt2", "text": "Tail 2"}]}]}},
      {"id": "Rsmall", "text": "Small", "children":
        {"id": "Lsmall", "title": "Small", "editable": true, "sections": [
          {"id": "Ssmall", "rows": [{"id": "Rs1", "text": "One"}, {"id": "Rs2", "text": "Two"}]}]}}]}]}
    """#.replacingOccurrences(
      of: "ROWS",
      with: (0..<rowCount).map { #"{"id": "R\#($0)", "text": "Item \#($0)"}"# }
        .joined(separator: ","))

  /// Set by ``setUp(_:)``, the first thing each test does: every test runs once on each store.
  var temporary: TemporaryStore!
  var server: SessionServer!
  /// What `Store(path:)` opens: another connection to the test's data.
  var path: String { temporary.path }

  mutating func setUp(_ kind: StoreKind) throws {
    temporary = try TemporaryStore(kind: kind, json: Self.app)
    var configuration = SessionServerConfiguration(screenRowLimit: 10, fetchLimit: 500)
    configuration.windowedListThreshold = 50
    let dataSource = StoreDataSource(store: try Store(path: path))
    server = SessionServer(
      dataSource: dataSource, sessionStorage: dataSource, configuration: configuration)
  }

  /// Sends `text` and returns every message sent, with whom it went to.
  mutating func send(_ connection: ConnectionID, _ text: String) -> [(JSONValue, [ConnectionID])] {
    server.receive(text, from: connection, at: .now).compactMap { action in
      guard case .send(let frame, let to, _) = action else { return nil }
      return (try! JSONValue(parsing: frame.text), to)
    }
  }

  mutating func open(_ number: UInt64, _ row: String) -> JSONValue {
    let connection = ConnectionID(number)
    _ = server.connectionOpened(connection, at: .now)
    _ = send(connection, #"{"type":"hello","session":null}"#)
    let sent = send(connection, #"{"type":"tap","list":"Lhome","row":"\#(row)"}"#)
    return sent.first { $0.0["type"]?.stringValue == "screen" }!.0["screen"]!
  }

  /// The store's own rows of Lbig, read whole.
  func stored() throws -> [[String]] {
    try Store(path: path).snapshot(of: "Lbig").sections.map { $0.rows.map(\.text) }
  }

  func texts(_ screen: JSONValue) -> [[String]] {
    screen["sections"]!.arrayValue!.map { $0["rows"]!.arrayValue!.map { $0["text"]!.stringValue! } }
  }

  @Test(arguments: StoreKind.allCases)
  mutating func diffsAreExactForTheWholeListAndFetchReadsTheCurrentOne(kind: StoreKind) throws {
    try setUp(kind)
    let first = open(1, "Rbig")
    let editor = ConnectionID(2)
    _ = open(2, "Rbig")
    let small = open(3, "Rsmall")
    // The first screen: ten rows of each section, and the whole counts.
    let sections = first["sections"]!.arrayValue!
    #expect(sections[0]["count"] == .number(Double(Self.rowCount)))
    #expect(sections[0]["rows"]!.arrayValue!.count == 10)
    #expect(sections[1]["count"] == .number(2))
    #expect(server.windowCounts["Lbig"] == [Self.rowCount, 2])
    #expect(server.windowCounts["Lsmall"] == nil)

    // Viewer 1 fetches the rest of the main section and holds the whole list.
    let fetched = send(
      ConnectionID(1), #"{"type":"fetch","list":"Lbig","section":"Smain","from":10,"count":200}"#)
    let rows = fetched[0].0
    #expect(rows["type"]?.stringValue == "rows" && rows["from"] == .number(10))
    guard case .object(var model) = first else { return }
    var main = sections[0]
    if case .object(var object) = main {
      object["rows"] = .array(main["rows"]!.arrayValue! + rows["rows"]!.arrayValue!)
      main = .object(object)
    }
    model["sections"] = .array([main, sections[1]])
    var whole = JSONValue.object(model)
    #expect(try texts(whole) == stored())

    let edits = [
      #"{"type":"insert","list":"Lbig","section":"Smain","after":"R60","row":{"id":"Rnew","text":"New"}}"#,
      #"{"type":"insert","list":"Lbig","section":"Smain","after":null,"row":{"id":"Rfirst","text":"First"}}"#,
      #"{"type":"delete","list":"Lbig","rows":["R5","R100"]}"#,
      #"{"type":"move","list":"Lbig","row":"R2","section":"Smain","after":"R80"}"#,
      #"{"type":"move","list":"Lbig","row":"R90","section":"Smain","after":"R1"}"#,
      #"{"type":"move","list":"Lbig","row":"R3","section":"Stail","after":null}"#,
      #"{"type":"update","list":"Lbig","row":"R70","text":"Seventy"}"#,
      #"{"type":"update","list":"Lbig","row":"R7","text":"Seven"}"#,
    ]
    for (ref, edit) in edits.enumerated() {
      let command = edit.replacingOccurrences(of: #""type""#, with: #""ref":\#(ref),"type""#)
      let sent = send(editor, command)
      let diffs = sent.filter { $0.0["type"]?.stringValue == "diff" }
      #expect(diffs.count == 1, "\(edit): \(sent.map(\.0.serialized))")
      guard let diff = diffs.first else { continue }
      #expect(Set(diff.1) == [ConnectionID(1), editor])
      whole = ScreenModel.apply(diff: diff.0, to: whole)
      #expect(try texts(whole) == stored(), "after \(edit)")
      #expect(sent.last?.0["type"]?.stringValue == "ack")
    }
    // The held first screen follows; counts too.
    #expect(server.windowCounts["Lbig"] == [Self.rowCount - 1, 3])

    // A fetch after the edits reads the current list at the current version.
    let later = send(
      ConnectionID(1), #"{"type":"fetch","list":"Lbig","section":"Smain","from":50,"count":10}"#)
    #expect(later[0].0["version"] == whole["version"])
    let window = later[0].0["rows"]!.arrayValue!.map { $0["text"]!.stringValue! }
    #expect(try window == Array(stored()[0][50..<60]))

    // Someone opening the long list after the edits sees their result: the first rows as
    // stored, the counts as they are now.
    let opened = open(4, "Rbig")
    #expect(try texts(opened)[0] == Array(stored()[0].prefix(10)))
    #expect(opened["sections"]!.arrayValue!.map { $0["count"] } == [.number(119), .number(3)])
    #expect(opened["version"] == whole["version"])

    // Someone editing a small list meanwhile gets its own whole-snapshot diff.
    let smallSent = send(
      ConnectionID(3), #"{"type":"delete","list":"Lsmall","rows":["Rs1"],"ref":1}"#)
    #expect(smallSent.map { $0.0["type"]!.stringValue! } == ["diff", "ack"])
    #expect(texts(ScreenModel.apply(diff: smallSent[0].0, to: small)) == [["Two"]])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func refusalsAndTapsOnRowsPastTheFirstScreen(kind: StoreKind) throws {
    try setUp(kind)
    _ = open(1, "Rbig")
    let connection = ConnectionID(1)
    let missing = send(
      connection, #"{"type":"update","list":"Lbig","row":"Rnone","text":"x","ref":1}"#)
    #expect(missing.map { $0.0["code"] } == [.string("not_found")])
    let after = send(
      connection,
      #"{"type":"move","list":"Lbig","row":"R100","section":"Smain","after":"R100","ref":2}"#)
    #expect(after.map { $0.0["code"] } == [.string("bad_message")])
    // A row far past the first screen is found by id.
    let tap = send(connection, #"{"type":"tap","list":"Lbig","row":"R110","ref":3}"#)
    #expect(tap.map { $0.0["type"]!.stringValue! } == ["ack"])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aChangeFromElsewhereSendsTheScreenAgainWithoutReadingTheListWhole(kind: StoreKind)
    throws
  {
    try setUp(kind)
    let first = open(1, "Rbig")
    // Another process deletes a row; the server is told the list changed, not how.
    _ = try Store(path: path).deleteRows(["R0"], in: "Lbig")
    let sent = server.listChanged("Lbig", edits: nil).compactMap { action -> JSONValue? in
      guard case .send(let frame, _, let kind) = action, kind != .presence else { return nil }
      return try? JSONValue(parsing: frame.text)
    }
    #expect(sent.map { $0["type"]?.stringValue } == ["screen"])
    let screen = sent[0]["screen"]!
    #expect(screen["version"]?.intValue == first["version"]!.intValue! + 1)
    #expect(screen["sections"]?.arrayValue?.first?["count"] == .number(Double(Self.rowCount - 1)))
    #expect(try texts(screen)[0] == Array(stored()[0].prefix(10)))
    // Told again with nothing new: nothing is sent.
    #expect(server.listChanged("Lbig", edits: nil).isEmpty)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func aResumeOnTheLongListGetsTheDiffsItMissed(kind: StoreKind) throws {
    try setUp(kind)
    let first = open(1, "Rbig")
    let editor = ConnectionID(2)
    _ = open(2, "Rbig")
    let version = first["version"]!.intValue!
    let token = try #require(server.connections[ConnectionID(1)]?.session?.rawValue)
    _ = server.connectionClosed(ConnectionID(1))
    for (ref, row) in ["R50", "R60"].enumerated() {
      _ = send(
        editor, #"{"type":"update","list":"Lbig","row":"\#(row)","text":"Edited","ref":\#(ref)}"#)
    }
    // Back with what it has: the two diffs it missed, not a screen.
    let back = ConnectionID(4)
    _ = server.connectionOpened(back, at: .now)
    let resumed = send(
      back,
      #"{"type":"hello","session":"\#(token)","have":{"list":"Lbig","version":\#(version)}}"#)
    #expect(resumed.filter { $0.0["type"]?.stringValue == "diff" }.count == 2)
    #expect(!resumed.contains { $0.0["type"]?.stringValue == "screen" })
  }
}
