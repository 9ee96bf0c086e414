// libFuzzer target: the client message decoder (`ClientMessage.decode`), which reads every
// frame a client sends. Built and run by Fuzz/fuzz.sh.
//
// libwebsockets hands the server only text frames that are valid UTF-8, so inputs that are
// not are skipped. Besides "no crash", each input checks:
// - a frame that is not JSON is `bad_json` and carries no `ref`; any other refusal is
//   `bad_message`;
// - a command that decodes, encoded again with its `ref` (`serialized(ref:)`), decodes to
//   the same command and `ref`, and its text is then a fixed point.
import TableModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientMessage(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  guard let text = String(validating: bytes, as: UTF8.self) else { return 0 }
  let (ref, result) = ClientMessage.decode(text)
  switch result {
  case .failure(let error):
    let isJSON = (try? JSONValue(parsing: text)) != nil
    check(
      error.code == (isJSON ? .badMessage : .badJSON),
      "refused with \(error) (the text is \(isJSON ? "" : "not ")JSON)")
    check(isJSON || ref == nil, "a ref \(ref!) read from text that is not JSON")
  case .success(let message):
    let encoded = message.serialized(ref: ref)
    let (refAgain, resultAgain) = ClientMessage.decode(encoded)
    guard case .success(let messageAgain) = resultAgain else {
      fail("\(message) encodes to \(encoded), which is refused: \(resultAgain)")
    }
    check(messageAgain == message, "\(encoded) decodes to \(messageAgain), not \(message)")
    check(refAgain == ref, "\(encoded) decodes with ref \(String(describing: refAgain))")
    check(messageAgain.serialized(ref: refAgain) == encoded, "\(encoded) is not a fixed point")
  }
  return 0
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
  fatalError(message)
}
