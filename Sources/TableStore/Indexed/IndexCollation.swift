import Foundation
import TableModel

/// How an indexed list (`"index": true`) shows its rows, as `UILocalizedIndexedCollation`
/// does: sorted by text, in one section per letter A–Z plus "#" for the rest, every
/// section present (empty ones too) so that sections never appear or disappear.
enum IndexCollation {
  static let titles: [String] =
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) } + ["#"]

  /// The id of the derived section for `title` in `list`.
  static func sectionKey(list: String, title: String) -> String { "\(list):\(title)" }

  /// The text as it sorts: case and accents folded.
  static func sortKey(_ text: String) -> String {
    text.folding(
      options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
  }

  /// The index of the section a text goes in.
  static func sectionIndex(forSortKey key: String) -> Int {
    guard let first = key.unicodeScalars.first, first.isASCII,
      let ascii = UInt8(exactly: first.value),
      ascii >= UInt8(ascii: "a"), ascii <= UInt8(ascii: "z")
    else { return titles.count - 1 }
    return Int(ascii - UInt8(ascii: "a"))
  }

  /// Whether row `a` sorts before row `b`.
  static func precedes(
    _ a: (key: String, text: String, id: String), _ b: (key: String, text: String, id: String)
  ) -> Bool {
    if a.key != b.key { return a.key < b.key }
    if a.text != b.text { return a.text < b.text }
    return a.id < b.id
  }

  /// The sections of an indexed list holding `rows`.
  static func sections(list: String, rows: [Row]) -> [Section] {
    var keyed = rows.map { (row: $0, key: sortKey($0.text)) }
    keyed.sort { precedes(($0.key, $0.row.text, $0.row.id), ($1.key, $1.row.text, $1.row.id)) }
    var sections = titles.map { Section(id: sectionKey(list: list, title: $0), header: $0) }
    for (row, key) in keyed { sections[sectionIndex(forSortKey: key)].rows.append(row) }
    return sections
  }

  /// Where `row` shows in an indexed list holding `others` (which may include `row`'s
  /// old self, ignored): its section id and the row before it there.
  static func position(of row: Row, among others: [Row], list: String) -> (
    section: String, after: String?
  ) {
    let key = sortKey(row.text)
    let sectionIndex = sectionIndex(forSortKey: key)
    var best: (key: String, text: String, id: String)?
    for other in others where other.id != row.id {
      let otherKey = sortKey(other.text)
      guard IndexCollation.sectionIndex(forSortKey: otherKey) == sectionIndex else { continue }
      let candidate = (otherKey, other.text, other.id)
      guard precedes(candidate, (key, row.text, row.id)) else { continue }
      if best == nil || precedes(best!, candidate) { best = candidate }
    }
    return (sectionKey(list: list, title: titles[sectionIndex]), best?.id)
  }
}
