import CWebsockets
import TableModel

/// Requests to the server's own paths (``apiPathPrefix`` and
/// ``Configuration/dynamicPaths``): read whole, answered by the `HTTPResponder`, written
/// back in one piece on the next writeable callback.
extension WebSocketServer {
  /// Paths under this prefix are the `HTTPResponder`'s; everything else under `/` is a
  /// static file (or a dynamic path).
  public static let apiPathPrefix = "/api"

  /// One request being read or answered, by its lws connection.
  final class HTTPExchange {
    var request: HTTPRequest
    var response: HTTPResponse?
    var isTooLarge = false
    /// Why the request is answered without its responder (a cross-site write).
    var refusal: HTTPRefusal?
    /// An answer that came later (`HTTPResponder.respondLater(to:answer:)`): its status
    /// line and headers are written on the next writeable callback, its body on the one
    /// after.
    var headersPending = false

    init(request: HTTPRequest) {
      self.request = request
    }
  }

  /// The largest request body read, in bytes: an array of commands, each at most the
  /// WebSocket message limit.
  var maxRequestBody: Int { configuration.maxMessageSize * 16 }

  /// `LWS_CALLBACK_FILTER_HTTP_CONNECTION`: every HTTP request (not an upgrade) before
  /// lws looks at its path, static files included. A `Host` this server does not answer
  /// gets 403, and the connection closes.
  func filterHTTPRequest(_ wsi: OpaquePointer) -> Int32 {
    let host = Self.header(wsi, WSI_TOKEN_HOST)
    guard !upgradePolicy.hosts.allows(host: host) else { return 0 }
    let refusal = HTTPRefusal.host(host)
    reportRefusal(wsi, refusal)
    _ = Self.writeRefusal(wsi, status: refusal.status, reason: refusal.message)
    return 1
  }

  /// Tells the responder of a refused request, with what the request said.
  func reportRefusal(_ wsi: OpaquePointer, _ refusal: HTTPRefusal) {
    responder?.refused(request(wsi), refusal)
  }

  /// The request's line and headers (not its body); the peer is the client behind a
  /// trusted proxy (WebSocketServer+Limits).
  func request(_ wsi: OpaquePointer) -> HTTPRequest {
    let isPost = Self.header(wsi, WSI_TOKEN_POST_URI) != nil
    let path = Self.header(wsi, isPost ? WSI_TOKEN_POST_URI : WSI_TOKEN_GET_URI) ?? ""
    return HTTPRequest(
      method: isPost ? "POST" : "GET", path: String(path.prefix { $0 != "?" }),
      authorization: Self.header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION),
      peerAddress: clientAddress(wsi), origin: Self.header(wsi, WSI_TOKEN_ORIGIN),
      host: Self.header(wsi, WSI_TOKEN_HOST),
      contentType: Self.header(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE))
  }

  /// `LWS_CALLBACK_HTTP` on the API mount. Returns what the callback returns.
  func httpRequestStarted(_ wsi: OpaquePointer) -> Int32 {
    let exchange = HTTPExchange(request: request(wsi))
    let isPost = exchange.request.method == "POST"
    // Refused now, answered once the body has been read (nothing of it is applied).
    exchange.refusal = writePolicy.refusal(for: exchange.request)
    httpExchanges[wsi] = exchange
    // A POST's body follows (HTTP_BODY, then HTTP_BODY_COMPLETION); others are answered now.
    return isPost ? 0 : answer(wsi, exchange)
  }

  func httpBodyReceived(_ wsi: OpaquePointer, _ chunk: UnsafeRawBufferPointer) -> Int32 {
    guard let exchange = httpExchanges[wsi] else { return -1 }
    if exchange.request.body.count + chunk.count > maxRequestBody {
      exchange.isTooLarge = true
      exchange.request.body = []
    } else if !exchange.isTooLarge {
      exchange.request.body.append(contentsOf: chunk)
    }
    return 0
  }

  func httpBodyComplete(_ wsi: OpaquePointer) -> Int32 {
    guard let exchange = httpExchanges[wsi] else { return -1 }
    return answer(wsi, exchange)
  }

  /// Writes the status line and headers now, and the body when lws says it may; or, for a
  /// responder that answers later, waits for its answer without holding the thread.
  private func answer(_ wsi: OpaquePointer, _ exchange: HTTPExchange) -> Int32 {
    let isOwn =
      !exchange.isTooLarge && exchange.refusal == nil && isServersOwn(exchange.request.path)
    var response: HTTPResponse?
    if let refusal = exchange.refusal {
      responder?.refused(exchange.request, refusal)
      response = HTTPResponse(status: refusal.status, text: refusal.message + "\n")
    } else if exchange.isTooLarge {
      response = HTTPResponse(
        status: 413, text: "the request is larger than \(maxRequestBody) bytes\n")
    } else if isOwn {
      response = responder?.respond(to: exchange.request)
    } else if configuration.servesPage, exchange.request.method == "GET",
      configuration.publicDirectory == nil || exchange.request.path == EmbeddedPage.workerPath
    {
      // A folder without a `sw.js` still answers one: the worker that caches nothing
      // replaces a built page's worker that a browser kept from an earlier visit.
      response = EmbeddedPage.response(
        path: exchange.request.path,
        acceptEncoding: Self.header(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING),
        ifNoneMatch: Self.header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH),
        worker: configuration.pageWorker && configuration.publicDirectory == nil)
    }
    let waiting = WaitingExchange(wsi: wsi, exchange: exchange)
    if response == nil, isOwn, let responder,
      responder.respondLater(
        to: exchange.request,
        answer: { [self] response in
          perform { [self] in answerLater(waiting.wsi, waiting.exchange, response) }
        })
    {
      return 0
    }
    let found =
      response ?? HTTPResponse(status: 404, text: "no such path: \(exchange.request.path)\n")
    exchange.response = found
    if writeHeaders(wsi, found) != 0 { return -1 }
    lws_callback_on_writable(wsi)
    return 0
  }

  /// A later answer, on the service thread: written from the next writeable callback, if
  /// the request's connection is still there (the same exchange: lws reuses addresses).
  private func answerLater(_ wsi: OpaquePointer, _ exchange: HTTPExchange, _ response: HTTPResponse)
  {
    guard httpExchanges[wsi] === exchange else { return }
    exchange.response = response
    exchange.headersPending = true
    lws_callback_on_writable(wsi)
  }

  /// The status line and headers of `response`. Returns what a callback returns.
  private func writeHeaders(_ wsi: OpaquePointer, _ response: HTTPResponse) -> Int32 {
    let pre = Int(tableweb_lws_pre)
    var buffer = [UInt8](repeating: 0, count: pre + 4096)
    let failed = buffer.withUnsafeMutableBufferPointer { buffer -> Bool in
      let start = buffer.baseAddress! + pre
      var cursor: UnsafeMutablePointer<UInt8>? = start
      let end = buffer.baseAddress! + buffer.count
      let failed = response.contentType.withCString { type in
        lws_add_http_common_headers(
          wsi, UInt32(response.status), type, lws_filepos_t(response.body.count), &cursor, end)
      }
      return failed != 0
        || response.headers.sorted(by: { $0.key < $1.key }).contains {
          !Self.addHeader(wsi, $0.key, $0.value, at: &cursor, end: end)
        }
        || lws_finalize_write_http_header(wsi, start, &cursor, end) != 0
    }
    return failed ? -1 : 0
  }

  /// Whether `path` is one this server answers itself (lws also hands over a static
  /// file it did not find).
  private func isServersOwn(_ path: String) -> Bool {
    path.hasPrefix(Self.apiPathPrefix + "/") || configuration.dynamicPaths.contains(path)
  }

  /// `LWS_CALLBACK_HTTP_WRITEABLE`: the body of the answer, then the next request (or
  /// the close) on this connection.
  func httpWriteable(_ wsi: OpaquePointer) -> Int32 {
    guard let exchange = httpExchanges[wsi], let response = exchange.response else { return 0 }
    if exchange.headersPending {
      exchange.headersPending = false
      if writeHeaders(wsi, response) != 0 { return -1 }
      lws_callback_on_writable(wsi)
      return 0
    }
    httpExchanges[wsi] = nil
    let pre = Int(tableweb_lws_pre)
    var buffer = [UInt8](repeating: 0, count: pre) + response.body
    let written = buffer.withUnsafeMutableBufferPointer {
      lws_write(wsi, $0.baseAddress! + pre, response.body.count, LWS_WRITE_HTTP_FINAL)
    }
    guard written == response.body.count else { return -1 }
    return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
  }

  func httpClosed(_ wsi: OpaquePointer) {
    httpExchanges[wsi] = nil
  }
}

/// A request waiting for a later answer, handed to the responder's thread only to come
/// back to the service thread, where it is used.
private struct WaitingExchange: @unchecked Sendable {
  let wsi: OpaquePointer
  let exchange: WebSocketServer.HTTPExchange
}
