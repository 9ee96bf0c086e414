import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// Windows of long sections: the same rows as the snapshot, read without scanning.
@Suite struct WindowTests {
  /// A section of `count` rows, every seventh shown only while the switch is on.
  static func file(count: Int) -> String {
    let rows = (0..<count).map { index in
      index % 7 == 3
        ? #"{"id": "r\#(index)", "text": "Row \#(index)", "showWhen": {"row": "sw", "on": true}}"#
        : #"{"id": "r\#(index)", "text": "Row \#(index)"}"#
    }
    return """
      {"id": "long", "title": "Long", "editable": true, "sections": [
        {"id": "top", "rows": [{"id": "sw", "text": "Show all", "switch": false}]},
        {"id": "all", "rows": [\(rows.joined(separator: ","))]}]}
      """
  }

  @Test(arguments: StoreKind.allCases)

  func everyWindowMatchesTheSnapshot(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind)
    let store = temporary.store
    store.blockCapacity = 16
    try store.importJSON(WindowTests.file(count: 3_000))
    for isOn in [false, true] {
      if isOn {
        // The revealed rows sit in many blocks, some made by splits after the rest: the
        // edits still insert each after a row that is already there.
        var before = try store.snapshot(of: "long")
        let change = try store.setSwitch("sw", in: "long", isOn: true)
        try before.apply(try #require(change.lists[0].edits))
        before.version += 1
        #expect(before == (try store.snapshot(of: "long")))
      }
      // Some inserts and moves, so that blocks split and hold hidden rows unevenly.
      for index in stride(from: 0, to: 2_900, by: 97) where index % 7 != 3 && (index + 1) % 7 != 3 {
        _ = try store.insertRow(
          in: "long", section: "all", after: "r\(index)", NewRow(text: "Extra \(index)"))
        _ = try store.moveRow("r\(index + 1)", in: "long", toSection: "all", after: nil)
      }
      let rows = try store.snapshot(of: "long").sections[1].rows
      #expect(try store.sectionCounts(of: "long")[1].count == rows.count)
      for from in stride(from: 0, through: rows.count + 5, by: 37) {
        for count in [1, 16, 100] {
          let window = try store.rows(of: "long", section: "all", from: from, count: count)
          #expect(
            window == Array(rows.dropFirst(from).prefix(count)),
            "window \(from)+\(count), on: \(isOn)")
        }
      }
    }
  }

  /// Inserting again and again at one place exhausts the gaps between rows and between
  /// blocks; both are renumbered and the order survives.
  @Test(arguments: StoreKind.allCases)
  func repeatedInsertsAtOnePlaceRenumber(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind)
    let store = temporary.store
    store.blockCapacity = 4
    try store.importJSON(
      #"{"id": "L", "title": "L", "editable": true, "sections": [{"id": "S", "rows": [{"id": "a", "text": "a"}, {"id": "z", "text": "z"}]}]}"#
    )
    var expected = ["a", "z"]
    for index in 0..<200 {
      let change = try store.insertRow(in: "L", section: "S", after: "a", NewRow(text: "n\(index)"))
      guard case .insert(let row, _, _)? = change.lists.first?.edits?.first else { return }
      expected.insert(row.id, at: 1)
    }
    for index in 0..<50 {
      let change = try store.insertRow(in: "L", section: "S", after: nil, NewRow(text: "f\(index)"))
      guard case .insert(let row, _, _)? = change.lists.first?.edits?.first else { return }
      expected.insert(row.id, at: 0)
    }
    let rows = try store.snapshot(of: "L").sections[0].rows
    #expect(rows.map(\.id) == expected)
    for from in stride(from: 0, to: rows.count, by: 7) {
      #expect(
        try store.rows(of: "L", section: "S", from: from, count: 9)
          == Array(rows.dropFirst(from).prefix(9)))
    }
    let blocks = try #require(try store.fetchInt("SELECT count(*) FROM block"))
    #expect(blocks >= 250 / 4)
    let distinct = try store.fetchInt("SELECT count(DISTINCT pos) FROM block")
    #expect(distinct == blocks)
  }

  /// Hidden rows moved into a block made by a later split (a higher block id, an earlier
  /// position) are revealed in list order, each after one already there.
  @Test(arguments: StoreKind.allCases)
  func revealedRowsComeInListOrder(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind)
    let store = temporary.store
    store.blockCapacity = 8
    let hidden = (1...40).map {
      #"{"id": "h\#($0)", "text": "h\#($0)", "showWhen": {"row": "sw", "on": true}}"#
    }
    try store.importJSON(
      #"{"id": "L", "title": "L", "editable": true, "sections": [{"id": "S", "rows": [{"id": "sw", "text": "sw", "switch": false}, \#(hidden.joined(separator: ",")), {"id": "z", "text": "z"}]}]}"#
    )
    for index in 0..<30 {
      _ = try store.insertRow(in: "L", section: "S", after: "sw", NewRow(text: "n\(index)"))
    }
    var before = try store.snapshot(of: "L")
    let change = try store.setSwitch("sw", in: "L", isOn: true)
    try before.apply(try #require(change.lists[0].edits))
    before.version += 1
    let after = try store.snapshot(of: "L")
    #expect(before == after)
    #expect(after.sections[0].rows.suffix(41).map(\.id) == (1...40).map { "h\($0)" } + ["z"])
  }

  /// The statements a window read runs search indexes; none scans a table or the list.
  @Test func windowStatementsSearchIndexes() throws {
    let temporary = try TemporaryStore(json: WindowTests.file(count: 100))
    let statements = [
      "SELECT pos, count FROM block WHERE section_id = ? ORDER BY pos",
      "SELECT pos, count FROM block WHERE section_id = ? ORDER BY pos DESC",
      "SELECT id, count FROM block WHERE section_id = ? AND pos >= ? ORDER BY pos",
      Store.rowSelect + " WHERE r.block_id = ? AND r.visible ORDER BY r.pos LIMIT ? OFFSET ?",
      "SELECT pos FROM row WHERE block_id = ? AND pos > ? ORDER BY pos LIMIT 1",
    ]
    for sql in statements {
      let plan = try temporary.store.sqlite.fetchAll(
        "EXPLAIN QUERY PLAN " + sql, Array(repeating: 1, count: sql.filter { $0 == "?" }.count)
      ) {
        $0.string(3)
      }
      #expect(!plan.isEmpty)
      #expect(
        plan.allSatisfy { !$0.hasPrefix("SCAN") && !$0.contains("TEMP B-TREE") }, "\(sql): \(plan)")
    }
  }
}
