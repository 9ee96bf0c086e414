import Testing

@testable import TableModel

/// A client's screen follows diffs and fetched rows, also when it holds only the first
/// rows of its sections.

private func row(_ id: String, _ text: String? = nil) -> Row { Row(id: id, text: text ?? id) }

private func section(_ id: String, _ rows: [String], count: Int? = nil) -> LoadedSection {
  LoadedSection(
    id: id, header: nil, footer: nil, count: count ?? rows.count, rows: rows.map { row($0) })
}

private func screen(version: Int = 12, _ sections: [LoadedSection]) -> LoadedScreen {
  LoadedScreen(list: "L7", version: version, title: "T", sections: sections)
}

/// The row ids of each section, and its count when more than its loaded rows.
private func shape(_ screen: LoadedScreen) -> [String] {
  screen.sections.map { section in
    let ids = section.rows.map(\.id).joined(separator: " ")
    let more = section.isComplete ? "" : " …\(section.count)"
    return "\(section.id): \(ids)\(more)"
  }
}

private func at(_ section: Int, _ row: Int) -> TableIndexPath {
  TableIndexPath(row: row, section: section)
}

@Suite struct LoadedScreenDiffTests {
  @Test func theDocumentsExampleDiff() throws {
    var shown = screen([
      section("A", ["a0", "a1", "a2", "a3", "a4", "a5"]), section("B", ["b0", "b1", "b2"]),
      section("C", ["c0"]), section("D", ["d0"]),
    ])
    let diff = TableDiff(
      list: "L7", from: 12,
      ops: [
        .delete(at: at(0, 0)), .delete(at: at(0, 3)), .delete(at: at(1, 1)),
        .insert(at: at(0, 1), row: row("x")),
        .move(from: at(0, 5), to: at(1, 0)),
        .update(at: at(1, 2), row: row("b2", "new")),
        .deleteSection(at: 2),
        .insertSection(at: 3, section: Section(id: "E", rows: [row("e0")])),
        .updateSection(at: 0, header: "H", footer: nil),
      ])
    #expect(try shown.apply(diff) == .applied)
    #expect(shape(shown) == ["A: a1 x a2 a4", "B: a5 b0 b2", "D: d0", "E: e0"])
    #expect(shown.sections[1].rows[2].text == "new")
    #expect(shown.sections[0].header == "H")
    #expect(shown.version == 13)
  }

  @Test func diffsForOtherListsOrOlderVersionsAreSkipped() throws {
    var shown = screen([section("A", ["a0"])])
    let before = shown
    #expect(
      try shown.apply(TableDiff(list: "L8", from: 12, ops: [.delete(at: at(0, 0))])) == .skipped)
    #expect(
      try shown.apply(TableDiff(list: "L7", from: 11, ops: [.delete(at: at(0, 0))])) == .skipped)
    #expect(shown == before)
  }

  @Test func aDiffFromALaterVersionIsAGap() throws {
    var shown = screen([section("A", ["a0"])])
    #expect(try shown.apply(TableDiff(list: "L7", from: 13, ops: [])) == .gap)
    #expect(shown.version == 12)
  }

  @Test func anEmptyDiffStillMovesTheVersionOn() throws {
    var shown = screen([section("A", ["a0"])])
    #expect(try shown.apply(TableDiff(list: "L7", from: 12, ops: [])) == .applied)
    #expect(shown.version == 13)
  }

  @Test func changesPastThePrefixOnlyChangeTheCount() throws {
    var shown = screen([section("A", ["a0", "a1"], count: 10)])
    try #require(
      try shown.apply(
        TableDiff(
          list: "L7", from: 12,
          ops: [
            .delete(at: at(0, 7)), .insert(at: at(0, 5), row: row("n")),
            .update(at: at(0, 8), row: row("u")), .move(from: at(0, 9), to: at(0, 4)),
          ])) == .applied)
    #expect(shape(shown) == ["A: a0 a1 …10"])
  }

  @Test func aRowPlacedRightAfterThePrefixExtendsIt() throws {
    var shown = screen([section("A", ["a0", "a1"], count: 10)])
    _ = try shown.apply(
      TableDiff(list: "L7", from: 12, ops: [.insert(at: at(0, 2), row: row("n"))]))
    #expect(shape(shown) == ["A: a0 a1 n …11"])
  }

  @Test func aRowMovedInFromPastThePrefixCutsIt() throws {
    var shown = screen([section("A", ["a0", "a1", "a2", "a3"], count: 10)])
    _ = try shown.apply(TableDiff(list: "L7", from: 12, ops: [.move(from: at(0, 8), to: at(0, 1))]))
    #expect(shape(shown) == ["A: a0 …10"])
  }

  @Test func aRowMovedOutOfThePrefixLeavesIt() throws {
    var shown = screen([section("A", ["a0", "a1", "a2"], count: 10), section("B", ["b0"])])
    _ = try shown.apply(TableDiff(list: "L7", from: 12, ops: [.move(from: at(0, 1), to: at(1, 1))]))
    #expect(shape(shown) == ["A: a0 a2 …9", "B: b0 a1"])
  }

  @Test func opsThatDoNotFitAreRefusedAndChangeNothing() {
    let bad: [(DiffOp, String)] = [
      (.delete(at: at(0, 3)), "delete [0,3] does not fit: section 0 had 3 rows"),
      (.delete(at: at(2, 0)), "delete [2,0] does not fit: the list had 1 section"),
      (
        .insert(at: at(0, 5), row: row("n")),
        #"insert [0,5] "n" does not fit: section 0 has 4 rows"#
      ),
      (
        .update(at: at(0, 0), row: row("zz")),
        #"update [0,0] "zz" does not fit: the row at [0,0] has another id"#
      ),
      (.deleteSection(at: 1), "deleteSection 1 does not fit: the list had 1 section"),
      (
        .updateSection(at: 1, header: nil, footer: nil),
        "updateSection 1 does not fit: the list has 1 section"
      ),
      (
        .insertSection(at: 2, section: Section(id: "S")),
        #"insertSection 2 "S" does not fit: the list has 2 sections"#
      ),
    ]
    for (op, message) in bad {
      var shown = screen([section("A", ["a0", "a1", "a2"])])
      let before = shown
      #expect(throws: ProtocolError(.badMessage, message)) {
        try shown.apply(TableDiff(list: "L7", from: 12, ops: [op]))
      }
      #expect(shown == before)
    }
    var shown = screen([section("A", ["a0", "a1", "a2"])])
    #expect(
      throws: ProtocolError(
        .badMessage, "move [0,1] → [0,0] does not fit: delete [0,1] removes [0,1] too")
    ) {
      try shown.apply(
        TableDiff(
          list: "L7", from: 12, ops: [.delete(at: at(0, 1)), .move(from: at(0, 1), to: at(0, 0))]))
    }
    #expect(throws: ProtocolError.self) {
      try shown.apply(
        TableDiff(
          list: "L7", from: 12,
          ops: [
            .insertSection(at: 0, section: Section(id: "S")), .insert(at: at(0, 0), row: row("n")),
          ]))
    }
  }

  @Test func fetchedRowsContinueTheirSection() {
    var shown = screen([section("A", ["a0", "a1"], count: 4)])
    let added = shown.add(
      RowsMessage(
        list: "L7", version: 12, section: 0, from: 2, rows: [row("a2"), row("a3"), row("extra")]))
    #expect(added)
    #expect(shape(shown) == ["A: a0 a1 a2 a3"])
  }

  @Test func fetchedRowsThatDoNotBelongAreDropped() {
    var shown = screen([section("A", ["a0", "a1"], count: 9)])
    let before = shown
    let stale = [
      RowsMessage(list: "L7", version: 11, section: 0, from: 2, rows: [row("x")]),
      RowsMessage(list: "L8", version: 12, section: 0, from: 2, rows: [row("x")]),
      RowsMessage(list: "L7", version: 12, section: 1, from: 2, rows: [row("x")]),
      RowsMessage(list: "L7", version: 12, section: 0, from: 3, rows: [row("x")]),
    ]
    for rows in stale {
      let added = shown.add(rows)
      #expect(!added)
    }
    #expect(shown == before)
  }
}

@Suite struct LoadedScreenRandomDiffTests {
  /// A valid diff from `old` to `new` (same sections), moving every surviving row: crude,
  /// but it exercises removals and placements everywhere.
  private func crudeDiff(from old: [[String]], to new: [[String]]) -> [DiffOp] {
    var oldPaths: [String: TableIndexPath] = [:]
    for (s, rows) in old.enumerated() {
      for (r, id) in rows.enumerated() { oldPaths[id] = at(s, r) }
    }
    var newIDs: Set<String> = []
    var ops: [DiffOp] = []
    for (s, rows) in new.enumerated() {
      for (r, id) in rows.enumerated() {
        newIDs.insert(id)
        if let from = oldPaths[id] {
          ops.append(.move(from: from, to: at(s, r)))
        } else {
          ops.append(.insert(at: at(s, r), row: row(id)))
        }
      }
    }
    for (id, path) in oldPaths where !newIDs.contains(id) { ops.append(.delete(at: path)) }
    var generator = SplitMix64(seed: UInt64(ops.count))
    ops.shuffle(using: &generator)  // the order of ops carries no meaning
    return ops
  }

  @Test(arguments: 0..<200)
  func aPrefixFollowsTheFullScreen(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed))
    var nextID = 0
    func newID() -> String {
      nextID += 1
      return "r\(nextID)"
    }
    let sectionCount = Int.random(in: 1...3, using: &random)
    let old = (0..<sectionCount).map { _ in
      (0..<Int.random(in: 0...8, using: &random)).map { _ in newID() }
    }
    // New: drop some rows, shuffle some across sections, add some.
    var pool = old.flatMap { $0 }.filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
    pool.shuffle(using: &random)
    pool += (0..<Int.random(in: 0...4, using: &random)).map { _ in newID() }
    var new = Array(repeating: [String](), count: sectionCount)
    for id in pool { new[Int.random(in: 0..<sectionCount, using: &random)].append(id) }
    let diff = TableDiff(list: "L7", from: 1, ops: crudeDiff(from: old, to: new))

    let full = old.enumerated().map { section("S\($0.offset)", $0.element) }
    var fullScreen = screen(version: 1, full)
    #expect(try fullScreen.apply(diff) == .applied)
    #expect(fullScreen.sections.map { $0.rows.map(\.id) } == new)

    let limit = Int.random(in: 0...5, using: &random)
    var prefixScreen = screen(
      version: 1, full.map { LoadedSection(Section(id: $0.id, rows: $0.rows), rowLimit: limit) })
    #expect(try prefixScreen.apply(diff) == .applied)
    for (shown, truth) in zip(prefixScreen.sections, fullScreen.sections) {
      #expect(shown.count == truth.count)
      #expect(Array(truth.rows.prefix(shown.rows.count)) == shown.rows)
    }
  }
}

@Suite struct LoadedScreenFollowsTheDifferTests {
  /// Random old and new lists, with sections deleted, inserted and reordered, rows
  /// deleted, inserted, moved and changed: the differ's diff, sent over the wire and
  /// applied to a client's screen, gives the new list — and a screen holding only prefixes
  /// ends with prefixes of it.
  @Test(arguments: 0..<300)
  func aClientScreenFollowsTheDiffersDiff(seed: Int) throws {
    var random = SplitMix64(seed: UInt64(seed) &* 7919)
    var nextID = 0
    func newRow() -> Row {
      nextID += 1
      return row("r\(nextID)")
    }
    let old = (0..<Int.random(in: 0...4, using: &random)).map { index in
      Section(
        id: "S\(index)", header: Bool.random(using: &random) ? "h" : nil,
        rows: (0..<Int.random(in: 0...6, using: &random)).map { _ in newRow() })
    }
    var newIDs = old.map(\.id).filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
    newIDs += (0..<Int.random(in: 0...2, using: &random)).map { "N\($0)" }
    newIDs.shuffle(using: &random)
    var new = newIDs.map { Section(id: $0, header: Bool.random(using: &random) ? "h" : nil) }
    var pool = old.flatMap(\.rows).filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
    for index in pool.indices where Int.random(in: 0..<5, using: &random) == 0 {
      pool[index].text += " (changed)"
    }
    pool += (0..<Int.random(in: 0...4, using: &random)).map { _ in newRow() }
    pool.shuffle(using: &random)
    if !new.isEmpty {
      for row in pool { new[Int.random(in: 0..<new.count, using: &random)].rows.append(row) }
    }
    let sent = TableDiff(list: "L7", from: 1, ops: try TableDiff.ops(from: old, to: new))
    guard case .success(.diff(let diff)) = ServerMessage.decode(ServerMessage.diff(sent).serialized)
    else {
      Issue.record("the diff did not survive the wire")
      return
    }

    var full = screen(version: 1, old.map { LoadedSection($0) })
    #expect(try full.apply(diff) == .applied)
    #expect(full.sections == new.map { LoadedSection($0) })

    let limit = Int.random(in: 0...4, using: &random)
    var prefixes = screen(version: 1, old.map { LoadedSection($0, rowLimit: limit) })
    #expect(try prefixes.apply(diff) == .applied)
    for (shown, truth) in zip(prefixes.sections, full.sections) {
      #expect(shown.count == truth.count)
      #expect(Array(truth.rows.prefix(shown.rows.count)) == shown.rows)
    }
  }
}
