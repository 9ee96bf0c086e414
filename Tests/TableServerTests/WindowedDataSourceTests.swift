import TableModel
import Testing

@testable import TableServer

/// An app's own data source that answers by window: a long list is never read whole.
@Suite struct WindowedDataSourceTests {
  /// 100 rows in memory; counts every whole read of the long list.
  final class LongShelf: WindowedDataSource {
    var items = (0..<100).map { "Item \($0)" }
    var wholeReads = 0
    /// Whether it declares its windows; conforming to WindowedDataSource alone is not enough.
    let declaresWindows: Bool
    init(declaresWindows: Bool = true) { self.declaresWindows = declaresWindows }

    var capabilities: DataSourceCapabilities {
      declaresWindows ? DataSourceCapabilities(windows: self) : DataSourceCapabilities()
    }

    func row(at index: Int) -> Row { Row(id: items[index], text: items[index]) }

    func rootList() throws(ProtocolError) -> String { "root" }

    func listExists(_ list: String) throws(ProtocolError) -> Bool {
      list == "root" || list == "long"
    }

    func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
      guard list == "long" else {
        return TableSnapshot(
          list: "root", version: 0, title: "Root",
          sections: [
            Section(id: "s", rows: [Row(id: "go", text: "Long", accessory: .disclosureIndicator)])
          ])
      }
      wholeReads += 1
      return TableSnapshot(
        list: "long", version: 0, title: "Long",
        sections: [Section(id: "main", rows: items.indices.map(row(at:)))])
    }

    func destination(ofRow row: String, in list: String) throws(ProtocolError) -> String? {
      row == "go" ? "long" : nil
    }

    func prefix(of list: String, rowLimit: Int) throws(ProtocolError) -> ListPrefix? {
      guard list == "long" else { return nil }
      let rows = items.indices.prefix(rowLimit).map(row(at:))
      return ListPrefix(
        snapshot: TableSnapshot(
          list: "long", version: 0, title: "Long", sections: [Section(id: "main", rows: rows)]),
        counts: [items.count])
    }

    func row(_ id: String, in list: String) throws(ProtocolError) -> Row? {
      items.firstIndex(of: id).map(row(at:))
    }

    func indexPath(ofRow id: String, in list: String) throws(ProtocolError) -> TableIndexPath? {
      items.firstIndex(of: id).map { TableIndexPath(row: $0, section: 0) }
    }

    func rows(of list: String, section: Int, range: Range<Int>) throws(ProtocolError) -> [Row] {
      range.clamped(to: items.indices).map(row(at:))
    }
  }

  let shelf: LongShelf
  var server: SessionServer

  init() {
    self.init(shelf: LongShelf())
  }

  init(shelf: LongShelf) {
    self.shelf = shelf
    var configuration = SessionServerConfiguration(screenRowLimit: 10)
    configuration.windowedListThreshold = 50
    server = SessionServer(
      dataSource: shelf, sessionStorage: MemorySessionStorage(), configuration: configuration)
  }

  func messages(_ actions: [ServerAction]) -> [JSONValue] {
    actions.compactMap { action in
      guard case .send(let frame, _, let kind) = action, kind != .presence else { return nil }
      return try? JSONValue(parsing: frame.text)
    }
  }

  @Test mutating func aLongListIsServedByWindowAndItsBatchUpdatesResendTheFirstScreen() throws {
    let viewer = ConnectionID(1)
    _ = server.connectionOpened(viewer, at: .now)
    _ = server.receive(#"{"type":"hello","session":null}"#, from: viewer, at: .now)
    let opened = messages(
      server.receive(#"{"type":"tap","list":"root","row":"go"}"#, from: viewer, at: .now))
    let section = opened.first?["screen"]?["sections"]?.arrayValue?.first
    #expect(section?["count"] == .number(100))
    #expect(section?["rows"]?.arrayValue?.count == 10)

    let fetched = messages(
      server.receive(
        #"{"type":"fetch","list":"long","section":"main","from":40,"count":3}"#, from: viewer,
        at: .now))
    #expect(
      fetched.first?["rows"]?.arrayValue?.map { $0["text"]?.stringValue }
        == ["Item 40", "Item 41", "Item 42"])

    // The app inserts a row far past the first screen and says so by id. Rows placed
    // now may have moved on since (the app changes its model on its own threads): the
    // viewers get the first screen again, counted anew, still without a whole read.
    shelf.items.insert("New", at: 70)
    let inserted = messages(
      server.listChanged(
        "long", edits: [.insert(Row(id: "New", text: "New"), section: "main", after: "Item 69")]))
    #expect(inserted.map { $0["type"]?.stringValue } == ["screen"])
    #expect(inserted.first?["screen"]?["sections"]?.arrayValue?.first?["count"] == .number(101))
    #expect(inserted.first?["screen"]?["version"] == .number(2))
    shelf.items.remove(at: 3)
    let deleted = messages(server.listChanged("long", edits: [.delete(row: "Item 3")]))
    #expect(deleted.map { $0["type"]?.stringValue } == ["screen"])
    #expect(deleted.first?["screen"]?["sections"]?.arrayValue?.first?["count"] == .number(100))
    #expect(deleted.first?["screen"]?["version"] == .number(3))
    #expect(shelf.wholeReads == 0)
  }

  /// The same data source without the declaration: the server reads its long list whole
  /// and diffs it, as for any data source, although it conforms to WindowedDataSource.
  @Test func windowsAreUsedOnlyWhenDeclared() throws {
    var undeclared = WindowedDataSourceTests(shelf: LongShelf(declaresWindows: false))
    #expect(undeclared.server.capabilities.windows == nil)
    let viewer = ConnectionID(1)
    _ = undeclared.server.connectionOpened(viewer, at: .now)
    _ = undeclared.server.receive(#"{"type":"hello","session":null}"#, from: viewer, at: .now)
    _ = undeclared.server.receive(
      #"{"type":"tap","list":"root","row":"go"}"#, from: viewer, at: .now)
    #expect(undeclared.shelf.wholeReads == 1)
    undeclared.shelf.items.insert("New", at: 70)
    let inserted = undeclared.messages(
      undeclared.server.listChanged(
        "long", edits: [.insert(Row(id: "New", text: "New"), section: "main", after: "Item 69")]))
    #expect(inserted.map { $0["type"]?.stringValue } == ["diff"])
  }
}
