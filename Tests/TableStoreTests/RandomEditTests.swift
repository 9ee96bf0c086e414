import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// Random inserts, moves, deletes, updates and switch toggles, checked after every step
/// against a plain in-memory model, against the store's own snapshot, and against the
/// snapshot the returned edits produce.
@Suite struct RandomEditTests {
  struct ModelRow: Equatable {
    var id: String
    var text: String
    /// Shown only while the switch row "sw" is on.
    var dependsOnSwitch: Bool
  }

  struct Model {
    var sections: [[ModelRow]]
    var switchOn = false
    var hasSwitch = true

    func visible(_ section: Int) -> [ModelRow] {
      sections[section].filter { !$0.dependsOnSwitch || switchOn }
    }

    var visibleIDs: [[String]] { sections.indices.map { visible($0).map(\.id) } }

    func locate(_ id: String) -> (section: Int, index: Int)? {
      for (s, rows) in sections.enumerated() {
        if let i = rows.firstIndex(where: { $0.id == id }) { return (s, i) }
      }
      return nil
    }

    mutating func place(_ row: ModelRow, section: Int, after: String?) {
      let index =
        after.flatMap { id in sections[section].firstIndex { $0.id == id }.map { $0 + 1 } } ?? 0
      sections[section].insert(row, at: index)
    }
  }

  static let initialFile = """
    {"title": "Random", "editable": true, "sections": [
      {"id": "S0", "rows": [{"id": "sw", "text": "Switch", "switch": false}, {"id": "a", "text": "a"}]},
      {"id": "S1", "rows": [{"id": "h1", "text": "h1", "showWhen": {"row": "sw", "on": true}},
                            {"id": "b", "text": "b"},
                            {"id": "h2", "text": "h2", "showWhen": {"row": "sw", "on": true}}]},
      {"id": "S2", "rows": []}
    ]}
    """

  @Test(arguments: StoreKind.allCases, [(8, 1), (8, 2), (16, 3), (1_024, 4), (4, 5), (8, 6)])
  func randomSequencesMatchTheModel(kind: StoreKind, setting: (blockCapacity: Int, seed: UInt64))
    throws
  {
    let (blockCapacity, seed) = setting
    let temporary = try TemporaryStore(kind: kind)
    let store = temporary.store
    store.blockCapacity = blockCapacity
    try store.importJSON(RandomEditTests.initialFile)
    let list = try store.rootList()
    var model = Model(sections: [
      [
        ModelRow(id: "sw", text: "Switch", dependsOnSwitch: false),
        ModelRow(id: "a", text: "a", dependsOnSwitch: false),
      ],
      [
        ModelRow(id: "h1", text: "h1", dependsOnSwitch: true),
        ModelRow(id: "b", text: "b", dependsOnSwitch: false),
        ModelRow(id: "h2", text: "h2", dependsOnSwitch: true),
      ],
      [],
    ])
    var snapshot = try store.snapshot(of: list)
    var random = SplitMix64(seed: seed)
    var counter = 0
    var history = [snapshot.version: snapshot]

    for step in 0..<400 {
      let change: TableChange
      let visibleRows = model.sections.indices.flatMap { s in model.visible(s).map { (s, $0.id) } }
      switch random.next(below: 10) {
      case 0...3:
        let section = random.next(below: 3)
        let candidates = model.visible(section)
        let after =
          candidates.isEmpty || random.next(below: 5) == 0
          ? nil : candidates[random.next(below: candidates.count)].id
        counter += 1
        change = try store.insertRow(
          in: list, section: "S\(section)", after: after, NewRow(text: "n\(counter)"))
        guard case .insert(let row, _, _) = change.lists[0].edits?[0] else {
          Issue.record("insert made \(change)")
          return
        }
        model.place(
          ModelRow(id: row.id, text: row.text, dependsOnSwitch: false), section: section,
          after: after)
      case 4...5 where !visibleRows.isEmpty:
        var doomed: [String] = []  // an array, not a set: the same order on every run
        for _ in 0..<(1 + random.next(below: 3)) {
          let id = visibleRows[random.next(below: visibleRows.count)].1
          if (id != "sw" || random.next(below: 4) == 0) && !doomed.contains(id) {
            doomed.append(id)
          }
        }
        guard !doomed.isEmpty else { continue }
        change = try store.deleteRows(doomed, in: list)
        if doomed.contains("sw") {
          model.hasSwitch = false
          for s in model.sections.indices { model.sections[s].removeAll { $0.dependsOnSwitch } }
        }
        for s in model.sections.indices { model.sections[s].removeAll { doomed.contains($0.id) } }
      case 6...7 where !visibleRows.isEmpty:
        let id = visibleRows[random.next(below: visibleRows.count)].1
        let section = random.next(below: 3)
        let candidates = model.visible(section).filter { $0.id != id }
        let after =
          candidates.isEmpty || random.next(below: 4) == 0
          ? nil : candidates[random.next(below: candidates.count)].id
        change = try store.moveRow(id, in: list, toSection: "S\(section)", after: after)
        let from = model.locate(id)!
        let row = model.sections[from.section].remove(at: from.index)
        model.place(row, section: section, after: after)
      case 8 where !visibleRows.isEmpty:
        let id = visibleRows[random.next(below: visibleRows.count)].1
        counter += 1
        change = try store.updateRow(id, in: list, text: "u\(counter)", detail: .some(nil))
        let at = model.locate(id)!
        model.sections[at.section][at.index].text = "u\(counter)"
      case 9 where model.hasSwitch:
        model.switchOn.toggle()
        change = try store.setSwitch("sw", in: list, isOn: model.switchOn)
      default:
        continue
      }

      if change.lists.isEmpty {
        #expect(try store.version(of: list) == snapshot.version, "step \(step)")
      } else {
        #expect(change.lists.count == 1)
        #expect(change.lists[0].version == snapshot.version + 1, "step \(step)")
        try snapshot.apply(try #require(change.lists[0].edits))
        snapshot.version = change.lists[0].version
      }
      let stored = try store.snapshot(of: list)
      #expect(stored == snapshot, "step \(step): edits \(change)")
      #expect(stored.sections.map { $0.rows.map(\.id) } == model.visibleIDs, "step \(step)")
      #expect(
        stored.sections.flatMap(\.rows).allSatisfy {
          model.locate($0.id).map { l in model.sections[l.section][l.index].text } == $0.text
        })
      if stored != snapshot { return }
      history[stored.version] = stored
      let counts = try store.sectionCounts(of: list).map(\.count)
      #expect(counts == stored.sections.map(\.rows.count), "step \(step): counts after \(change)")
      if counts != stored.sections.map(\.rows.count) { return }
      let badBlocks = try mismatchedBlocks(in: store)
      #expect(badBlocks == 0, "step \(step): blocks after \(change)")
      if badBlocks != 0 { return }

      if step % 25 == 0 {
        for (index, section) in stored.sections.enumerated() {
          let total = section.rows.count
          for _ in 0..<5 {
            let from = random.next(below: total + 2)
            let count = 1 + random.next(below: 7)
            let window = try store.rows(of: list, section: "S\(index)", from: from, count: count)
            #expect(
              window == Array(section.rows.dropFirst(from).prefix(count)),
              "step \(step) window \(from)+\(count)")
          }
          #expect(try store.sectionCounts(of: list)[index].count == total)
        }
      }
    }
    try RandomEditTests.expectLogUndoes(to: history, list: list, in: store)
  }

  /// Walks the change log back from the newest snapshot: undoing each entry gives the
  /// snapshot the store had at the version before it.
  static func expectLogUndoes(to history: [Int: TableSnapshot], list: String, in store: Store)
    throws
  {
    let newest = try #require(history.keys.max())
    let oldest = try #require(history.keys.min())
    let entries = try #require(try store.logEntries(of: list, after: oldest, upTo: newest))
    #expect(entries.count == newest - oldest)
    var snapshot = try #require(history[newest])
    for entry in entries.reversed() {
      snapshot = try snapshot.undoing(
        try #require(entry.edits), prior: try #require(entry.prior))
      #expect(snapshot == history[snapshot.version], "undoing v\(snapshot.version + 1)")
      if snapshot != history[snapshot.version] { return }
    }
  }

  /// How many blocks disagree with the rows they hold (or hold none).
  func mismatchedBlocks(in store: Store) throws -> Int? {
    try store.fetchInt(
      """
      SELECT count(*) FROM block b WHERE size != (SELECT count(*) FROM row WHERE block_id = b.id)
        OR count != (SELECT count(*) FROM row WHERE block_id = b.id AND visible) OR size = 0
      """)
  }
}
