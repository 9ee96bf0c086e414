import Testing

@testable import TableModel

/// Whatever arrives, decoding and applying answer with a value or an error, never a crash.

private let row = Row(
  id: "R1", style: .subtitle, text: "t", detail: "d", control: .switch(isOn: true))

private let frames: [String] = [
  ClientMessage.insert(list: "L", section: "S", after: "R0", row: NewRow(text: "x")).serialized(
    ref: 3),
  ClientMessage.update(list: "L", row: "R", edit: RowUpdate(text: "a", detail: .some(nil)))
    .serialized(ref: 1),
  ClientMessage.fetch(list: "L", section: "S", from: 3, count: 4).serialized(),
  ServerMessage.screen(
    ScreenMessage(
      transition: .push, stack: ["A", "B"],
      screen: LoadedScreen(
        list: "L", version: 2, title: "B", indexTitles: ["A"],
        sections: [LoadedSection(id: "S", header: "h", footer: nil, count: 3, rows: [row])]))
  ).serialized,
  ServerMessage.diff(
    TableDiff(
      list: "L", from: 1,
      ops: [
        .insert(at: TableIndexPath(row: 0, section: 0), row: row),
        .move(from: TableIndexPath(row: 1, section: 0), to: TableIndexPath(row: 2, section: 1)),
        .insertSection(at: 1, section: Section(id: "S2", rows: [row])),
        .updateSection(at: 0, header: "h", footer: nil),
      ])
  ).serialized,
  ServerMessage.error(ref: 2, ProtocolError(.notFound, "gone")).serialized,
]

@Suite struct ProtocolFuzzTests {
  @Test func mutatedFramesDecodeOrAreRefused() {
    var random = SplitMix64(seed: 42)
    let interesting =
      Array(#"{}[]",:0123456789-.eE"\tnulltruefalse\u{7F}"#.utf8) + [0x00, 0xC3, 0xFF]
    for _ in 0..<20_000 {
      var bytes = Array(frames.randomElement(using: &random)!.utf8)
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let index = Int.random(in: 0..<max(bytes.count, 1), using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where !bytes.isEmpty: bytes[index] = interesting.randomElement(using: &random)!
        case 1 where !bytes.isEmpty: bytes.remove(at: index)
        case 2:
          bytes.insert(interesting.randomElement(using: &random)!, at: min(index, bytes.count))
        default: bytes = Array(bytes.prefix(index))
        }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      _ = ClientMessage.decode(text)
      if case .success(.diff(let diff)) = ServerMessage.decode(text) {
        var screen = LoadedScreen(
          list: "L", version: 1, title: "T",
          sections: [LoadedSection(id: "S", header: nil, footer: nil, count: 3, rows: [row])])
        _ = try? screen.apply(diff)
      }
    }
  }

  @Test func randomDiffsAreAppliedOrRefused() {
    var random = SplitMix64(seed: 7)
    func path() -> TableIndexPath {
      TableIndexPath(
        row: Int.random(in: 0...4, using: &random), section: Int.random(in: 0...2, using: &random))
    }
    for _ in 0..<20_000 {
      var ops: [DiffOp] = []
      for _ in 0..<Int.random(in: 0...5, using: &random) {
        switch Int.random(in: 0..<7, using: &random) {
        case 0: ops.append(.delete(at: path()))
        case 1: ops.append(.insert(at: path(), row: row))
        case 2: ops.append(.move(from: path(), to: path()))
        case 3: ops.append(.update(at: path(), row: row))
        case 4: ops.append(.deleteSection(at: Int.random(in: 0...2, using: &random)))
        case 5:
          ops.append(
            .insertSection(
              at: Int.random(in: 0...2, using: &random), section: Section(id: "N", rows: [row])))
        default:
          ops.append(
            .updateSection(at: Int.random(in: 0...2, using: &random), header: nil, footer: nil))
        }
      }
      var screen = LoadedScreen(
        list: "L", version: 1, title: "T",
        sections: [
          LoadedSection(id: "A", header: nil, footer: nil, count: 4, rows: [row, row]),
          LoadedSection(id: "B", header: nil, footer: nil, count: 1, rows: [row]),
        ])
      let before = screen
      do {
        _ = try screen.apply(TableDiff(list: "L", from: 1, ops: ops))
        for section in screen.sections { #expect(section.rows.count <= section.count) }
      } catch {
        #expect(screen == before)
      }
    }
  }
}
