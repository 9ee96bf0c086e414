import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// Search in SQL, on both stores: PostgreSQL keeps the folded column with its own trigger
/// (unaccent and lower), SQLite with the function the store defines.
@Suite struct StoreSearchTests {
  static let file = #"""
    {"id": "menu", "title": "Menu", "searchable": true, "editable": true, "sections": [
      {"id": "s1", "rows": [
        {"id": "a", "text": "Crème brûlée", "detail": "Dessert"},
        {"id": "b", "text": "Île flottante"},
        {"id": "c", "text": "Tarte Tatin", "detail": "Caramelised APPLES"}]}]}
    """#

  @Test(arguments: StoreKind.allCases)
  func searchFoldsCaseAndAccentsOnTextAndDetailAndFollowsRenames(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.file)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    func ids(_ query: String) throws -> [String] {
      try store.search(SearchQuery(query), in: "menu").sections.flatMap(\.rows).map(\.id)
    }
    #expect(try store.snapshot(of: "menu").isSearchable)
    #expect(try ids("CREME") == ["a"])
    #expect(try ids("brulee creme") == ["a"])
    #expect(try ids("apples") == ["c"])
    #expect(try ids("ile") == ["b"])
    #expect(try ids("pie") == [])
    _ = try store.updateRow("c", in: "menu", text: "Apple pie", detail: .some(nil))
    #expect(try ids("pie") == ["c"])
    #expect(try ids("caramelised") == [])
  }
}
