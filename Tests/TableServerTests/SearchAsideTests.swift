import StoreTestSupport
import TableModel
import Testing

@testable import TableServer

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

    // The early results are of the version before the edit: read again, nothing shown.
    let stale = driver.record(
      driver.server.searchRead(SearchQuery("ÉGG"), in: "Ltasks", result: .success(early)))
    #expect(stale == [Self.readEggs])
    #expect(driver.screen(searcher)["search"] == nil)
    // The next read is current: the searcher gets its screen, consistent with the list.
    let current = try reader.search(SearchQuery("ÉGG"), in: "Ltasks")
    _ = driver.record(
      driver.server.searchRead(SearchQuery("ÉGG"), in: "Ltasks", result: .success(current)))
    #expect(driver.screen(searcher)["search"] == .string("ÉGG"))
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
