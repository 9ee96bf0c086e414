import Testing

@testable import TableModel

/// BCP 47 well-formedness, and `screen.language` on the wire.
@Suite struct LanguageTagTests {
  @Test(arguments: [
    "he", "pt-BR", "zh-Hans", "zh-Hant-TW", "sr-Latn-RS", "es-419", "de-CH-1901", "EN-us",
    "en-US-u-co-phonebk", "x-whatever", "zh-yue-HK", "ca-valencia",
  ])
  func wellFormedTagsPass(tag: String) {
    #expect(LanguageTag.problem(in: tag) == nil)
  }

  @Test(arguments: [
    ("", "empty"),
    ("en_US", #"subtags are separated by "-", not "_" ("en-US")"#),
    ("english language", #"subtag "english language" is not 1 to 8 ASCII letters and digits"#),
    ("e", #""e" is not a language subtag"#),
    ("en-", "an empty subtag"),
    ("123", #""123" is not a language subtag"#),
    ("en-US-US", #"subtag "US" is out of place"#),
    ("en-a", #"extension "a" has no subtags"#),
    ("en-x", #""x" is followed by no private-use subtag"#),
    ("עברית", "is not 1 to 8 ASCII letters and digits"),
  ])
  func malformedTagsSayWhy(tag: String, expected: String) throws {
    let problem = try #require(LanguageTag.problem(in: tag))
    #expect(problem.contains(expected), "\(problem)")
  }

  @Test func aScreenCarriesItsLanguageBothWays() throws {
    var screen = LoadedScreen(list: "L", version: 1, title: "ראשי")
    #expect(screen.jsonValue["language"] == nil, "left out when not known")
    screen.language = "he"
    #expect(screen.jsonValue["language"] == .string("he"))
    let message = ServerMessage.screen(
      ScreenMessage(transition: .none, stack: ["ראשי"], screen: screen))
    let decoded = try ServerMessage.decode(message.serialized).get()
    guard case .screen(let back) = decoded else {
      Issue.record("decoded as \(decoded)")
      return
    }
    #expect(back.screen.language == "he")
  }
}
