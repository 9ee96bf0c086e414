import Testing

@testable import TableModel

@Suite struct JSONSerializerTests {
  @Test func literals() {
    #expect(JSONValue.null.serialized == "null")
    #expect(JSONValue.bool(true).serialized == "true")
    #expect(JSONValue.bool(false).serialized == "false")
    #expect(JSONValue.array([]).serialized == "[]")
    #expect(JSONValue.object([:]).serialized == "{}")
  }

  @Test func wholeNumbersArePrintedWithoutAFraction() {
    #expect(JSONValue.int(3).serialized == "3")
    #expect(JSONValue.number(3.0).serialized == "3")
    #expect(JSONValue.int(-250).serialized == "-250")
    #expect(JSONValue.number(-0.0).serialized == "0")
    #expect(JSONValue.int(9_007_199_254_740_992).serialized == "9007199254740992")
    #expect(JSONValue.int(-9_007_199_254_740_992).serialized == "-9007199254740992")
  }

  @Test func otherNumbersArePrintedShortestAndValid() throws {
    #expect(JSONValue.number(1.5).serialized == "1.5")
    #expect(JSONValue.number(0.1).serialized == "0.1")
    #expect(JSONValue.number(1e20).serialized == "1e+20")
    #expect(JSONValue.number(1e-7).serialized == "1e-07")
    for number in [0.1, 1e20, 1e-7, 5e-324, .greatestFiniteMagnitude, -123.456, 1e300, 2e53 + 2] {
      #expect(try JSONValue(parsing: JSONValue.number(number).serialized) == .number(number))
    }
  }

  @Test func numbersJSONCannotWriteBecomeNull() {
    #expect(JSONValue.number(.nan).serialized == "null")
    #expect(JSONValue.number(.infinity).serialized == "null")
    #expect(JSONValue.number(-.infinity).serialized == "null")
  }

  @Test func stringsEscapeQuotesBackslashesAndControlCharacters() {
    #expect(JSONValue.string(#"say "hi" \ bye"#).serialized == #""say \"hi\" \\ bye""#)
    #expect(JSONValue.string("a\nb\rc\td\u{08}e\u{0C}f").serialized == #""a\nb\rc\td\be\ff""#)
    #expect(JSONValue.string("\u{0}\u{1}\u{1F}").serialized == #""\u0000\u0001\u001f""#)
  }

  @Test func stringsKeepEverythingElseAsItIs() {
    #expect(JSONValue.string("/").serialized == #""/""#)
    #expect(JSONValue.string("\u{7F}").serialized == "\"\u{7F}\"")
    #expect(JSONValue.string("héllo 😀 \u{2028}").serialized == "\"héllo 😀 \u{2028}\"")
  }

  @Test func everyScalarRoundTrips() throws {
    var scalars = (0..<0xD800).compactMap(Unicode.Scalar.init)
    scalars += [0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF].compactMap(Unicode.Scalar.init)
    for scalar in scalars {
      let string = "a" + String(Character(scalar)) + "\\"
      #expect(
        try JSONValue(parsing: JSONValue.string(string).serialized) == .string(string),
        "U+\(String(scalar.value, radix: 16))")
    }
  }

  @Test func membersAreWrittenInOrder() {
    var object = JSONObject()
    object["z"] = .int(1)
    object["a"] = .int(2)
    object["m"] = .int(3)
    object["z"] = .int(4)  // replaced in place
    #expect(JSONValue.object(object).serialized == #"{"z":4,"a":2,"m":3}"#)
  }

  @Test func compactTextRoundTripsExactly() throws {
    let texts = [
      #"{"type":"tap","list":"L7","row":"R42"}"#,
      #"[1,-2,0.5,"x",true,false,null,[],{},{"a":[{"b":null}]}]"#,
      #"{"é":"😀","esc":"\"\\\n\u0001"}"#,
    ]
    for text in texts {
      #expect(try JSONValue(parsing: text).serialized == text)
    }
  }

  @Test func valuesRoundTrip() throws {
    let values: [JSONValue] = [
      .null, .int(0), .number(-1.25), .string(""), .array([.array([.array([])])]),
      .object(["b": .int(1), "a": .array([.null, .bool(true)]), "": .string("empty key")]),
    ]
    for value in values {
      #expect(try JSONValue(parsing: value.serialized) == value)
      #expect(try JSONValue(parsing: value.prettyPrinted) == value)
    }
  }

  @Test func theBytesAreTheTextsUTF8() {
    let value = JSONValue.object(["é": .array([.string("a\u{1}😀"), .int(-12), .number(0.5)])])
    #expect(value.serializedUTF8 == Array(value.serialized.utf8))
    #expect(value.serialized == "{\"é\":[\"a\\u0001😀\",-12,0.5]}")
  }

  @Test func prettyPrintingIndentsByTwoSpaces() {
    let value = JSONValue.object([
      "a": .array([.int(1), .int(2)]), "b": .object([:]), "c": .array([]),
    ])
    #expect(
      value.prettyPrinted == """
        {
          "a": [
            1,
            2
          ],
          "b": {},
          "c": []
        }
        """)
  }
}

@Suite struct JSONObjectTests {
  @Test func equalityAndHashIgnoreOrder() {
    let ab: JSONObject = ["a": .int(1), "b": .int(2)]
    let ba: JSONObject = ["b": .int(2), "a": .int(1)]
    #expect(ab == ba)
    #expect(ab.hashValue == ba.hashValue)
    #expect(ab != ["a": .int(1)])
    #expect(ab != ["a": .int(1), "b": .int(3)])
    #expect(ab != ["a": .int(1), "c": .int(2)])
  }

  @Test func assigningNilRemovesAMember() {
    var object: JSONObject = ["a": .int(1), "b": .int(2)]
    object["a"] = nil
    object["missing"] = nil
    #expect(object.keys == ["b"])
  }

  @Test func aRepeatedKeyInALiteralKeepsItsFirstPlaceAndLastValue() {
    let object = JSONObject([("a", .int(1)), ("b", .int(2)), ("a", .int(3))])
    #expect(object.keys == ["a", "b"])
    #expect(object["a"] == .int(3))
  }

  @Test func accessors() {
    let value = JSONValue.object(["s": .string("x"), "n": .int(2), "b": .bool(true)])
    #expect(value["s"]?.stringValue == "x")
    #expect(value["n"]?.intValue == 2)
    #expect(value["b"]?.boolValue == true)
    #expect(value["missing"] == nil)
    #expect(JSONValue.string("x")["s"] == nil)
    #expect(JSONValue.string(nil as String?) == .null)
    #expect(JSONValue.null.isNull)
    #expect(JSONValue.array([]).kindName == "an array")
  }
}
