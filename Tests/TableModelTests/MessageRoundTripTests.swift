import Testing

@testable import TableModel

/// Every message, encoded and decoded again, is the message it was.

private let plain = Row(id: "R1", text: "Plain")
private let full = Row(
  id: "R2", style: .subtitle, text: "Everything \"quoted\" \\ ✓", detail: "Detail\nline",
  image: "/img/x.png", accessory: .detailDisclosureButton, control: .switch(isOn: false),
  editingStyle: .insert, isMovable: true, isSelectable: false)

private let clientMessages: [ClientMessage] = [
  .hello(session: nil),
  .hello(session: "token", client: "tableweb-cli/1"),
  .hello(session: nil, name: "Ann"),
  .activity(list: "L1", row: "R1", kind: .swiping),
  .activity(list: "L1", row: nil, kind: .editing),
  .activity(list: "L1", row: nil, kind: nil),
  .tap(list: "L1", row: "R1"),
  .tap(list: "L1", row: "R1", scrollAnchor: "R0"),
  .accessory(list: "L1", row: "R1"),
  .accessory(list: "L1", row: "R1", scrollAnchor: "R9"),
  .back,
  .editing(isOn: true),
  .editing(isOn: false),
  .delete(list: "L1", rows: ["R1"]),
  .delete(list: "L1", rows: ["R1", "R2", "R3"]),
  .insert(list: "L1", section: "S1", after: nil, row: NewRow(text: "A")),
  .insert(
    list: "L1", section: "S1", after: "R1", row: NewRow(text: "B", detail: "b", style: .value2)),
  .move(list: "L1", row: "R1", section: "S2", after: nil),
  .move(list: "L1", row: "R1", section: "S2", after: "R7"),
  .toggle(list: "L1", row: "R1", isOn: true),
  .update(list: "L1", row: "R1", edit: RowUpdate()),
  .update(list: "L1", row: "R1", edit: RowUpdate(text: "T")),
  .update(list: "L1", row: "R1", edit: RowUpdate(detail: .some(nil))),
  .update(list: "L1", row: "R1", edit: RowUpdate(text: "T", detail: "D")),
  .update(list: "L1", row: "R1", edit: RowUpdate(flagged: false, values: ["a": "b", "c": ""])),
  .fetch(list: "L1", section: "S1", from: 0, count: 1),
  .fetch(list: "L1", section: "S1", from: 300, count: 100),
  .reload,
  .search(list: "L1", query: "Café crème"),
  .search(list: "L1", query: ""),
  .action(list: "L7", row: "R5", action: "flag"),
  .layout(split: true),
  .layout(split: false),
  .history(list: "L7", before: nil, count: 50),
  .history(list: "L7", before: 812, count: 200),
  .undo,
  .redo,
]

private let screen = LoadedScreen(
  list: "L9", version: 3, title: "Fruit", backTitle: "Food", style: .insetGrouped,
  isEditing: true, isEditable: true, selection: .single, indexTitles: ["A", "B", "#"],
  header: "Header", footer: "Footer",
  sections: [
    LoadedSection(id: "S1", header: "H", footer: "F", count: 2, rows: [plain, full]),
    LoadedSection(id: "S2", header: nil, footer: nil, count: 1000, rows: [plain]),
    LoadedSection(id: "S3", header: nil, footer: nil, count: 0, rows: []),
  ])

private let serverMessages: [ServerMessage] = [
  .welcome(session: "abc", resumed: false),
  .welcome(session: "abc", resumed: true),
  .screen(ScreenMessage(transition: .none, stack: ["Fruit"], screen: screen)),
  .screen(
    ScreenMessage(
      transition: .none, stack: ["Fruit"],
      screen: LoadedScreen(list: "L9", version: 3, title: "Fruit", isSearchable: true, search: "pé")
    )),
  .screen(ScreenMessage(transition: .push, stack: ["Food", "Fruit"], screen: screen)),
  .screen(
    ScreenMessage(
      transition: .pop, stack: ["Food", "Fruit"], screen: screen, scrollAnchor: "R2",
      selectedRow: "R1")),
  .screen(
    ScreenMessage(
      transition: .none, stack: ["Food", "Fruit"], screen: screen,
      sidebar: .init(screen: LoadedScreen(list: "L8", version: 1, title: "Food"), selectedRow: "R9")
    )),
  .screen(
    ScreenMessage(
      transition: .push, stack: ["Food", "Fruit"], screen: screen,
      sidebar: .init(screen: LoadedScreen(list: "L8", version: 1, title: "Food"), selectedRow: nil))
  ),
  .screen(
    ScreenMessage(
      transition: .none, stack: ["Empty"],
      screen: LoadedScreen(list: "L0", version: 0, title: "Empty"))),
  .diff(TableDiff(list: "L1", from: 0, ops: [])),
  .diff(
    TableDiff(
      list: "L1", from: 41,
      ops: [
        .delete(at: TableIndexPath(row: 0, section: 0)),
        .insert(at: TableIndexPath(row: 2, section: 1), row: full),
        .move(from: TableIndexPath(row: 3, section: 0), to: TableIndexPath(row: 0, section: 2)),
        .update(at: TableIndexPath(row: 1, section: 1), row: plain),
        .deleteSection(at: 4),
        .insertSection(
          at: 0, section: Section(id: "S7", header: "New", footer: "Section", rows: [plain, full])),
        .insertSection(at: 1, section: Section(id: "S8")),
        .updateSection(at: 2, header: nil, footer: "Only a footer"),
        .updateSection(at: 3, header: "Only a header", footer: nil),
      ])),
  .rows(RowsMessage(list: "L1", version: 5, section: 2, from: 300, rows: [plain, full])),
  .rows(RowsMessage(list: "L1", version: 5, section: 0, from: 0, rows: [])),
  .ack(ref: 0, version: nil),
  .ack(ref: 12, version: 99),
  .error(ref: nil, ProtocolError(.badJSON, "not JSON")),
  .error(ref: 3, ProtocolError(.notFound, "row \"R1\" no longer exists")),
  .notice(text: "The list was deleted."),
  .history(
    HistoryMessage(
      list: "L7",
      entries: [
        HistoryEntry(
          id: 9, version: 4, at: 1_764_103_507, author: "Ann", kind: .update, rows: ["R1"],
          summary: #"Ann renamed "Milk" to "Oat milk""#)
      ], more: false, live: true)),
  .presence(
    Presence(
      list: "L1",
      viewers: [
        Presence.Viewer(name: "Ann", role: .editor, isYou: true),
        Presence.Viewer(name: "Guest 2", role: .viewer, row: "R1", activity: .moving),
      ], count: 3)),
  .unknown(type: "cursor"),
]

@Suite struct MessageRoundTripTests {
  @Test(arguments: clientMessages)
  func clientMessageRoundTrips(_ message: ClientMessage) {
    for ref in [nil, 0, 42, -1, 9_007_199_254_740_991] as [Int?] {
      let (decodedRef, result) = ClientMessage.decode(message.serialized(ref: ref))
      #expect(decodedRef == ref)
      #expect(result == .success(message))
    }
  }

  @Test func everyClientMessageKindIsCovered() {
    #expect(Set(clientMessages.map(\.kind)) == Set(ClientMessage.Kind.allCases))
  }

  @Test(arguments: serverMessages)
  func serverMessageRoundTrips(_ message: ServerMessage) {
    #expect(ServerMessage.decode(message.serialized) == .success(message))
    #expect(ServerMessage.decode(message.jsonValue) == .success(message))
  }

  @Test func everyServerMessageKindIsCovered() {
    #expect(
      Set(serverMessages.map(\.typeName))
        == Set(ServerMessage.Kind.allCases.map(\.rawValue) + ["cursor"]))
  }

  @Test func extensionsAreLeftOutWhenTheyHaveNoValue() {
    #expect(ClientMessage.hello(session: nil).serialized() == #"{"type":"hello","session":null}"#)
    #expect(
      ClientMessage.tap(list: "L1", row: "R1", scrollAnchor: "R0").serialized()
        == #"{"type":"tap","list":"L1","row":"R1","scroll":"R0"}"#)
    #expect(
      ClientMessage.insert(
        list: "L", section: "S", after: nil, row: NewRow(text: "x", style: .value1)
      ).serialized()
        == #"{"type":"insert","list":"L","section":"S","after":null,"row":{"text":"x","detail":null,"style":"value1"}}"#
    )
    let message = ScreenMessage(
      transition: .pop, stack: ["A"], screen: LoadedScreen(list: "L", version: 1, title: "A"))
    #expect(!ServerMessage.screen(message).serialized.contains("scroll"))
    #expect(!ServerMessage.screen(message).serialized.contains("selected"))
  }
}

@Suite struct LoadedScreenTests {
  @Test func aScreenSendsTheFirstRowLimitRowsOfEachSectionAndTheirCount() {
    let rows = (0..<5).map { Row(id: "R\($0)", text: "Row \($0)") }
    let snapshot = TableSnapshot(
      list: "L1", version: 7, title: "Numbers", style: .grouped, selection: .single,
      isEditable: true, indexTitles: ["1"], header: "h", footer: "f",
      sections: [
        Section(id: "S1", header: "Long", rows: rows),
        Section(id: "S2", footer: "Short", rows: Array(rows.prefix(2))),
      ])
    let loaded = LoadedScreen(
      snapshot: snapshot, backTitle: "Back", isEditing: true, rowLimit: 3)
    #expect(
      loaded
        == LoadedScreen(
          list: "L1", version: 7, title: "Numbers", backTitle: "Back", style: .grouped,
          isEditing: true, isEditable: true, selection: .single, indexTitles: ["1"],
          header: "h", footer: "f",
          sections: [
            LoadedSection(
              id: "S1", header: "Long", footer: nil, count: 5, rows: Array(rows.prefix(3))),
            LoadedSection(
              id: "S2", header: nil, footer: "Short", count: 2, rows: Array(rows.prefix(2))),
          ]))
    #expect(!loaded.sections[0].isComplete)
    #expect(loaded.sections[1].isComplete)
  }

  @Test func depthIsTheNumberOfLevelsAboveTheRoot() {
    let screen = LoadedScreen(list: "L", version: 1, title: "C")
    #expect(ScreenMessage(transition: .none, stack: ["C"], screen: screen).depth == 0)
    #expect(ScreenMessage(transition: .push, stack: ["A", "B", "C"], screen: screen).depth == 2)
  }
}
