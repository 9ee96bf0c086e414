// libFuzzer target: the data file decoder (`AppScreen(jsonBytes:)`, TableStore's
// `AppDecoder`), which reads every file `tableweb import` is given. Built and run by
// Fuzz/fuzz.sh.
//
// Besides "no crash", each input checks:
// - a refusal is `invalidData` (a file's problem, with its JSON path), never another error;
// - a file that is accepted writes back (`json`, what `tableweb export` writes) to a file
//   that is accepted as the same screen, and that text is a fixed point.
import TableModel
import TableStore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let screen: AppScreen
  do {
    screen = try AppScreen(jsonBytes: bytes)
  } catch {
    guard case .invalidData = error else { fail("refused with \(error)") }
    _ = error.description
    return 0
  }
  let written = screen.json.serializedUTF8
  let again: AppScreen
  do {
    again = try AppScreen(jsonBytes: written)
  } catch {
    fail("its export \(String(decoding: written, as: UTF8.self)) is refused: \(error)")
  }
  check(again == screen, "export → import gives a different screen")
  check(again.json.serializedUTF8 == written, "export → import → export changes the text")
  return 0
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
  fatalError(message)
}
