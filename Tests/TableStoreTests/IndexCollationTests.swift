import Foundation
import StoreTestSupport
import TableModel
import Testing

@testable import TableStore

/// An indexed list's sections and order follow its language, as
/// `UILocalizedIndexedCollation` gives them; on both stores.
@Suite struct IndexCollationTests {
  /// An indexed list in `language` holding `names`, read back as its non-empty sections
  /// (`title: texts`) and its index titles.
  func indexed(_ names: [String], language: String?, kind: StoreKind, file: String? = nil) throws
    -> (titles: [String], sections: [String])
  {
    let rows = names.map { #"{"text": "\#($0)"}"# }.joined(separator: ", ")
    let tag = language.map { #""language": "\#($0)", "# } ?? ""
    let temporary = try TemporaryStore(
      kind: kind,
      json: #"{"id": "L", \#(tag)"title": "x", "index": true, "sections": [{"rows": [\#(rows)]}]}"#)
    defer { withExtendedLifetime(temporary) {} }
    let snapshot = try temporary.store.snapshot(of: "L")
    let titles = try #require(snapshot.indexTitles)
    #expect(snapshot.sections.map(\.header) == titles.map { $0 }, "every section present, in order")
    #expect(snapshot.sections.map(\.id) == titles.map { "L:\($0)" })
    return (
      titles,
      snapshot.sections.filter { !$0.rows.isEmpty }.map {
        "\($0.header!): \($0.rows.map(\.text).joined(separator: " "))"
      }
    )
  }

  static let latin = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }

  @Test(arguments: StoreKind.allCases)
  func russianHasCyrillicLettersThenLatin(kind: StoreKind) throws {
    let (titles, sections) = try indexed(
      ["Борис", "Анна", "Ёлка", "Яков", "Zoe", "山田", "анастасия", "Эмма", "Ωmega"],
      language: "ru", kind: kind)
    #expect(
      titles == "А Б В Г Д Е Ж З И Й К Л М Н О П Р С Т У Ф Х Ц Ч Ш Щ Ы Э Ю Я".split(separator: " ")
        .map(String.init) + Self.latin + ["#"])
    #expect(
      sections == [
        "А: анастасия Анна", "Б: Борис", "Е: Ёлка", "Э: Эмма", "Я: Яков", "Z: Zoe", "#: Ωmega 山田",
      ])
  }

  @Test(arguments: StoreKind.allCases)
  func swedishFilesÅÄÖAfterZ(kind: StoreKind) throws {
    let (titles, sections) = try indexed(
      ["Örjan", "Åsa", "Ärla", "Olle", "Anna", "Zack", "Émile", "Östen", "Yngve", "Übel"],
      language: "sv", kind: kind)
    #expect(titles == Self.latin + ["Å", "Ä", "Ö", "#"])
    #expect(
      sections == [
        "A: Anna", "E: Émile", "O: Olle", "Y: Übel Yngve", "Z: Zack", "Å: Åsa", "Ä: Ärla",
        "Ö: Örjan Östen",
      ])
  }

  @Test(arguments: StoreKind.allCases)
  func japaneseHasKanaRows(kind: StoreKind) throws {
    let (titles, sections) = try indexed(
      ["さくら", "アキラ", "がく", "かおり", "山田", "Ken", "わたる", "ひろし", "ﾀﾛｳ"],
      language: "ja", kind: kind)
    #expect(titles == ["あ", "か", "さ", "た", "な", "は", "ま", "や", "ら", "わ"] + Self.latin + ["#"])
    #expect(
      sections == [
        "あ: アキラ", "か: かおり がく", "さ: さくら", "た: ﾀﾛｳ", "は: ひろし", "わ: わたる", "K: Ken",
        "#: 山田",
      ])
  }

  @Test(arguments: StoreKind.allCases)
  func simplifiedChineseFilesByPinyin(kind: StoreKind) throws {
    let (titles, sections) = try indexed(
      ["王芳", "李娜", "张伟", "阿明", "Zoe", "Anna", "白云", "Анна"], language: "zh-Hans", kind: kind)
    #expect(titles == Self.latin + ["#"])
    #expect(sections == ["A: 阿明 Anna", "B: 白云", "L: 李娜", "W: 王芳", "Z: 张伟 Zoe", "#: Анна"])
  }

  @Test(arguments: StoreKind.allCases)
  func hebrewHasItsLetters(kind: StoreKind) throws {
    let (titles, sections) = try indexed(
      ["שרה", "אורי", "בתיה", "תמר", "David", "אבי", "أحمد"], language: "he", kind: kind)
    #expect(
      titles == "א ב ג ד ה ו ז ח ט י כ ל מ נ ס ע פ צ ק ר ש ת".split(separator: " ").map(String.init)
        + Self.latin + ["#"])
    #expect(sections == ["א: אבי אורי", "ב: בתיה", "ש: שרה", "ת: תמר", "D: David", "#: أحمد"])
  }

  @Test(arguments: StoreKind.allCases)
  func aListWithoutALanguageKeepsAToZ(kind: StoreKind) throws {
    let (titles, sections) = try indexed(
      ["Борис", "Åsa", "Örjan", "bob", "Anna"], language: nil, kind: kind)
    #expect(titles == Self.latin + ["#"])
    #expect(sections == ["A: Anna Åsa", "B: bob", "O: Örjan", "#: Борис"])
    // A language without an alphabet here (German) is indexed the same way.
    #expect(
      try indexed(["Örjan", "Anna"], language: "de", kind: kind).titles == Self.latin + ["#"])
  }

  @Test(arguments: StoreKind.allCases)
  func insertedAndRenamedRowsGoWhereTheLanguageSortsThem(kind: StoreKind) throws {
    let temporary = try TemporaryStore(
      kind: kind,
      json: #"""
        {"id": "L", "title": "x", "language": "sv", "index": true, "editable": true,
         "sections": [{"id": "S", "rows": [{"id": "a", "text": "Anna"}, {"id": "o", "text": "Olle"}, {"id": "z", "text": "Zack"}]}]}
        """#)
    defer { withExtendedLifetime(temporary) {} }
    let store = temporary.store
    let insert = try store.insertRow(in: "L", section: "L:A", after: nil, NewRow(text: "Örjan"))
    guard case .insert(let row, "L:Ö", nil)? = insert.lists.first?.edits?.first else {
      Issue.record("inserted as \(String(describing: insert.lists.first?.edits))")
      return
    }
    let rename = try store.updateRow("a", in: "L", text: "Åsa", detail: nil)
    #expect(rename.lists.first?.edits?.first == .move(row: "a", section: "L:Å", after: nil))
    let second = try store.insertRow(in: "L", section: "L:A", after: nil, NewRow(text: "Östen"))
    guard case .insert(_, "L:Ö", row.id)? = second.lists.first?.edits?.first else {
      Issue.record("inserted as \(String(describing: second.lists.first?.edits))")
      return
    }
    #expect(
      try store.snapshot(of: "L").sections.filter { !$0.rows.isEmpty }.map(\.header)
        == ["O", "Z", "Å", "Ö"])
    #expect(
      try store.snapshot(of: "L").sections.last { !$0.rows.isEmpty }?.rows.map(\.text) == [
        "Örjan", "Östen",
      ])
  }
}

/// The sort keys order texts exactly as Foundation's locale comparison does.
@Suite struct SortKeyCollatorTests {
  @Test(arguments: ["sv", "ru", "ja", "zh-Hans", "he", "ar", "el"])
  func keysSortAsFoundationCompares(language: String) throws {
    let collator = try #require(SortKeyCollator(locale: language.replacing("-", with: "_")))
    let texts = [
      "Åsa", "Ärla", "Örjan", "Anna", "anna", "Zack", "Émile", "Übel", "Борис", "Ёлка", "Елена",
      "Анна", "さくら", "サクラ", "がく", "かおり", "山田", "王芳", "白云", "阿明", "אבי", "תמר", "שרה",
      "أحمد", "احمد", "بدر", "Ωmega", "Άλφα", "άλφα", "Βήτα", "1984", "#tag", "",
    ]
    let locale = Foundation.Locale(identifier: language)
    let byKeys = texts.sorted {
      let (a, b) = (collator.key($0), collator.key($1))
      return a != b ? a.lexicographicallyPrecedes(b) : $0 < $1
    }
    let byFoundation = texts.sorted {
      switch $0.compare($1, options: [], range: nil, locale: locale) {
      case .orderedAscending: return true
      case .orderedDescending: return false
      case .orderedSame: return $0 < $1
      }
    }
    #expect(byKeys == byFoundation)
  }
}
