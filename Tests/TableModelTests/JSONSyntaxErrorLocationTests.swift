import Testing

@testable import TableModel

@Suite struct JSONSyntaxErrorLocationTests {
  @Test func lineAndColumnCountLinesAndCharactersNotBytes() throws {
    let text = "{\n  \"größe\": 1,\n  \"ß\": ]\n}"  // ß is two bytes, one column
    let error = try #require(#expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: text) })
    let (line, column) = error.lineAndColumn(in: text.utf8)
    #expect(line == 3 && column == 8)
    #expect(error.described(in: text.utf8).hasSuffix("(line 3, column 8)"))
  }

  @Test func anErrorOnTheFirstLine() throws {
    let text = "[1, 2,, 3]"
    let error = try #require(#expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: text) })
    let (line, column) = error.lineAndColumn(in: text.utf8)
    #expect(line == 1 && column == error.offset + 1)
  }
}
