import Foundation
import TableModel

/// How an indexed list (`"index": true`) shows its rows, as `UILocalizedIndexedCollation`
/// does for the list's language: one section per letter of the language's alphabet (kana
/// rows for Japanese, Latin letters by pinyin for Simplified Chinese), then A–Z for Latin
/// text in a language with another script, then "#" for the rest; rows sorted by the
/// language's collation (ICU's, through Foundation). Every section is present, empty ones
/// too, so that sections never appear or disappear as rows change.
///
/// A list's collation follows from its language, which only an import changes: it is
/// chosen once per list and stays the same as rows come and go. Without a language, or
/// in one this type has no alphabet for, it is the standard collation (A–Z and "#", text
/// compared with case and accents folded), which is also the fast one.
struct IndexCollation {
  /// The section index titles, in order; the last is "#".
  let titles: [String]
  /// nil: the standard collation.
  private let localized: Localized?

  /// A language's own alphabet: its letters (the first titles), the scripts it covers, and
  /// the strings a text's first character is compared with to find its letter.
  fileprivate struct Alphabet {
    var letters: [String]
    var boundaries: [String]
    var scalars: [ClosedRange<UInt32>]

    func covers(_ scalar: Unicode.Scalar) -> Bool { scalars.contains { $0.contains(scalar.value) } }
  }

  fileprivate struct Localized {
    var locale: Locale
    /// The language's sort keys; nil where the toolchain's ICU cannot be imported (pairs
    /// are then compared through Foundation, in the same order).
    var collator: SortKeyCollator?
    var alphabet: Alphabet
    /// Where A–Z start in `titles`, for Latin text the alphabet does not cover: 0 when the
    /// alphabet's letters are A–Z themselves (pinyin), else after the alphabet.
    var latin: Int
  }

  static let latinLetters: [String] =
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }

  /// The standard collation: A–Z and "#".
  static var standard: IndexCollation {
    IndexCollation(titles: latinLetters + ["#"], localized: nil)
  }

  private init(titles: [String], localized: Localized?) {
    self.titles = titles
    self.localized = localized
  }

  /// The collation of a list in `language` (a BCP 47 tag; nil: none known).
  init(language: String?) {
    guard let language, let alphabet = Self.alphabet(for: language) else {
      self = .standard
      return
    }
    var titles = alphabet.letters
    var latin = 0
    if !titles.starts(with: Self.latinLetters) {
      latin = titles.count
      titles += Self.latinLetters
    }
    self.init(
      titles: titles + ["#"],
      localized: Localized(
        locale: Locale(identifier: language),
        collator: SortKeyCollator(locale: language.replacing("-", with: "_")),
        alphabet: alphabet, latin: latin))
  }

  /// The alphabets this type knows, by language; nil for the standard collation.
  private static func alphabet(for tag: String) -> Alphabet? {
    let subtags = tag.lowercased().split(separator: "-")
    func alphabet(_ letters: String, _ scalars: [ClosedRange<UInt32>]) -> Alphabet {
      let letters = letters.split(separator: " ").map(String.init)
      return Alphabet(letters: letters, boundaries: letters, scalars: scalars)
    }
    switch subtags.first {
    case "ru":
      return alphabet(
        "А Б В Г Д Е Ж З И Й К Л М Н О П Р С Т У Ф Х Ц Ч Ш Щ Ы Э Ю Я",
        [0x0400...0x052F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F])
    case "el":
      return alphabet(
        "Α Β Γ Δ Ε Ζ Η Θ Ι Κ Λ Μ Ν Ξ Ο Π Ρ Σ Τ Υ Φ Χ Ψ Ω", [0x0370...0x03FF, 0x1F00...0x1FFF])
    case "sv":
      return alphabet(
        (latinLetters + ["Å", "Ä", "Ö"]).joined(separator: " "),
        [0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF])
    case "ja":
      // Kana only: UIKit cannot know how a kanji is read, and files it under "#".
      return alphabet("あ か さ た な は ま や ら わ", [0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F])
    case "he", "iw":
      return alphabet(
        "א ב ג ד ה ו ז ח ט י כ ל מ נ ס ע פ צ ק ר ש ת", [0x05D0...0x05EA, 0xFB1D...0xFB4F])
    case "ar":
      return alphabet(
        "ا ب ت ث ج ح خ د ذ ر ز س ش ص ض ط ظ ع غ ف ق ك ل م ن ه و ي",
        [0x0620...0x064A, 0x066E...0x06D3, 0x0750...0x077F, 0xFB50...0xFDFF, 0xFE70...0xFEFF])
    case "zh":
      // Simplified Chinese (zh, zh-Hans, zh-CN, zh-SG) by pinyin. Traditional (Hant, TW,
      // HK, MO) is by stroke count in UIKit, which is not done here: standard.
      guard Set(subtags.dropFirst()).isDisjoint(with: ["hant", "tw", "hk", "mo"]) else {
        return nil
      }
      // ICU's pinyin collation sorts U+FDD0 followed by a letter just before the first
      // character whose reading starts with that letter: those are the boundaries.
      let marker = String(Character(Unicode.Scalar(0xFDD0)!))
      return Alphabet(
        letters: latinLetters, boundaries: latinLetters.map { marker + $0 },
        scalars: [0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F])
    default:
      return nil
    }
  }

  /// The id of the derived section for `title` in `list`.
  static func sectionKey(list: String, title: String) -> String { "\(list):\(title)" }

  // MARK: The standard collation

  /// The text as it sorts in the standard collation: case and accents folded.
  static func sortKey(_ text: String) -> String {
    text.folding(
      options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
  }

  /// Where a folded text's first letter is among A–Z; nil when it is not one of them.
  static func latinIndex(forSortKey key: String) -> Int? {
    guard let first = key.unicodeScalars.first, first.isASCII,
      let ascii = UInt8(exactly: first.value),
      ascii >= UInt8(ascii: "a"), ascii <= UInt8(ascii: "z")
    else { return nil }
    return Int(ascii - UInt8(ascii: "a"))
  }

  /// Whether row `a` sorts before row `b` in the standard collation.
  static func precedes(
    _ a: (key: String, text: String, id: String), _ b: (key: String, text: String, id: String)
  ) -> Bool {
    if a.key != b.key { return a.key < b.key }
    if a.text != b.text { return a.text < b.text }
    return a.id < b.id
  }

  // MARK: Either

  /// The index in ``titles`` of the section `text` goes in. `memo` remembers the answer
  /// for each first character, so that a list costs one search per distinct initial.
  func sectionIndex(of text: String, memo: inout [Character: Int]) -> Int {
    guard let localized else {
      return Self.latinIndex(forSortKey: Self.sortKey(text)) ?? titles.count - 1
    }
    guard let first = text.first else { return titles.count - 1 }
    if let known = memo[first] { return known }
    let index = localized.sectionIndex(of: first, hash: titles.count - 1)
    memo[first] = index
    return index
  }

  /// Whether row `a` sorts before row `b` in this collation (ties broken by text, then id,
  /// so that the order is total).
  func precedes(_ a: Row, _ b: Row) -> Bool {
    guard let localized else {
      return Self.precedes(
        (Self.sortKey(a.text), a.text, a.id), (Self.sortKey(b.text), b.text, b.id))
    }
    if let collator = localized.collator {
      return Self.precedes((collator.key(a.text), a), (collator.key(b.text), b))
    }
    switch a.text.compare(b.text, options: [], range: nil, locale: localized.locale) {
    case .orderedAscending: return true
    case .orderedDescending: return false
    case .orderedSame: return a.text != b.text ? a.text < b.text : a.id < b.id
    }
  }

  /// Whether row `a` sorts before row `b`, given their sort keys.
  private static func precedes(_ a: (key: [UInt8], row: Row), _ b: (key: [UInt8], row: Row)) -> Bool
  {
    if a.key != b.key { return a.key.lexicographicallyPrecedes(b.key) }
    if a.row.text != b.row.text { return a.row.text < b.row.text }
    return a.row.id < b.row.id
  }

  /// The sections of an indexed list holding `rows`.
  func sections(list: String, rows: [Row]) -> [Section] {
    var sections = titles.map { Section(id: Self.sectionKey(list: list, title: $0), header: $0) }
    guard localized != nil else {
      var keyed = rows.map { (row: $0, key: Self.sortKey($0.text)) }
      keyed.sort {
        Self.precedes(($0.key, $0.row.text, $0.row.id), ($1.key, $1.row.text, $1.row.id))
      }
      for (row, key) in keyed {
        sections[Self.latinIndex(forSortKey: key) ?? titles.count - 1].rows.append(row)
      }
      return sections
    }
    var memo: [Character: Int] = [:]
    for row in rows { sections[sectionIndex(of: row.text, memo: &memo)].rows.append(row) }
    for index in sections.indices {
      if let collator = localized?.collator {
        var keyed = sections[index].rows.map { (key: collator.key($0.text), row: $0) }
        keyed.sort(by: Self.precedes)
        sections[index].rows = keyed.map(\.row)
      } else {
        sections[index].rows.sort(by: precedes)
      }
    }
    return sections
  }

  /// Where `row` shows in an indexed list holding `others` (which may include `row`'s
  /// old self, ignored): its section id and the row before it there.
  func position(of row: Row, among others: [Row], list: String) -> (
    section: String, after: String?
  ) {
    var memo: [Character: Int] = [:]
    let sectionIndex = sectionIndex(of: row.text, memo: &memo)
    var best: Row?
    for other in others where other.id != row.id {
      guard self.sectionIndex(of: other.text, memo: &memo) == sectionIndex,
        precedes(other, row)
      else { continue }
      if best == nil || precedes(best!, other) { best = other }
    }
    return (Self.sectionKey(list: list, title: titles[sectionIndex]), best?.id)
  }
}

extension IndexCollation.Localized {
  /// The section of a text starting with `first`: a letter of the language's alphabet
  /// (the last whose boundary sorts at or before it), a Latin letter, or `hash` ("#").
  fileprivate func sectionIndex(of first: Character, hash: Int) -> Int {
    guard let scalar = first.unicodeScalars.first else { return hash }
    let text = String(first)
    if alphabet.covers(scalar) {
      // Before the first letter: a sign of the script that is no letter.
      return alphabet.boundaries.lastIndex {
        $0.compare(text, options: [.caseInsensitive], range: nil, locale: locale)
          != .orderedDescending
      } ?? hash
    }
    if let index = IndexCollation.latinIndex(forSortKey: IndexCollation.sortKey(text)) {
      return latin + index
    }
    return hash
  }
}
