/// Checks language tags (BCP 47, RFC 5646) as the data format and the `screen` message
/// carry them: `"he"`, `"pt-BR"`, `"zh-Hans"`, `"sr-Latn-RS"`.
///
/// Well-formedness only — the subtags' shapes and order — not whether a registry knows
/// them: `"xx"` passes, `"en_US"` and `"english"` do not. Case is kept as written.
public enum LanguageTag {
  /// Why `tag` is not a well-formed language tag, or nil when it is one.
  public static func problem(in tag: String) -> String? {
    guard !tag.isEmpty else { return "empty" }
    let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
    if tag.contains("_") {
      return "subtags are separated by \"-\", not \"_\" (\"\(tag.replacing("_", with: "-"))\")"
    }
    for subtag in subtags {
      guard !subtag.isEmpty else { return "an empty subtag" }
      guard subtag.utf8.count <= 8, subtag.utf8.allSatisfy(isAlphanumeric) else {
        return "subtag \"\(subtag)\" is not 1 to 8 ASCII letters and digits"
      }
    }
    var rest = subtags[...]
    if isSingleton(rest.first!, "x") { return privateUse(rest.dropFirst()) }

    let language = rest.removeFirst()
    guard language.utf8.allSatisfy(isLetter), language.utf8.count != 1 else {
      return "\"\(language)\" is not a language subtag (2 to 8 letters, like \"en\" or \"zh\")"
    }
    if language.utf8.count <= 3 {  // up to three extended language subtags (`zh-yue`)
      var extlangs = 0
      while extlangs < 3, let next = rest.first, next.utf8.count == 3,
        next.utf8.allSatisfy(isLetter)
      {
        rest.removeFirst()
        extlangs += 1
      }
    }
    if let next = rest.first, next.utf8.count == 4, next.utf8.allSatisfy(isLetter) {
      rest.removeFirst()  // script: `Hans`
    }
    if let next = rest.first,
      (next.utf8.count == 2 && next.utf8.allSatisfy(isLetter))
        || (next.utf8.count == 3 && next.utf8.allSatisfy(isDigit))
    {
      rest.removeFirst()  // region: `BR`, `419`
    }
    while let next = rest.first,
      next.utf8.count >= 5 || (next.utf8.count == 4 && isDigit(next.utf8.first!))
    {
      rest.removeFirst()  // variants: `1901`, `valencia`
    }
    var singletons: Set<Substring> = []
    while let next = rest.first, next.utf8.count == 1 {
      rest.removeFirst()
      if isSingleton(next, "x") { return privateUse(rest) }
      guard singletons.insert(Substring(next.lowercased())).inserted else {
        return "extension \"\(next)\" appears twice"
      }
      var count = 0
      while let part = rest.first, part.utf8.count >= 2 {
        rest.removeFirst()
        count += 1
      }
      guard count > 0 else { return "extension \"\(next)\" has no subtags" }
    }
    if let next = rest.first { return "subtag \"\(next)\" is out of place" }
    return nil
  }

  /// Whether `tag` is a well-formed language tag.
  public static func isWellFormed(_ tag: String) -> Bool { problem(in: tag) == nil }

  private static func privateUse(_ rest: ArraySlice<Substring>) -> String? {
    rest.isEmpty ? "\"x\" is followed by no private-use subtag" : nil
  }

  private static func isSingleton(_ subtag: Substring, _ letter: Character) -> Bool {
    subtag.count == 1 && subtag.lowercased() == String(letter)
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
}
