import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// Each command: what it returns, the version it bumps, and what it refuses.
@Suite struct CommandTests {
  static let file = """
    {"id": "home", "title": "Home", "style": "grouped", "sections": [
      {"id": "home-s", "rows": [
        {"id": "ring", "text": "Ringtone", "style": "value1", "children":
          {"id": "tones", "title": "Ringtone", "selection": "single", "sections": [{"id": "tones-s", "rows": [
            {"id": "t1", "text": "Marimba", "checked": true}, {"id": "t2", "text": "Radar"}]}]}},
        {"id": "named", "text": "Named", "detail": "own detail", "children":
          {"id": "named-list", "title": "Named", "selection": "single", "sections": [{"rows": [
            {"id": "n1", "text": "One", "checked": true}, {"id": "n2", "text": "Two"}]}]}},
        {"id": "tasks-row", "text": "Tasks", "children":
          {"id": "tasks", "title": "Tasks", "editable": true, "selection": "multiple", "sections": [
            {"id": "today", "rows": [
              {"id": "k1", "text": "Write", "checked": true},
              {"id": "k2", "text": "Test", "children": {"id": "k2-list", "title": "Test", "sections": [
                {"rows": [{"id": "deep", "text": "Deep", "children": {"id": "deeper", "title": "Deeper", "sections": [{"rows": []}]}}]}]}},
              {"id": "k3", "text": "Ship"}]},
            {"id": "later", "rows": []}]}},
        {"id": "auto", "text": "Set Automatically", "switch": true},
        {"id": "zone", "text": "Time Zone", "showWhen": {"row": "auto", "on": false}},
        {"id": "manual", "text": "Set Date & Time", "showWhen": {"row": "auto", "on": false}}
      ]}]}
    """

  func makeStore(_ kind: StoreKind) throws -> TemporaryStore {
    try TemporaryStore(kind: kind, json: CommandTests.file)
  }

  /// Applies `change` to `before` and checks the result against a fresh snapshot.
  func expectEditsReproduce(
    _ store: Store, _ before: TableSnapshot, _ change: TableChange.ListChange?
  ) throws {
    let change = try #require(change)
    #expect(change.version == before.version + 1)
    var after = before
    try after.apply(try #require(change.edits))
    after.version = change.version
    #expect(after == (try store.snapshot(of: before.list)))
  }

  @Test(arguments: StoreKind.allCases)

  func rowsShowTheProtocolsFields(kind: StoreKind) throws {
    let temporary = try makeStore(kind)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let home = try store.snapshot(of: "home")
    let rows = home.sections[0].rows
    #expect(rows.map(\.id) == ["ring", "named", "tasks-row", "auto"])
    #expect(rows[0].detail == "Marimba")  // borrowed from the single-selection child
    #expect(rows[0].accessory == .disclosureIndicator)
    #expect(rows[1].detail == "own detail")
    #expect(rows[3].control == .switch(isOn: true))
    #expect(rows[3].accessory == .none)
    #expect(rows[3].isSelectable == false)
    #expect(rows[0].editingStyle == .none && !rows[0].isMovable)
    let tones = try store.snapshot(of: "tones")
    #expect(tones.sections[0].rows.map(\.accessory) == [.checkmark, .none])
    let tasks = try store.snapshot(of: "tasks")
    #expect(tasks.sections[0].rows.allSatisfy { $0.editingStyle == .delete && $0.isMovable })
    #expect(try store.childList(ofRow: "ring", in: "home") == "tones")
    #expect(try store.childList(ofRow: "auto", in: "home") == nil)
    #expect(try store.parentRow(of: "tones")! == ("home", "ring"))
    #expect(try store.parentRow(of: "home") == nil)
    #expect(try store.rootList() == "home")
    #expect(try store.listExists("tasks") && !(try store.listExists("nope")))
  }

  @Test(arguments: StoreKind.allCases)

  func singleSelectionMovesTheCheckmarkAndTheParentsDetailFollows(kind: StoreKind) throws {
    let temporary = try makeStore(kind)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let tones = try store.snapshot(of: "tones")
    let home = try store.snapshot(of: "home")
    let change = try store.select("t2", in: "tones")
    #expect(change.lists.map(\.list) == ["tones", "home"])
    try expectEditsReproduce(store, tones, change.change(of: "tones"))
    try expectEditsReproduce(store, home, change.change(of: "home"))
    #expect(try store.snapshot(of: "home").sections[0].rows[0].detail == "Radar")
    // Picking the checked option again changes nothing.
    #expect(try store.select("t2", in: "tones").isEmpty)
    #expect(try store.version(of: "tones") == tones.version + 1)
    // A parent row with its own detail is not changed.
    let other = try store.select("n2", in: "named-list")
    #expect(other.lists.map(\.list) == ["named-list"])
  }

  @Test(arguments: StoreKind.allCases)

  func multipleSelectionToggles(kind: StoreKind) throws {
    let temporary = try makeStore(kind)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let before = try store.snapshot(of: "tasks")
    let change = try store.select("k1", in: "tasks")
    try expectEditsReproduce(store, before, change.lists.first)
    #expect(try store.snapshot(of: "tasks").sections[0].rows[0].accessory == .none)
    #expect(throws: StoreError.self) { try store.select("auto", in: "home") }
  }

  @Test(arguments: StoreKind.allCases)

  func switchesRevealAndHideRows(kind: StoreKind) throws {
    let temporary = try makeStore(kind)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    var before = try store.snapshot(of: "home")
    var change = try store.setSwitch("auto", in: "home", isOn: false)
    try expectEditsReproduce(store, before, change.lists.first)
    #expect(
      try store.snapshot(of: "home").sections[0].rows.map(\.id).suffix(3) == [
        "auto", "zone", "manual",
      ])
    #expect(try store.setSwitch("auto", in: "home", isOn: false).isEmpty)
    before = try store.snapshot(of: "home")
    change = try store.setSwitch("auto", in: "home", isOn: true)
    try expectEditsReproduce(store, before, change.lists.first)
    #expect(change.lists[0].edits?.contains(.delete(row: "zone")) == true)
    #expect(throws: StoreError.notAllowed("row ring has no switch")) {
      try store.setSwitch("ring", in: "home", isOn: true)
    }
    // A hidden row cannot be named.
    #expect(throws: StoreError.notFound("row zone in list home")) {
      try store.select("zone", in: "home")
    }
  }

  @Test(arguments: StoreKind.allCases)

  func insertMoveUpdateDelete(kind: StoreKind) throws {
    let temporary = try makeStore(kind)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    var before = try store.snapshot(of: "tasks")
    var change = try store.insertRow(
      in: "tasks", section: "later", after: nil, NewRow(text: "Plan", detail: "soon"))
    try expectEditsReproduce(store, before, change.lists.first)

    before = try store.snapshot(of: "tasks")
    change = try store.moveRow("k3", in: "tasks", toSection: "today", after: nil)
    try expectEditsReproduce(store, before, change.lists.first)
    #expect(try store.snapshot(of: "tasks").sections[0].rows.map(\.id) == ["k3", "k1", "k2"])
    #expect(try store.moveRow("k3", in: "tasks", toSection: "today", after: nil).isEmpty)

    before = try store.snapshot(of: "tasks")
    change = try store.updateRow("k1", in: "tasks", text: "Write more", detail: .some("today"))
    try expectEditsReproduce(store, before, change.lists.first)
    before = try store.snapshot(of: "tasks")
    change = try store.updateRow("k1", in: "tasks", text: nil, detail: .some(nil))
    try expectEditsReproduce(store, before, change.lists.first)
    #expect(try store.snapshot(of: "tasks").sections[0].rows[1].detail == nil)

    // A row with children takes its subtree.
    before = try store.snapshot(of: "tasks")
    change = try store.deleteRows(["k2"], in: "tasks")
    try expectEditsReproduce(store, before, change.lists.first)
    #expect(change.removedLists == ["k2-list", "deeper"])
    #expect(!(try store.listExists("deeper")))
  }

  @Test(arguments: StoreKind.allCases)

  func refusals(kind: StoreKind) throws {
    let temporary = try makeStore(kind)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let version = try store.version(of: "home")
    #expect(throws: StoreError.notAllowed("list home is not editable")) {
      try store.insertRow(in: "home", section: "home-s", after: nil, NewRow(text: "x"))
    }
    #expect(throws: StoreError.notAllowed("list home is not editable")) {
      try store.deleteRows(["ring"], in: "home")
    }
    #expect(throws: StoreError.notFound("list nope")) { try store.snapshot(of: "nope") }
    #expect(throws: StoreError.notFound("section nope in list tasks")) {
      try store.insertRow(in: "tasks", section: "nope", after: nil, NewRow(text: "x"))
    }
    #expect(throws: StoreError.notFound("row t1 in list tasks")) {
      try store.deleteRows(["k1", "t1"], in: "tasks")
    }
    #expect(throws: StoreError.notFound("row k1 in section later")) {
      try store.insertRow(in: "tasks", section: "later", after: "k1", NewRow(text: "x"))
    }
    // A refused command in a batch leaves nothing half done.
    #expect(try store.snapshot(of: "tasks").sections[0].rows.count == 3)
    #expect(try store.version(of: "home") == version)
    #expect(StoreError.notFound("row x").protocolError.code == .notFound)
    #expect(StoreError.readOnly("x").protocolError.code == .notAllowed)
    #expect(
      StoreError.sqlite(code: 13, message: "full", sql: "INSERT").protocolError.code == .internal)
  }

  @Test(arguments: StoreKind.allCases)

  func indexedListsSortIntoLetterSections(kind: StoreKind) throws {
    let temporary = try TemporaryStore(
      kind: kind,
      json: """
        {"id": "people", "title": "People", "index": true, "editable": true, "sections": [{"id": "all", "rows": [
          {"id": "p1", "text": "Émile"}, {"id": "p2", "text": "anna"}, {"id": "p3", "text": "Bob"}, {"id": "p4", "text": "42"}]}]}
        """
    )
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    var before = try store.snapshot(of: "people")
    #expect(before.indexTitles?.first == "A" && before.indexTitles?.last == "#")
    #expect(before.sections[0].rows.map(\.text) == ["anna"])
    #expect(before.sections[4].rows.map(\.text) == ["Émile"])
    #expect(before.sections[26].rows.map(\.text) == ["42"])
    #expect(before.sections[0].rows[0].isMovable == false)
    var change = try store.insertRow(
      in: "people", section: "people:A", after: nil, NewRow(text: "Bea"))
    try expectEditsReproduce(store, before, change.lists.first)
    #expect(try store.snapshot(of: "people").sections[1].rows.map(\.text) == ["Bea", "Bob"])
    before = try store.snapshot(of: "people")
    change = try store.updateRow("p2", in: "people", text: "Zed", detail: nil)
    try expectEditsReproduce(store, before, change.lists.first)
    #expect(
      try store.rows(of: "people", section: "people:Z", from: 0, count: 5).map(\.text) == ["Zed"])
    #expect(throws: StoreError.notFound("section tasks in list people")) {
      try store.insertRow(in: "people", section: "tasks", after: nil, NewRow(text: "x"))
    }
    #expect(throws: StoreError.notAllowed("list people is sorted by its index")) {
      try store.moveRow("p3", in: "people", toSection: "people:B", after: nil)
    }
  }

  @Test(arguments: StoreKind.allCases)

  func twoConnectionsNeverHandOutTheSameId(kind: StoreKind) throws {
    let temporary = try makeStore(kind)
    let other = try Store(path: temporary.path)
    var ids = Set<String>()
    for index in 0..<600 {
      let store = index % 3 == 0 ? other : temporary.store
      let change = try store.insertRow(
        in: "tasks", section: "later", after: nil, NewRow(text: "\(index)"))
      guard case .insert(let row, _, _)? = change.lists.first?.edits?.first else { return }
      #expect(ids.insert(row.id).inserted, "\(row.id) handed out twice")
    }
    #expect(try other.snapshot(of: "tasks").sections[1].rows.count == 600)
  }

  @Test(arguments: StoreKind.allCases)

  func sessionsSurviveReopening(kind: StoreKind) throws {
    let temporary = try makeStore(kind)
    var stack = NavigationStack(root: NavigationLevel(list: "home", title: "Home"))
    stack.push(
      NavigationLevel(list: "tones", title: "Ringtone", isEditing: true, scrollAnchor: "t2"),
      from: "ring")
    try temporary.store.saveSession(token: "abc", stack: stack)
    let reopened = try Store(path: temporary.path)
    #expect(try reopened.loadSession(token: "abc") == stack)
    #expect(try reopened.loadSession(token: "other") == nil)
  }
}
