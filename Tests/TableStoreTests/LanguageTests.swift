import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// Data format v1.2's `language`: checked on import, kept by both stores, resolved for
/// each screen (its own, else that of the screen leading to it, up to the root's), given
/// back by export.
@Suite struct LanguageTests {
  static let app = #"""
    {"id": "Lroot", "title": "ראשי", "language": "he", "sections": [{"id": "Sroot", "rows": [
      {"id": "Rnames", "text": "שמות", "children":
        {"id": "Lnames", "title": "שמות", "sections": [{"rows": [{"text": "אבי"}]}]}},
      {"id": "Rworld", "text": "World", "children":
        {"id": "Lworld", "title": "Welt", "language": "de-CH", "sections": [{"rows": [
          {"id": "Rzurich", "text": "Zürich", "children":
            {"id": "Lzurich", "title": "Zürich", "sections": [{"rows": []}]}}]}]}}]}]}
    """#

  @Test(arguments: [
    (
      #"{"title": "x", "language": "en_US", "sections": [{"rows": []}]}"#,
      #"language: "en_US" is not a BCP 47 language tag like "he", "pt-BR" or "zh-Hans": subtags are separated by "-", not "_" ("en-US")"#
    ),
    (
      #"{"title": "x", "language": 5, "sections": [{"rows": []}]}"#,
      "language: expected a string or null, found a number"
    ),
    (
      #"{"title": "x", "sections": [{"rows": [{"text": "a", "children": {"title": "y", "language": "hebrew!", "sections": [{"rows": []}]}}]}]}"#,
      #"sections[0].rows[0].children.language: "hebrew!" is not a BCP 47 language tag"#
    ),
  ])
  func badLanguagesAreRefusedWithTheirPath(file: String, expected: String) throws {
    let problem = try #require(importProblem(file))
    #expect(problem.hasPrefix(expected), "\(problem)")
  }

  @Test(arguments: StoreKind.allCases)
  func eachScreenHasItsOwnLanguageElseTheApps(kind: StoreKind) throws {
    let temporary = try TemporaryStore(kind: kind, json: Self.app)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    #expect(try store.snapshot(of: "Lroot").language == "he")
    #expect(try store.snapshot(of: "Lnames").language == "he")
    #expect(try store.snapshot(of: "Lworld").language == "de-CH")
    // A screen without its own takes the nearest one's on the way from the root: a card
    // drilled into from a German list is German, not the app's Hebrew.
    #expect(try store.snapshot(of: "Lzurich").language == "de-CH")
    // Export gives back each screen's own, not the one it takes from the root.
    let exported = try store.exportApp()
    #expect(exported.language == "he")
    #expect(exported.sections[0].rows[0].children?.language == nil)
    #expect(exported.sections[0].rows[1].children?.language == "de-CH")
    #expect(exported.sections[0].rows[1].children?.sections[0].rows[0].children?.language == nil)
    let text = try store.exportJSON()
    try store.importJSON(text)
    #expect(try store.exportJSON() == text)
  }

  @Test(arguments: StoreKind.allCases)
  func anAppWithoutALanguageHasNone(kind: StoreKind) throws {
    let temporary = try TemporaryStore(
      kind: kind, json: #"{"id": "L", "title": "x", "sections": [{"rows": [{"text": "a"}]}]}"#)
    defer { withExtendedLifetime(temporary) {} }
    #expect(try temporary.store.snapshot(of: "L").language == nil)
    #expect(!(try temporary.store.exportJSON().contains("language")))
  }
}
