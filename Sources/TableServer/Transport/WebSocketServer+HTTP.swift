import CWebsockets

#if canImport(Glibc)
  import Glibc
#endif

extension WebSocketServer {
  /// Writes the responder's answer to a GET of a dynamic path, then ends the transaction.
  /// Returns what the lws callback returns (non-zero closes the connection).
  func answerDynamicPath(_ wsi: OpaquePointer) -> Int32 {
    precondition(isOnServiceThread, "lws callbacks run on the service thread")
    let uri = Self.header(wsi, WSI_TOKEN_GET_URI) ?? ""
    let path = String(uri.prefix { $0 != "?" })
    let answer: HTTPAnswer
    if let responder, configuration.dynamicPaths.contains(path) {
      answer = responder.answer(path: path)
    } else {
      answer = HTTPAnswer(status: 404, text: "not found\n")
    }
    return write(answer, to: wsi) ? (lws_http_transaction_completed(wsi) != 0 ? -1 : 0) : -1
  }

  private func write(_ answer: HTTPAnswer, to wsi: OpaquePointer) -> Bool {
    let pre = Int(tableweb_lws_pre)
    var headers = [UInt8](repeating: 0, count: pre + 1024)
    let headersWritten = headers.withUnsafeMutableBufferPointer { buffer -> Bool in
      let start = buffer.baseAddress! + pre
      var cursor: UnsafeMutablePointer<UInt8>? = start
      let end = buffer.baseAddress! + buffer.count
      guard
        lws_add_http_common_headers(
          wsi, UInt32(answer.status), answer.contentType, lws_filepos_t(answer.body.count),
          &cursor, end) == 0
      else { return false }
      for (name, value) in [("cache-control:", "no-store"), ("x-content-type-options:", "nosniff")]
      where !Self.addHeader(wsi, name, value, at: &cursor, end: end) {
        return false
      }
      return lws_finalize_write_http_header(wsi, start, &cursor, end) == 0
    }
    guard headersWritten else { return false }
    var body = [UInt8](repeating: 0, count: pre) + answer.body
    let written = body.withUnsafeMutableBufferPointer {
      lws_write(wsi, $0.baseAddress! + pre, answer.body.count, LWS_WRITE_HTTP_FINAL)
    }
    return written == answer.body.count
  }
}
