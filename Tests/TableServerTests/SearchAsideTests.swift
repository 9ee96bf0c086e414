import Foundation
import StoreTestSupport
import TableModel
import Testing

@testable import TableServer
@testable import TableStore

/// Searches read off the core thread (`readsSearchesAside`): the core hands the query out
/// (`readSearch`), answers everyone else meanwhile, and answers the searcher when the
/// results come back, dropping results the list or the query has moved past. The test
/// plays the search thread: it reads with the store's own search reader (a second
/// connection) whenever it chooses.
@Suite struct SearchAsideTests {
  static let eggs = #"{"type":"search","list":"Ltasks","query":"ÉGG","ref":1}"#
  static let readEggs = #"read search "ÉGG" of Ltasks"#

  @Test(arguments: StoreKind.allCases)
  func aSearchIsAnsweredWhenItsResultsComeAndOthersAreAnsweredMeanwhile(kind: StoreKind) throws {
    let fixture = try Fixture(kind)
    var configuration = SessionServerConfiguration()
    configuration.readsSearchesAside = true
    var driver = try fixture.makeDriver(configuration)
    let reader = try StoreSearchReader(path: fixture.path)
    let searcher = driver.join()
    _ = driver.send(searcher, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    let editor = driver.join()
    _ = driver.send(editor, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    let v = driver.version(searcher)

    // The search is handed out: no screen yet, only the ack.
    let asked = driver.send(searcher, Self.eggs)
    #expect(asked.contains(Self.readEggs))
    #expect(!asked.contains { $0.contains("screen") })
    #expect(driver.screen(searcher)["search"] == nil)
    // A fetch meanwhile is not answered from results read on the core thread (reading
    // 611,054 of them held everyone for a second): no rows, its ack; the screen follows.
    let fetched = driver.send(
      searcher, #"{"type":"fetch","list":"Ltasks","section":"Stodo","from":0,"count":10,"ref":9}"#)
    #expect(fetched == ["\(searcher) ← ack 9 v=null"])
    // The reader reads now; then, before its results are back, another session edits
    // and is answered at once, its viewers (the searcher's not among them) get the diff.
    let early = try reader.search(SearchQuery("ÉGG"), in: "Ltasks")
    #expect(early.version == v)
    let edit = driver.send(
      editor,
      #"{"type":"insert","list":"Ltasks","section":"Sdone","after":null,"row":{"text":"Eggplant"},"ref":2}"#
    )
    #expect(edit.contains { $0.hasPrefix("\(editor) ← ack 2") })
    #expect(edit.contains(Self.readEggs) == false)  // one read at a time per query
    #expect(driver.texts(editor) == [["Milk", "Eggs", "Bread"], ["Eggplant", "Tea"]])

    // The early results are of the version before the edit: shown (the searcher had
    // none) and read again.
    let stale = driver.record(
      driver.server.searchRead(SearchQuery("ÉGG"), in: "Ltasks", result: .success(early)))
    #expect(stale.contains(Self.readEggs))
    #expect(driver.screen(searcher)["search"] == .string("ÉGG"))
    #expect(driver.texts(searcher) == [["Eggs"]])
    #expect(driver.version(searcher) == v)
    // Results no newer than those shown are not shown again (only read again).
    let again = driver.record(
      driver.server.searchRead(SearchQuery("ÉGG"), in: "Ltasks", result: .success(early)))
    #expect(again == [Self.readEggs])
    // The next read is current: the searcher gets one diff, consistent with the list.
    let current = try reader.search(SearchQuery("ÉGG"), in: "Ltasks")
    let caughtUp = driver.record(
      driver.server.searchRead(SearchQuery("ÉGG"), in: "Ltasks", result: .success(current)))
    #expect(caughtUp.count == 1 && caughtUp[0].hasPrefix("\(searcher) ← diff Ltasks \(v)→\(v + 1)"))
    #expect(driver.texts(searcher) == [["Eggs"], ["Eggplant"]])
    #expect(driver.version(searcher) == v + 1)

    // The list changes again: the searcher keeps its results until the new ones come,
    // then gets one diff from them.
    let rename = driver.send(
      editor, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"Ham"}"#)
    #expect(rename.contains(Self.readEggs))
    #expect(driver.texts(searcher) == [["Eggs"], ["Eggplant"]])
    let renamed = driver.record(
      driver.server.searchRead(
        SearchQuery("ÉGG"), in: "Ltasks",
        result: .success(try reader.search(SearchQuery("ÉGG"), in: "Ltasks"))))
    #expect(renamed == ["\(searcher) ← diff Ltasks \(v + 1)→\(v + 2) deleteSection0"])
    #expect(driver.texts(searcher) == [["Eggplant"]])
    #expect(driver.version(searcher) == v + 2)

    // The query changes before the results of the last one come: they are dropped.
    _ = driver.send(searcher, #"{"type":"search","list":"Ltasks","query":"milk"}"#)
    _ = driver.send(searcher, #"{"type":"search","list":"Ltasks","query":"tea"}"#)
    let dropped = driver.record(
      driver.server.searchRead(
        SearchQuery("milk"), in: "Ltasks",
        result: .success(try reader.search(SearchQuery("milk"), in: "Ltasks"))))
    #expect(dropped == [])
    #expect(driver.server.searches.results["Ltasks"]?[SearchQuery("milk")] == nil)
    _ = driver.record(
      driver.server.searchRead(
        SearchQuery("tea"), in: "Ltasks",
        result: .success(try reader.search(SearchQuery("tea"), in: "Ltasks"))))
    #expect(driver.screen(searcher)["search"] == .string("tea"))
    #expect(driver.texts(searcher) == [["Tea"]])
  }
}

/// The same through a real server on a loopback port: while a search is being read (held
/// open by the test), another client's command is answered and its diff arrives; the
/// searcher's results, read before that edit, are read again and match the list after it.
@Suite(.serialized) struct SearchInProgressTests {
  typealias Peer = ServerIntegrationTests.Peer

  /// The store's lists, with searches read by a reader that, on its first search, reads
  /// and then waits until the test lets it go (the read is then out of date).
  final class HeldSearches: TableDataSource, @unchecked Sendable {
    let inner: StoreDataSource
    let path: String
    /// Signalled when the first search has read its results; the test signals `release`.
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let reads = LockedValue(0)

    init(fixture: Fixture) throws {
      inner = StoreDataSource(store: try Store(path: fixture.path))
      path = fixture.path
    }

    final class Reader: SearchReader {
      let inner: StoreSearchReader
      let owner: HeldSearches
      init(_ owner: HeldSearches) throws(ProtocolError) {
        self.owner = owner
        inner = try StoreSearchReader(path: owner.path)
      }
      func search(_ query: SearchQuery, in list: String) throws(ProtocolError) -> TableSnapshot {
        let results = try inner.search(query, in: list)
        if owner.reads.withLock({
          $0 += 1
          return $0
        }) == 1 {
          owner.entered.signal()
          owner.release.wait()
        }
        return results
      }
    }

    var keepsVersions: Bool { true }
    var capabilities: DataSourceCapabilities {
      var capabilities = inner.capabilities
      capabilities.searchReader = { () throws(ProtocolError) in try Reader(self) }
      return capabilities
    }
    func rootList() throws(ProtocolError) -> String { try inner.rootList() }
    func snapshot(of list: String) throws(ProtocolError) -> TableSnapshot {
      try inner.snapshot(of: list)
    }
    func search(_ query: SearchQuery, in list: String) throws(ProtocolError) -> TableSnapshot {
      try inner.search(query, in: list)
    }
    func destination(ofRow row: String, in list: String) throws(ProtocolError) -> String? {
      try inner.destination(ofRow: row, in: list)
    }
    func commit(_ edit: TableEdit, in list: String) throws(ProtocolError) -> TableChange {
      try inner.commit(edit, in: list)
    }
  }

  static func texts(_ screen: JSONValue?) -> [[String]] {
    (screen?["sections"]?.arrayValue ?? []).map { section in
      (section["rows"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func othersAreAnsweredWhileASearchIsReadAndItsResultsMatchTheListAfter(kind: StoreKind)
    async throws
  {
    let fixture = try Fixture(kind)
    let dataSource = try HeldSearches(fixture: fixture)
    let server = TablewebServer(
      dataSource: dataSource, sessionStorage: dataSource.inner,
      configuration: TablewebServer.Configuration(port: 0))
    try await server.start()
    // Never leave the search thread waiting (the server's stop waits for it).
    defer { dataSource.release.signal() }
    do {
      let url = "ws://127.0.0.1:\(server.port)/ws"
      let searcher = try Peer(url: url)
      searcher.send(#"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
      _ = try searcher.next("screen")
      let editor = try Peer(url: url)
      editor.send(#"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
      let before = try editor.next("screen")["screen"]!["version"]!.intValue!
      searcher.send(#"{"type":"search","list":"Ltasks","query":"ÉGG","ref":1}"#)
      #expect(try searcher.next("ack")["ref"] == .int(1))
      #expect(dataSource.entered.wait(timeout: .now() + 5) == .success, "no search was read aside")
      // The search is held open: the editor's command is answered, its diff arrives.
      editor.send(
        #"{"type":"insert","list":"Ltasks","section":"Sdone","after":null,"row":{"text":"Eggplant"},"ref":2}"#
      )
      // (The diff goes to the list's viewers before the command's ack.)
      #expect(try editor.next("diff")["to"] == .int(before + 1))
      #expect(try editor.next("ack")["ref"] == .int(2))
      dataSource.release.signal()
      // Its results were read before the edit: shown, read again, and the searcher gets
      // the difference to the list after the edit.
      let screen = try searcher.next("screen")["screen"]
      #expect(screen?["search"] == .string("ÉGG"))
      #expect(screen?["version"] == .int(before))
      #expect(Self.texts(screen) == [["Eggs"]])
      let diff = try searcher.next("diff")
      #expect(diff["from"] == .int(before) && diff["to"] == .int(before + 1))
      #expect(diff["ops"]?.arrayValue?.isEmpty == false)
      #expect(dataSource.reads.withLock { $0 } == 2)
    }
    await server.stop()
  }
}
