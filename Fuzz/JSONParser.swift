// libFuzzer target: TableModel's JSON parser (`JSONValue(parsing:)`), which reads every
// frame a client sends and every data file imported. Built and run by Fuzz/fuzz.sh.
//
// Besides "no crash", each input checks what must hold of any document the parser takes:
// - the compact and the indented text it serializes to parse back to an equal value, and
//   the compact text is a fixed point (serialize → parse → serialize gives the same bytes);
// - bytes that are valid UTF-8 get the same answer from the String entry point (which
//   skips the UTF-8 check) as from the bytes one, down to the offset of an error.
import TableModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let fromBytes = Result { () throws(JSONSyntaxError) in try JSONValue(parsing: bytes) }

  if let text = String(validating: bytes, as: UTF8.self) {
    let fromText = Result { () throws(JSONSyntaxError) in try JSONValue(parsing: text) }
    check(fromText == fromBytes, "the String and the bytes entry points disagree")
  }

  guard case .success(let value) = fromBytes else { return 0 }
  let compact = value.serializedUTF8
  guard let again = try? JSONValue(parsing: compact) else {
    fail("its serialized text does not parse: \(String(decoding: compact, as: UTF8.self))")
  }
  check(again == value, "serialize → parse gives a different value")
  check(again.serializedUTF8 == compact, "serialize → parse → serialize changes the text")
  let pretty = try? JSONValue(parsing: value.prettyPrinted)
  check(pretty == value, "the indented text parses to a different value")
  return 0
}

func check(_ condition: Bool, _ message: String) {
  if !condition { fail(message) }
}

func fail(_ message: String) -> Never {
  fatalError(message)
}
