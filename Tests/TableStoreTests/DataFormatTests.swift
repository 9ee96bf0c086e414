import StoreTestSupport
import TableModel
import Testing

@testable import TableDemo
@testable import TableStore

/// The data format: each rule, the path of the first problem, and round trips.
@Suite struct DataFormatTests {
  /// The error a file gets, as `path: message`.
  func problem(_ text: String) -> String? { importProblem(text) }

  @Test(arguments: [
    (#"[1]"#, "expected an object, found an array"),
    (#"{"title": "x", "sections": [{"rows": []}]"#, "not JSON"),
    (#"{"sections": [{"rows": []}]}"#, "title: missing (required)"),
    (#"{"title": 3, "sections": [{"rows": []}]}"#, "title: expected a string, found a number"),
    (#"{"title": "x"}"#, "sections: missing (required: at least one section)"),
    (#"{"title": "x", "sections": []}"#, "sections: at least one section is required"),
    (
      #"{"title": "x", "style": "fancy", "sections": [{"rows": []}]}"#,
      #"style: unknown style "fancy""#
    ),
    (
      #"{"title": "x", "selection": "some", "sections": [{"rows": []}]}"#,
      #"selection: unknown selection "some""#
    ),
    (
      #"{"title": "x", "editable": "yes", "sections": [{"rows": []}]}"#,
      "editable: expected true or false, found a string"
    ),
    (#"{"title": "x", "colour": "red", "sections": [{"rows": []}]}"#, "colour: unknown field"),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a"}]}, {"rows": 5}]}"#,
      "sections[1].rows: expected an array, found a number"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"detail": "a"}]}]}"#,
      "sections[0].rows[0].text: missing (required)"
    ),
    (
      #"{"title": "x", "sections": [{"rows": []}, {"rows": []}, {"rows": [{"text": "a"}, {"text": "b"}, {"text": "c"}, {"text": "d"}, {"text": "e"}, {"text": "f", "style": "value3"}]}]}"#,
      #"sections[2].rows[5].style: unknown style "value3""#
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "accessory": "chevron"}]}]}"#,
      #"sections[0].rows[0].accessory: unknown accessory "chevron""#
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "lines": -1}]}]}"#,
      "sections[0].rows[0].lines: expected a whole number of at least 0, found -1"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "lines": "2"}]}]}"#,
      "sections[0].rows[0].lines: expected a whole number of at least 0, found a string"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "switch": "on"}]}]}"#,
      "sections[0].rows[0].switch: expected true or false, found a string"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "image": 1}]}]}"#,
      "sections[0].rows[0].image: expected a string or null, found a number"
    ),
    (
      #"{"title": "x", "sections": [{"id": "a", "rows": [{"id": "a", "text": "a"}]}]}"#,
      #"sections[0].rows[0].id: duplicate id "a" (first used at sections[0].id)"#
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"id": "b", "text": "a"}]}, {"rows": [{"text": "c"}, {"id": "b", "text": "d"}]}]}"#,
      #"sections[1].rows[1].id: duplicate id "b" (first used at sections[0].rows[0].id)"#
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"id": "a", "text": 5}]}]}"#,
      "sections[0].rows[0].text: expected a string, found a number"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a"}, 5]}]}"#,
      "sections[0].rows[1]: expected an object, found a number"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "txet": "b"}]}]}"#,
      "sections[0].rows[0].txet: unknown field"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"id": 7, "text": "a"}]}]}"#,
      "sections[0].rows[0].id: expected a string or null, found a number"
    ),
    (#"{"id": "", "title": "x", "sections": [{"rows": []}]}"#, "id: an id cannot be empty"),
    (
      #"{"title": "x", "sections": [{"rows": [{"id": "r", "text": "a", "children": {"title": "y", "sections": [{"rows": [{"id": "r", "text": "b"}]}]}}]}]}"#,
      #"sections[0].rows[0].children.sections[0].rows[0].id: duplicate id "r""#
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "checked": true}]}]}"#,
      "sections[0].rows[0].checked: only rows of a selection list"
    ),
    (
      #"{"title": "x", "selection": "single", "sections": [{"rows": [{"text": "a", "checked": true}]}, {"rows": [{"text": "b", "checked": true}]}]}"#,
      "sections[1].rows[0].checked: a single-selection list has at most one checked row (sections[0].rows[0] is checked)"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "showWhen": {"row": "nope", "on": true}}]}]}"#,
      #"sections[0].rows[0].showWhen.row: "nope" is not the id of a switch row in this screen"#
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"id": "s", "text": "s"}, {"text": "a", "showWhen": {"row": "s", "on": true}}]}]}"#,
      #"sections[0].rows[1].showWhen.row: "s" is not the id of a switch row"#
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"id": "s", "text": "s", "switch": true, "children": {"title": "y", "sections": [{"rows": [{"text": "a", "showWhen": {"row": "s", "on": true}}]}]}}]}]}"#,
      #"sections[0].rows[0].children.sections[0].rows[0].showWhen.row: "s" is not the id of a switch row in this screen"#
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"id": "s", "text": "s", "switch": true, "showWhen": {"row": "s", "on": true}}]}]}"#,
      "showWhen rules form a cycle"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"id": "s", "text": "s", "switch": true, "showWhen": {"row": "s"}}]}]}"#,
      "sections[0].rows[0].showWhen.on: missing (required)"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "children": []}]}]}"#,
      "sections[0].rows[0].children: expected an object, found an array"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "children": {"title": "y", "sections": [{"rows": [{"text": "b", "style": "big"}]}]}}]}]}"#,
      #"sections[0].rows[0].children.sections[0].rows[0].style: unknown style "big""#
    ),
  ])
  func invalidFilesNameTheirFirstProblem(file: String, expected: String) throws {
    let found = try #require(problem(file))
    #expect(found.hasPrefix(expected) || found.contains(expected), "got \(found)")
  }

  @Test(arguments: StoreKind.allCases)

  func anInvalidFileLeavesTheDatabaseUntouched(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: CommandTests.file)
    let before = try temporary.store.exportJSON()
    let version = try temporary.store.version(of: "home")
    #expect(throws: StoreError.self) {
      try temporary.store.importJSON(
        #"{"title": "x", "sections": [{"rows": [{"text": "a", "style": "value3"}]}]}"#)
    }
    #expect(try temporary.store.exportJSON() == before)
    #expect(try temporary.store.version(of: "home") == version)
  }

  @Test(arguments: StoreKind.allCases)

  func indexedListsMayOmitSections(kind: StoreKind) throws {
    let screen = try AppScreen(jsonText: #"{"title": "People", "index": true}"#)
    #expect(screen.sections.isEmpty)
    let temporary = try TemporaryStore(kind: kind)
    try temporary.store.importApp(screen)
    let root = try temporary.store.rootList()
    _ = try temporary.store.snapshot(of: root)
  }

  @Test(arguments: StoreKind.allCases)

  func exportImportExportIsAFixedPoint(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: CommandTests.file)
    let store = temporary.store
    _ = try store.setSwitch("auto", in: "home", isOn: false)
    _ = try store.select("t2", in: "tones")
    _ = try store.insertRow(
      in: "tasks", section: "later", after: nil, NewRow(text: "New", style: .subtitle))
    let first = try store.exportJSON()
    try store.importJSON(first)
    let second = try store.exportJSON()
    #expect(first == second)
    // And the file holds what was changed, ids included.
    let screen = try AppScreen(jsonText: first)
    #expect(screen.id == "home")
    #expect(screen.sections[0].rows[3].isOn == false)
    #expect(first.contains(#""checked": true"#))
    // Re-importing keeps lists' versions growing, so clients that hold them reload.
    #expect(try store.version(of: "home") > 1)
  }

  @Test(arguments: StoreKind.allCases)

  func linesGoThroughImportTheStoreTheWireAndExport(kind: StoreKind) throws {
    let file = #"""
      {"id": "L", "title": "L", "sections": [{"id": "s", "rows": [
        {"id": "any", "text": "a", "lines": 0}, {"id": "three", "text": "b", "lines": 3},
        {"id": "one", "text": "c"}]}]}
      """#
    let temporary = try TemporaryStore(kind: kind, json: file)
    let exported = try temporary.store.exportJSON()
    let rows = try AppScreen(jsonText: exported).sections[0].rows
    #expect(rows.map(\.lines) == [0, 3, 1])
    #expect(!exported.contains(#""lines": 1"#))
    let wire = try temporary.store.snapshot(of: "L").sections[0].rows
    #expect(wire.map(\.lines) == [0, 3, 1])
    #expect(wire[0].jsonValue.serialized.contains(#""lines":0"#))
    #expect(try Row(json: wire[1].jsonValue) == wire[1])
    #expect(!wire[2].jsonValue.serialized.contains("lines"))
    let negative = wire[0].jsonValue.serialized.replacingOccurrences(
      of: #""lines":0"#, with: #""lines":-1"#)
    #expect(throws: ProtocolError.self) { try Row(json: JSONValue(parsing: negative)) }
  }

  @Test(arguments: StoreKind.allCases)

  func theDemoRoundTrips(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind)
    let store = try Store.openOrCreateDemo(path: temporary.path)
    let first = try store.exportJSON()
    try store.importJSON(first)
    #expect(try store.exportJSON() == first)
  }

  @Test(arguments: StoreKind.allCases)

  func generatedIdsAvoidTheFilesOwn(kind: StoreKind) throws {
    let temporary = try TemporaryStore(
      kind: kind,
      json:
        #"{"title": "x", "editable": true, "sections": [{"rows": [{"id": "R3", "text": "a"}, {"text": "b"}, {"text": "c"}]}]}"#
    )
    let snapshot = try temporary.store.snapshot(of: try temporary.store.rootList())
    let ids = snapshot.sections[0].rows.map(\.id) + [snapshot.list, snapshot.sections[0].id]
    #expect(Set(ids).count == ids.count)
  }
}
