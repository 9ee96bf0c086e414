import Testing

@testable import TableModel

/// Parses `text`, or records the syntax error and returns nil.
private func parse(_ text: String) -> JSONValue? {
  try? JSONValue(parsing: text)
}

/// The syntax error `text` is refused with, or nil when it parses.
private func refusal(_ text: String) -> JSONSyntaxError? {
  do {
    _ = try JSONValue(parsing: text)
    return nil
  } catch {
    return error
  }
}

private func refusal(bytes: [UInt8]) -> JSONSyntaxError? {
  do {
    _ = try JSONValue(parsing: bytes)
    return nil
  } catch {
    return error
  }
}

@Suite struct JSONParserTests {
  @Test func literalsArraysAndObjects() {
    #expect(parse("null") == .null)
    #expect(parse("true") == .bool(true))
    #expect(parse("false") == .bool(false))
    #expect(parse("[]") == .array([]))
    #expect(parse("{}") == .object([:]))
    #expect(
      parse(#"[1,"a",[null],{"k":false}]"#)
        == .array([.int(1), .string("a"), .array([.null]), .object(["k": .bool(false)])]))
  }

  @Test func whiteSpaceIsSpaceTabNewlineAndReturnOnly() {
    #expect(parse(" \t\r\n[ 1 , 2 ]\n ") == .array([.int(1), .int(2)]))
    #expect(refusal("\u{0C}1") != nil)  // form feed
    #expect(refusal("\u{A0}1") != nil)  // no-break space
    #expect(refusal("\u{FEFF}{}") != nil)  // a byte order mark is not white space
  }

  @Test func emptyInputIsRefused() {
    #expect(refusal("")?.reason == "unexpected end of input")
    #expect(refusal("   ")?.reason == "unexpected end of input")
  }

  // MARK: Strings

  @Test func simpleEscapes() {
    #expect(parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{08} \u{0C} \n \r \t"))
  }

  @Test func unicodeEscapesInEitherCase() {
    #expect(parse(#""\u0041\u00e9\u00E9\u20AC""#) == .string("Aéé€"))
    #expect(parse(#""\u0000""#) == .string("\u{0}"))
  }

  @Test func surrogatePairsMakeOneScalar() {
    #expect(parse(#""\ud83d\ude00""#) == .string("😀"))
    #expect(parse(#""\uD834\uDD1E!""#) == .string("𝄞!"))
  }

  @Test func loneSurrogatesBecomeTheReplacementCharacter() {
    #expect(parse(#""\ud800""#) == .string("\u{FFFD}"))
    #expect(parse(#""\udc00x""#) == .string("\u{FFFD}x"))
    #expect(parse(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
    #expect(parse(#""\ud800\ud83d\ude00""#) == .string("\u{FFFD}😀"))
    #expect(parse(#""\ude00\ud83d""#) == .string("\u{FFFD}\u{FFFD}"))
    #expect(parse(#""\ud800\n""#) == .string("\u{FFFD}\n"))
  }

  @Test func badEscapesAreRefused() {
    #expect(refusal(#""\x""#)?.reason == "bad escape")
    #expect(refusal(#""\u12""#) != nil)
    #expect(refusal(#""\u12G4""#)?.reason == #"bad \u escape"#)
    #expect(refusal(#""\ud83d\uZZZZ""#)?.reason == #"bad \u escape"#)
    #expect(refusal(#""\"#) != nil)
    #expect(refusal(#""\'""#) != nil)
  }

  @Test func rawControlCharactersInStringsAreRefused() {
    for byte in UInt8(0)..<0x20 {
      let text = "\"a" + String(UnicodeScalar(byte)) + "b\""
      #expect(refusal(text)?.reason == "control character in string", "byte \(byte)")
      // Also after an escape, on the slow path.
      let escaped = "\"\\n" + String(UnicodeScalar(byte)) + "\""
      #expect(refusal(escaped)?.reason == "control character in string", "byte \(byte)")
    }
    #expect(parse("\"\u{7F}\"") == .string("\u{7F}"))  // DEL is allowed
  }

  @Test func nonASCIIStringsAsTheyAre() {
    #expect(parse("\"héllo wörld 😀 \u{2028}\"") == .string("héllo wörld 😀 \u{2028}"))
    #expect(parse("\"\\t😀\"") == .string("\t😀"))
  }

  @Test func invalidUTF8IsRefused() {
    let cases: [[UInt8]] = [
      [0x22, 0xFF, 0x22],  // never valid
      [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
      [0x22, 0xE2, 0x82, 0x22],  // truncated three-byte sequence
      [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
      [0x22, 0x80, 0x22],  // a lone continuation byte
      [0x22, 0x5C, 0x6E, 0xFF, 0x22],  // after an escape
    ]
    for bytes in cases {
      #expect(refusal(bytes: bytes)?.reason == "invalid UTF-8 in string", "\(bytes)")
    }
    #expect(refusal(bytes: [0xFF]) != nil)
    #expect(refusal(bytes: [0x5B, 0xC3, 0xA9, 0x5D]) != nil)  // é outside a string
    #expect((try? JSONValue(parsing: [0x22, 0xC3, 0xA9, 0x22] as [UInt8])) == .string("é"))
  }

  @Test func stringsAreAcceptedExactlyWhenTheyAreValidUTF8() {
    // Against the standard library's validation: every two-byte sequence, and three- and
    // four-byte ones around each lead byte's limits.
    var sequences: [[UInt8]] = []
    for first in UInt8(0x80)...0xFF {
      for second in UInt8(0)...0xFF {
        sequences.append([first, second])
        for third: UInt8 in [0x7F, 0x80, 0xBF, 0xC0] {
          sequences.append([first, second, third])
          if first >= 0xF0 {
            for fourth: UInt8 in [0x7F, 0xBF, 0xC0] {
              sequences.append([first, second, third, fourth])
            }
          }
        }
      }
    }
    for bytes in sequences where !bytes.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
      let valid = String(validating: bytes, as: UTF8.self)
      let parsed = try? JSONValue(parsing: [0x22] + bytes + [0x22])
      if parsed != valid.map(JSONValue.string) {
        Issue.record("\(bytes.map { String($0, radix: 16) }): parsed \(String(describing: parsed))")
        return
      }
    }
  }

  @Test func unterminatedStringsAreRefused() {
    #expect(refusal(#""abc"#)?.reason == "unterminated string")
    #expect(refusal(#""a\nbc"#)?.reason == "unterminated string")
  }

  // MARK: Numbers

  @Test func numbers() {
    #expect(parse("0") == .number(0))
    #expect(parse("42") == .int(42))
    #expect(parse("-7") == .int(-7))
    #expect(parse("1.5") == .number(1.5))
    #expect(parse("-1.5e3") == .number(-1500))
    #expect(parse("1E2") == .int(100))
    #expect(parse("1e+2") == .int(100))
    #expect(parse("25e-2") == .number(0.25))
    #expect(parse("0.000001") == .number(0.000001))
    #expect(parse("1.7976931348623157e308") == .number(.greatestFiniteMagnitude))
    #expect(parse("1e-400") == .number(0))  // underflow is zero
  }

  @Test func minusZeroIsNegativeZeroAndEqualsZero() {
    guard case .number(let number)? = parse("-0") else {
      Issue.record("-0 is not a number")
      return
    }
    #expect(number == 0 && number.sign == .minus)
    #expect(parse("-0")?.intValue == 0)
    #expect(parse("-0.0") == .number(0))
  }

  @Test func malformedNumbersAreRefused() {
    for text in [
      "01", "-", "-a", "1.", ".5", "+1", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity",
      "1.e5", "--1", "1..2",
    ] {
      #expect(refusal(text) != nil, "\(text)")
    }
  }

  @Test func numbersBeyondDoubleAreRefused() {
    #expect(refusal("1e400")?.reason == "number out of range")
    #expect(refusal("-1e400")?.reason == "number out of range")
    #expect(
      refusal("[" + String(repeating: "9", count: 400) + "]")?.reason == "number out of range")
  }

  @Test func intValueOnlyForWholeNumbersThatFit() {
    #expect(parse("3.0")?.intValue == 3)
    #expect(parse("3.5")?.intValue == nil)
    #expect(parse("9007199254740992")?.intValue == 9_007_199_254_740_992)
    #expect(parse("1e20")?.intValue == nil)
    #expect(parse("\"3\"")?.intValue == nil)
  }

  // MARK: Structure

  @Test func nestingUpToTheLimitIsAccepted() {
    let depth = JSONValue.maximumDepth
    #expect(
      parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)) != nil)
    let objects =
      String(repeating: #"{"a":"#, count: depth - 1) + "{}"
      + String(repeating: "}", count: depth - 1)
    #expect(parse(objects) != nil)
  }

  @Test func nestingBeyondTheLimitIsRefused() {
    let depth = JSONValue.maximumDepth + 1
    let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    #expect(refusal(arrays)?.reason == "nested more than 256 deep")
    #expect(refusal(arrays)?.offset == depth - 1)
    let objects =
      String(repeating: #"{"a":"#, count: depth - 1) + "{}"
      + String(repeating: "}", count: depth - 1)
    #expect(refusal(objects)?.reason == "nested more than 256 deep")
    // Far deeper input, unterminated, fails at the limit without exhausting the stack.
    #expect(
      refusal(String(repeating: "[", count: 1_000_000))?.reason == "nested more than 256 deep")
  }

  @Test func siblingContainersDoNotAddUpToTheLimit() {
    let sibling = "[" + String(repeating: "[],", count: 1000) + "[]]"
    #expect(parse(sibling)?.arrayValue?.count == 1001)
  }

  @Test func everyTruncationOfADocumentIsRefused() {
    let document = #"{"a":[1,"x\u00e9",true,null,{"b":-2.5e1}],"c":"\ud83d\ude00"}"#
    #expect(parse(document) != nil)
    let bytes = Array(document.utf8)
    for length in 0..<bytes.count {
      #expect(refusal(bytes: Array(bytes[..<length])) != nil, "first \(length) bytes")
    }
  }

  @Test func trailingTextIsRefused() {
    for text in ["{} x", "1 2", "[]]", #""a""b""#, "nullnull", "true,", "{}{}"] {
      #expect(refusal(text)?.reason == "unexpected text after the JSON value", "\(text)")
    }
  }

  @Test func malformedContainersAreRefused() {
    #expect(refusal("[1,]")?.offset == 3)
    #expect(refusal(#"{"a":1,}"#)?.reason == "expected a string key")
    #expect(refusal(#"{a:1}"#)?.reason == "expected a string key")
    #expect(refusal(#"{"a" 1}"#)?.reason == "expected ':'")
    #expect(refusal(#"{"a":1 "b":2}"#)?.reason == "expected ',' or '}'")
    #expect(refusal("[1 2]")?.reason == "expected ',' or ']'")
    #expect(refusal("[,1]") != nil)
    #expect(refusal("tru") != nil)
    #expect(refusal("nul") != nil)
    #expect(refusal("True") != nil)
  }

  @Test func aRepeatedKeyKeepsItsFirstPlaceAndItsLastValue() throws {
    let object = try #require(parse(#"{"a":1,"b":2,"a":3}"#)?.objectValue)
    #expect(object.keys == ["a", "b"])
    #expect(object["a"] == .int(3))
  }

  @Test func objectsKeepTheirMembersInOrder() throws {
    let object = try #require(parse(#"{"z":1,"a":2,"m":3}"#)?.objectValue)
    #expect(object.keys == ["z", "a", "m"])
  }

  @Test func anObjectWithManyKeysParses() throws {
    // Quadratic work here would take many seconds.
    let count = 50_000
    let text = "{" + (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
    let object = try #require(parse(text)?.objectValue)
    #expect(object.count == count)
    #expect(object["k49999"] == .int(49_999))
  }
}
