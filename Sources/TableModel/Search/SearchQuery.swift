/// What a person typed into a screen's search field (`UISearchController`), ready to
/// match rows: case- and accent-insensitive, every word must appear in the row's text or
/// detail (in any order, as a substring).
///
/// Folding lowercases and strips the marks of Latin letters (`É` and `é` are `e`, `Æ` is
/// `ae`, `ø` is `o`); other scripts are lowercased only. The SQLite store keeps each row's
/// ``key(text:detail:)`` in a column and matches the same ``terms`` in SQL.
public struct SearchQuery: Sendable, Hashable {
  /// The query as typed (what the `screen` message's `search` repeats).
  public let text: String
  /// The folded words, each of which a matching row contains.
  public let terms: [String]

  public init(_ text: String) {
    self.text = text
    terms = SearchQuery.fold(text).split(whereSeparator: \.isWhitespace).map(String.init)
  }

  /// A query with no words matches everything: it ends the search.
  public var isEmpty: Bool { terms.isEmpty }

  public func matches(_ row: Row) -> Bool {
    matches(key: SearchQuery.key(text: row.text, detail: row.detail))
  }

  /// Whether a row whose ``key(text:detail:)`` is `key` matches.
  public func matches(key: String) -> Bool {
    terms.allSatisfy { key.contains($0) }
  }

  /// What a row is searched by: its folded text and detail, apart (a word of the query
  /// never spans both).
  public static func key(text: String, detail: String?) -> String {
    guard let detail, !detail.isEmpty else { return fold(text) }
    return fold(text) + "\n" + fold(detail)
  }

  /// `text` lowercased, with the marks of Latin letters taken off.
  public static func fold(_ text: String) -> String {
    var folded = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar.isASCII {
        let value = scalar.value
        folded.append((65...90).contains(value) ? Unicode.Scalar(UInt8(value + 32)) : scalar)
        continue
      }
      if scalar.properties.generalCategory == .nonspacingMark { continue }  // a combining accent
      for lower in scalar.properties.lowercaseMapping.unicodeScalars {
        folded.append(
          contentsOf: latinBase(of: lower)?.unicodeScalars ?? String(lower).unicodeScalars)
      }
    }
    return String(folded)
  }

  /// The plain letters of an accented or joined Latin letter, read from its Unicode
  /// name (“LATIN SMALL LETTER E WITH ACUTE” is `e`, “LATIN SMALL LETTER AE” is `ae`).
  private static func latinBase(of scalar: Unicode.Scalar) -> String? {
    guard let name = scalar.properties.name else { return nil }
    let prefixes = ["LATIN SMALL LETTER ", "LATIN CAPITAL LETTER "]
    guard let prefix = prefixes.first(where: name.hasPrefix) else { return nil }
    let rest = name.dropFirst(prefix.count)
    let letters = rest.prefix { $0 != " " }
    guard (1...2).contains(letters.count), letters.allSatisfy({ $0.isASCII && $0.isLetter }),
      letters.count == rest.count || rest.dropFirst(letters.count).hasPrefix(" WITH ")
    else { return nil }
    return letters.lowercased()
  }
}
