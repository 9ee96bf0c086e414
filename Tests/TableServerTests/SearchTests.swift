import StoreTestSupport
import TableModel
import Testing

@testable import TableServer

/// `search`: results filtered over the whole list by the data source, live while others edit.
@Suite struct SearchTests {
  /// Set by ``setUp(_:)``, the first thing each test does: every test runs once on each store.
  var fixture: Fixture!

  mutating func setUp(_ kind: StoreKind) throws {
    fixture = try Fixture(kind)
  }

  @Test func queriesFoldCaseAndAccentsAndNeedEveryWord() {
    let query = SearchQuery("  CAFÉ  creme ")
    #expect(query.terms == ["cafe", "creme"])
    #expect(query.matches(Row(id: "a", text: "Café", detail: "Crème brûlée")))
    #expect(!query.matches(Row(id: "b", text: "Café")))
    #expect(SearchQuery.fold("Ærø Ñandú Straße") == "aero nandu straße")
    #expect(SearchQuery("   ").isEmpty)
  }

  @Test(arguments: StoreKind.allCases)
  mutating func resultsFollowEditsByOthersAndAnEmptyQueryEndsTheSearch(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let searcher = driver.join()
    _ = driver.send(searcher, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    #expect(driver.screen(searcher)["searchable"] == .bool(true))
    let editor = driver.join()
    _ = driver.send(editor, #"{"type":"tap","list":"Lhome","row":"Rtasks"}"#)
    _ = driver.send(searcher, #"{"type":"search","list":"Ltasks","query":"ÉGG","ref":1}"#)
    #expect(driver.screen(searcher)["search"] == .string("ÉGG"))
    #expect(driver.texts(searcher) == [["Eggs"]])
    let v = driver.version(searcher)
    // Another session adds a matching row and renames one so it no longer matches.
    _ = driver.send(
      editor,
      #"{"type":"insert","list":"Ltasks","section":"Sdone","after":null,"row":{"text":"Eggplant"}}"#
    )
    #expect(driver.texts(searcher) == [["Eggs"], ["Eggplant"]])
    #expect(driver.version(searcher) == v + 1)
    #expect(driver.texts(editor) == [["Milk", "Eggs", "Bread"], ["Eggplant", "Tea"]])
    _ = driver.send(editor, #"{"type":"update","list":"Ltasks","row":"Reggs","text":"Ham"}"#)
    #expect(driver.texts(searcher) == [["Eggplant"]])
    // Fetching cuts from the results, not the list.
    let rows = driver.send(
      searcher, #"{"type":"fetch","list":"Ltasks","section":"Sdone","from":0,"count":5}"#)
    #expect(rows == ["c1 ← rows Ltasks@\(v + 2) section 0 from 0 count 1"])
    _ = driver.send(searcher, #"{"type":"search","list":"Ltasks","query":""}"#)
    #expect(driver.screen(searcher)["search"] == nil)
    #expect(driver.texts(searcher) == [["Milk", "Ham", "Bread"], ["Eggplant", "Tea"]])
  }

  @Test(arguments: StoreKind.allCases)
  mutating func onlyTheTopScreenOfASearchableListCanBeSearched(kind: StoreKind) throws {
    try setUp(kind)
    var driver = try fixture.makeDriver()
    let c1 = driver.join()
    driver.expect(
      c1, sends: #"{"type":"search","list":"Lhome","query":"x","ref":1}"#,
      replies: ["c1 ← error 1 not_allowed"])
    driver.expect(
      c1, sends: #"{"type":"search","list":"Ltasks","query":"x","ref":2}"#,
      replies: ["c1 ← error 2 not_allowed"])
  }

  @Test func theDefaultSearchFiltersTheSnapshot() throws {
    let lists = SnapshotDataSource(
      root: TableSnapshot(
        list: "home", version: 0, title: "Home",
        sections: [
          Section(id: "a", rows: [Row(id: "1", text: "Zoë"), Row(id: "2", text: "Bob")]),
          Section(id: "b", rows: [Row(id: "3", text: "Chloé", detail: "zoe's sister")]),
        ], isSearchable: true))
    let results = try lists.search(SearchQuery("zoe"), in: "home")
    #expect(results.sections.map { $0.rows.map(\.id) } == [["1"], ["3"]])
    #expect(results.isSearchable)
  }
}
