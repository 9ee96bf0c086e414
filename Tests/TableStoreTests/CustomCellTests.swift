import StoreTestSupport
import Testing

@testable import TableModel
@testable import TableStore

/// Custom cells: the data format's `cell` and `values` (errors by path, export) and the wire.
@Suite struct CustomCellTests {
  static let file = #"""
    {"id": "M", "title": "Inbox", "cell": {"slots": [
       {"name": "sender", "kind": "title"}, {"name": "preview", "kind": "body", "lines": 2},
       {"name": "avatar", "kind": "image"}]},
     "sections": [{"id": "s", "rows": [
       {"id": "m1", "text": "Ada", "values": {"sender": "Ada", "preview": "<b>hi</b>", "avatar": "/a.png"}},
       {"id": "m2", "text": "Plain"}]}]}
    """#

  @Test(arguments: [
    (
      #"{"title": "x", "cell": {"slots": []}, "sections": [{"rows": []}]}"#,
      "cell.slots: expected a non-empty array of slots"
    ),
    (
      #"{"title": "x", "cell": {"slots": [{"name": "a"}]}, "sections": [{"rows": []}]}"#,
      "cell.slots[0].kind: missing (required)"
    ),
    (
      #"{"title": "x", "cell": {"slots": [{"name": "a", "kind": "title"}, {"name": "a", "kind": "body"}]}, "sections": [{"rows": []}]}"#,
      #"cell.slots[1].name: duplicate slot name "a""#
    ),
    (
      #"{"title": "x", "cell": {"slots": [{"name": "a", "kind": "footer"}]}, "sections": [{"rows": []}]}"#,
      #"cell.slots[0].kind: unknown kind "footer""#
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "values": {"a": "b"}}]}]}"#,
      #"sections[0].rows[0].values: the screen has no "cell" for values to fill"#
    ),
    (
      #"{"title": "x", "cell": {"slots": [{"name": "i", "kind": "image"}]}, "sections": [{"rows": [{"text": "a", "values": {"i": "javascript:alert(1)"}}]}]}"#,
      "sections[0].rows[0].values.i: not an http, https or relative URL"
    ),
  ])
  func badCellsNameTheirPath(text: String, message: String) {
    let problem = importProblem(text)
    #expect(problem?.contains(message) == true, "\(problem ?? "accepted")")
  }

  @Test func cellsGoThroughImportTheWireAndExport() throws {
    let temporary = try TemporaryStore(json: Self.file)
    let snapshot = try temporary.store.snapshot(of: "M")
    #expect(snapshot.cell?.slots.map(\.name) == ["sender", "preview", "avatar"])
    #expect(
      snapshot.sections[0].rows[0].values == [
        "sender": "Ada", "preview": "<b>hi</b>", "avatar": "/a.png",
      ])
    #expect(snapshot.sections[0].rows[1].values.isEmpty)
    let screen = LoadedScreen(snapshot: snapshot, backTitle: nil, isEditing: false)
    #expect(try LoadedScreen(reading: FieldReader(screen.jsonValue, at: "screen")) == screen)
    #expect(!snapshot.sections[0].rows[1].jsonValue.serialized.contains("values"))
    let exported = try temporary.store.exportJSON()
    let again = try AppScreen(jsonText: exported)
    #expect(again.cell == snapshot.cell)
    #expect(again.sections[0].rows[0].values["preview"] == "<b>hi</b>")
  }

  @Test(arguments: [
    ("https://a/b.png", true), ("http://a", true), ("/x.png", true), ("x/y:z.png", true),
    ("JavaScript:alert(1)", false), ("data:image/png,1", false), ("file:///etc", false),
  ])
  func imageURLsAreChecked(url: String, allowed: Bool) {
    #expect(CellTemplate.isAllowedURL(url) == allowed)
  }
}
