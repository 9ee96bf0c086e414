import StoreTestSupport
import Testing

@testable import TableModel
@testable import TableStore

/// Row actions: the data format's `actions` (errors by path, export), the wire's
/// `screen.actions` and `action` command, and the store's built-in effects.
@Suite struct RowActionTests {
  static let file = #"""
    {"id": "L", "title": "L", "editable": true, "selection": "multiple",
     "actions": [
       {"id": "done", "title": "Done", "edge": "leading", "color": "green", "effect": "check"},
       {"id": "flag", "title": "Flag", "edge": "leading", "color": "orange", "effect": "flag"},
       {"id": "delete", "title": "Delete", "color": "red", "effect": "delete"}],
     "sections": [{"id": "s", "rows": [{"id": "a", "text": "A"}, {"id": "b", "text": "B"}]},
       {"rows": [{"text": "c", "children": {"id": "R", "title": "R", "actions": [
         {"id": "delete", "title": "Delete", "effect": "delete"}],
         "sections": [{"rows": [{"id": "r1", "text": "x"}]}]}}]}]}
    """#

  @Test(arguments: [
    (
      #"{"title": "x", "actions": {}, "sections": [{"rows": []}]}"#,
      "actions: expected an array, found an object"
    ),
    (
      #"{"title": "x", "actions": [{"title": "T", "effect": "check"}], "sections": [{"rows": []}]}"#,
      "actions[0].id: missing (required)"
    ),
    (
      #"{"title": "x", "actions": [{"id": "a", "title": "T"}], "sections": [{"rows": []}]}"#,
      "actions[0].effect: missing (required)"
    ),
    (
      #"{"title": "x", "actions": [{"id": "a", "title": "T", "effect": "pin"}], "sections": [{"rows": []}]}"#,
      #"actions[0].effect: unknown effect "pin""#
    ),
    (
      #"{"title": "x", "actions": [{"id": "a", "title": "T", "effect": "check", "color": "pink"}], "sections": [{"rows": []}]}"#,
      #"actions[0].color: unknown color "pink""#
    ),
    (
      #"{"title": "x", "actions": [{"id": "a", "title": "T", "effect": "check", "edge": "top"}], "sections": [{"rows": []}]}"#,
      #"actions[0].edge: unknown edge "top""#
    ),
    (
      #"{"title": "x", "actions": [{"id": "a", "title": "T", "effect": "check", "icon": "x"}], "sections": [{"rows": []}]}"#,
      "actions[0].icon: unknown field"
    ),
    (
      #"{"title": "x", "actions": [{"id": "a", "title": "T", "effect": "check"}, {"id": "a", "title": "U", "effect": "delete"}], "sections": [{"rows": []}]}"#,
      #"actions[1].id: duplicate action id "a""#
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "children": {"title": "y", "actions": [3], "sections": [{"rows": []}]}}]}]}"#,
      "sections[0].rows[0].children.actions[0]: expected an object, found a number"
    ),
  ])
  func badActionsNameTheirPath(text: String, message: String) {
    let problem = importProblem(text)
    #expect(problem?.contains(message) == true, "\(problem ?? "accepted")")
  }

  @Test func actionsGoThroughImportTheWireAndExport() throws {
    let temporary = try TemporaryStore(json: Self.file)
    let snapshot = try temporary.store.snapshot(of: "L")
    #expect(
      snapshot.actions == [
        RowAction(id: "done", title: "Done", edge: .leading, color: .green, effect: .check),
        RowAction(id: "flag", title: "Flag", edge: .leading, color: .orange, effect: .flag),
        RowAction(id: "delete", title: "Delete", edge: .trailing, color: .red, effect: .delete),
      ])
    let screen = LoadedScreen(snapshot: snapshot, backTitle: nil, isEditing: false)
    let text = screen.jsonValue.serialized
    // The built-in effect goes to clients too: the page shows it before the server answers.
    #expect(
      text.contains(
        #""actions":[{"id":"done","title":"Done","edge":"leading","color":"green","effect":"check"}"#
      ))
    let exported = try temporary.store.exportJSON()
    #expect(try AppScreen(jsonText: exported).actions == AppScreen(jsonText: Self.file).actions)
    #expect(try LoadedScreen(reading: FieldReader(screen.jsonValue, at: "screen")) == screen)
    #expect(try temporary.store.exportJSON() == exported)
    #expect(try temporary.store.snapshot(of: "R").actions.map(\.id) == ["delete"])
  }

  @Test func effectsCheckAndDeleteAndUnknownActionsAreRefused() throws {
    let temporary = try TemporaryStore(json: Self.file)
    let store = temporary.store
    let before = try store.version(of: "L")
    _ = try store.performAction("done", onRow: "a", in: "L")
    #expect(try store.snapshot(of: "L").sections[0].rows[0].accessory == .checkmark)
    _ = try store.performAction("done", onRow: "a", in: "L")
    #expect(try store.snapshot(of: "L").sections[0].rows[0].accessory == .none)
    _ = try store.performAction("delete", onRow: "b", in: "L")
    #expect(try store.snapshot(of: "L").sections[0].rows.map(\.id) == ["a"])
    #expect(try store.version(of: "L") == before + 3)
    // A flag: on the row, on the wire, in the export; the change is one update.
    let change = try store.performAction("flag", onRow: "a", in: "L")
    #expect(change.lists.first?.edits?.count == 1)
    let flagged = try store.snapshot(of: "L").sections[0].rows[0]
    #expect(flagged.isFlagged)
    #expect(flagged.jsonValue.serialized.hasSuffix(#","flagged":true}"#))
    #expect(try Row(json: flagged.jsonValue) == flagged)
    #expect(try store.exportJSON().contains(#""flagged": true"#))
    _ = try store.performAction("flag", onRow: "a", in: "L")
    #expect(
      try !store.snapshot(of: "L").sections[0].rows[0].jsonValue.serialized.contains("flagged"))
    // R has no flag action; its rows cannot be flagged through it.
    #expect(throws: StoreError.notFound("action flag in list R")) {
      try store.performAction("flag", onRow: "r1", in: "R")
    }
    // R is not editable: its delete effect is refused, and nothing changes.
    #expect(throws: StoreError.notAllowed("list R cannot be edited")) {
      try store.performAction("delete", onRow: "r1", in: "R")
    }
  }

  static let perRow = #"""
    {"id": "L", "title": "L", "editable": true,
     "actions": [
       {"id": "flag", "title": "Flag", "edge": "leading", "color": "orange", "effect": "flag"},
       {"id": "delete", "title": "Delete", "color": "red", "effect": "delete"}],
     "sections": [{"id": "s", "rows": [{"id": "a", "text": "A"},
       {"id": "b", "text": "B", "actions": ["delete"]}, {"id": "c", "text": "C", "actions": []}]}]}
    """#

  @Test(arguments: [
    (
      #"{"title": "x", "actions": [{"id": "f", "title": "F", "effect": "flag"}], "sections": [{"rows": [{"text": "a", "actions": ["f", "pin"]}]}]}"#,
      #"sections[0].rows[0].actions[1]: unknown action "pin" (the screen's: "f")"#
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "actions": ["f"]}]}]}"#,
      #"sections[0].rows[0].actions[0]: unknown action "f" (the screen's: none)"#
    ),
    (
      #"{"title": "x", "actions": [{"id": "f", "title": "F", "effect": "flag"}], "sections": [{"rows": [{"text": "a", "actions": ["f", "f"]}]}]}"#,
      #"sections[0].rows[0].actions[1]: duplicate action "f""#
    ),
    (
      #"{"title": "x", "actions": [{"id": "f", "title": "F", "effect": "flag"}], "sections": [{"rows": [{"text": "a", "actions": "f"}]}]}"#,
      "sections[0].rows[0].actions: expected an array of action ids, found a string"
    ),
    (
      #"{"title": "x", "actions": [{"id": "f", "title": "F", "effect": "flag"}], "sections": [{"rows": [{"text": "a", "actions": [1]}]}]}"#,
      "sections[0].rows[0].actions[0]: expected a string, found a number"
    ),
  ])
  func badRowActionsNameTheirPath(text: String, message: String) {
    let problem = importProblem(text)
    #expect(problem?.contains(message) == true, "\(problem ?? "accepted")")
  }

  /// A row's own `actions`: stored (schema 7), on the wire only when set, exported as
  /// imported, and an action the row does not offer refused, on both stores.
  @Test(arguments: StoreKind.allCases)
  func aRowOffersItsOwnActions(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.perRow)
    let store = temporary.store
    let rows = try store.snapshot(of: "L").sections[0].rows
    #expect(rows.map(\.actions) == [nil, ["delete"], []])
    #expect(!rows[0].jsonValue.serialized.contains("actions"))
    #expect(rows[1].jsonValue.serialized.hasSuffix(#","actions":["delete"]}"#))
    #expect(rows[2].jsonValue.serialized.hasSuffix(#","actions":[]}"#))
    #expect(try rows.map { try Row(json: $0.jsonValue) } == rows)
    let exported = try store.exportJSON()
    #expect(try AppScreen(jsonText: exported) == AppScreen(jsonText: Self.perRow))
    #expect(try TemporaryStore(kind: kind, json: exported).store.exportJSON() == exported)
    #expect(throws: StoreError.notAllowed("row b does not offer action flag")) {
      try store.performAction("flag", onRow: "b", in: "L")
    }
    #expect(throws: StoreError.notAllowed("row c does not offer action delete")) {
      try store.performAction("delete", onRow: "c", in: "L")
    }
    _ = try store.performAction("flag", onRow: "a", in: "L")
    // Flagging a row and deleting another leave the rows' own actions as they were.
    _ = try store.performAction("delete", onRow: "b", in: "L")
    #expect(try store.snapshot(of: "L").sections[0].rows.map(\.id) == ["a", "c"])
    #expect(try store.snapshot(of: "L").sections[0].rows.map(\.actions) == [nil, []])
  }

  @Test func theActionCommandRoundTrips() throws {
    let message = ClientMessage.action(list: "L7", row: "R5", action: "flag")
    let text = message.serialized(ref: 3)
    #expect(text == #"{"type":"action","ref":3,"list":"L7","row":"R5","action":"flag"}"#)
    #expect(try ClientMessage.decode(text).result.get() == message)
    #expect(message.isWrite)
    #expect(throws: ProtocolError.self) {
      try ClientMessage.decode(#"{"type":"action","list":"L7","row":"R5"}"#).result.get()
    }
  }
}
