import PropertyBased

@testable import TableModel

/// Two versions of a list, as the property tests diff them. Small pools of ids (five
/// sections, sixteen rows, two texts) make every kind of op likely, and keep the lists
/// small enough to check moves against brute force.
struct ListPair: Sendable, CustomStringConvertible {
  var old: [Section]
  var new: [Section]

  var description: String { "\(notation(old))  →  \(notation(new))" }
}

private let sectionIDs = ["A", "B", "C", "D", "E"]
private let rowIDs = (0..<16).map { "r\($0)" }
let texts = ["x", "y"]

extension Gen where Value == ListPair {
  /// Half the time the new list is an edit of the old one (a few ops of every kind), half
  /// the time an unrelated list over the same ids (many moves, reorders and cross-section
  /// moves).
  static var listPair: Generator<ListPair, Shrink.None<ListPair>> {
    Generator { rng in
      let old = randomSections(using: &rng)
      let new = Bool.random(using: &rng) ? edited(old, using: &rng) : randomSections(using: &rng)
      return ListPair(old: old, new: new)
    }
  }
}

extension Gen where Value == [Section] {
  static var sections: Generator<[Section], Shrink.None<[Section]>> {
    Generator { rng in randomSections(using: &rng) }
  }
}

func randomSections(using rng: inout some RandomNumberGenerator) -> [Section] {
  let ids = sectionIDs.shuffled(using: &rng).prefix(Int.random(in: 0...4, using: &rng))
  var sections = ids.map { Section(id: $0, header: randomHeader(using: &rng)) }
  guard !sections.isEmpty else { return [] }
  for id in rowIDs.shuffled(using: &rng).prefix(Int.random(in: 0...14, using: &rng)) {
    let section = Int.random(in: sections.indices, using: &rng)
    sections[section].rows.append(Row(id: id, text: texts.randomElement(using: &rng)!))
  }
  return sections
}

/// `sections` after a few random edits of every kind.
func edited(_ sections: [Section], using rng: inout some RandomNumberGenerator) -> [Section] {
  var sections = sections
  for _ in 0..<Int.random(in: 0...6, using: &rng) {
    let usedRows = Set(sections.flatMap { $0.rows.map(\.id) })
    let usedSections = Set(sections.map(\.id))
    switch Int.random(in: 0..<9, using: &rng) {
    case 0 where !sections.isEmpty:
      sections.remove(at: Int.random(in: sections.indices, using: &rng))
    case 1:
      guard let id = sectionIDs.filter({ !usedSections.contains($0) }).randomElement(using: &rng)
      else { break }
      let section = Section(id: id, header: randomHeader(using: &rng))
      sections.insert(section, at: Int.random(in: 0...sections.count, using: &rng))
    case 2 where sections.count > 1:
      let section = sections.remove(at: Int.random(in: sections.indices, using: &rng))
      sections.insert(section, at: Int.random(in: 0...sections.count, using: &rng))
    case 3 where !sections.isEmpty:
      sections[Int.random(in: sections.indices, using: &rng)].header = randomHeader(using: &rng)
    case 4:
      guard let (section, row) = randomRow(in: sections, using: &rng) else { break }
      sections[section].rows.remove(at: row)
    case 5 where !sections.isEmpty:
      guard let id = rowIDs.filter({ !usedRows.contains($0) }).randomElement(using: &rng)
      else { break }
      let section = Int.random(in: sections.indices, using: &rng)
      let row = Int.random(in: 0...sections[section].rows.count, using: &rng)
      sections[section].rows.insert(Row(id: id, text: "x"), at: row)
    case 6, 7:
      guard let (from, row) = randomRow(in: sections, using: &rng) else { break }
      let moved = sections[from].rows.remove(at: row)
      let to = Int.random(in: sections.indices, using: &rng)
      sections[to].rows.insert(moved, at: Int.random(in: 0...sections[to].rows.count, using: &rng))
    default:
      guard let (section, row) = randomRow(in: sections, using: &rng) else { break }
      sections[section].rows[row].text = sections[section].rows[row].text == "x" ? "y" : "x"
    }
  }
  return sections
}

func randomRow(
  in sections: [Section], using rng: inout some RandomNumberGenerator
) -> (section: Int, row: Int)? {
  let nonEmpty = sections.indices.filter { !sections[$0].rows.isEmpty }
  guard let section = nonEmpty.randomElement(using: &rng) else { return nil }
  return (section, Int.random(in: sections[section].rows.indices, using: &rng))
}

func randomHeader(using rng: inout some RandomNumberGenerator) -> String? {
  [nil, "h", "k"].randomElement(using: &rng)!
}

extension Gen where Value == [DiffOp] {
  /// Ops with indexes near the size of a small list, most of them wrong for it.
  static var ops: Generator<[DiffOp], Shrink.None<[DiffOp]>> {
    Generator { rng in
      (0..<Int.random(in: 0...8, using: &rng)).map { _ in
        let at = TableIndexPath(
          row: Int.random(in: -1...4, using: &rng), section: Int.random(in: -1...4, using: &rng))
        let to = TableIndexPath(
          row: Int.random(in: -1...4, using: &rng), section: Int.random(in: -1...4, using: &rng))
        let row = Row(id: rowIDs.randomElement(using: &rng)!, text: "z")
        let section = Int.random(in: -1...4, using: &rng)
        return [
          DiffOp.delete(at: at), .insert(at: at, row: row), .move(from: at, to: to),
          .update(at: at, row: row), .deleteSection(at: section),
          .insertSection(at: section, section: Section(id: "Z", rows: [row])),
          .updateSection(at: section, header: "z", footer: nil),
        ].randomElement(using: &rng)!
      }
    }
  }
}

extension Gen where Value == ListPair {
  /// Longer lists (up to a few hundred rows) and many scattered edits: long runs of rows in
  /// order, broken by deletes, inserts, moves and updates, as a real list changes.
  static var longListPair: Generator<ListPair, Shrink.None<ListPair>> {
    Generator { rng in
      var next = 0
      func newRow(using rng: inout some RandomNumberGenerator) -> Row {
        next += 1
        return Row(id: "row-\(next)", text: texts.randomElement(using: &rng)!)
      }
      let sectionCount = Int.random(in: 1...6, using: &rng)
      var old = (0..<sectionCount).map { Section(id: "S\($0)", header: randomHeader(using: &rng)) }
      for section in old.indices {
        for _ in 0..<Int.random(in: 0...80, using: &rng) {
          old[section].rows.append(newRow(using: &rng))
        }
      }
      var new = old
      if Bool.random(using: &rng), new.count > 1 {
        new.swapAt(0, Int.random(in: 1..<new.count, using: &rng))
      }
      if Bool.random(using: &rng) { new.remove(at: Int.random(in: new.indices, using: &rng)) }
      if Bool.random(using: &rng) {
        new.insert(
          Section(id: "S9", rows: (0..<3).map { _ in newRow(using: &rng) }),
          at: Int.random(in: 0...new.count, using: &rng))
      }
      for _ in 0..<Int.random(in: 0...60, using: &rng) {
        guard let (section, row) = randomRow(in: new, using: &rng) else { break }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: new[section].rows.remove(at: row)
        case 1:
          new[section].rows.insert(newRow(using: &rng), at: row)
        case 2:
          let moved = new[section].rows.remove(at: row)
          let to = Int.random(in: new.indices, using: &rng)
          new[to].rows.insert(moved, at: Int.random(in: 0...new[to].rows.count, using: &rng))
        default:
          new[section].rows[row].text += "'"
        }
      }
      return ListPair(old: old, new: new)
    }
  }
}
