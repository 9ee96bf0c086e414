import CWebsockets
import TableModel

// libwebsockets calls these C functions on the service thread. They capture nothing: the
// server is the context's user pointer, and each connection's per-session data holds its
// ConnectionID number.

/// `protocols[0]`: the static files, the upgrade check, and the cross-thread wake-up.
func httpProtocolCallback(
  _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
  _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
  guard let wsi, let server = WebSocketServer.owning(wsi) else {
    return lws_callback_http_dummy(wsi, reason, user, input, length)
  }
  switch reason {
  case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
    // Broadcast to every protocol; only this one runs the work. Non-zero would close
    // the cancel pipe.
    server.runPendingWork()
    return 0
  case LWS_CALLBACK_FILTER_NETWORK_CONNECTION:
    // `input` is the accepted socket; lws closes it when this returns non-zero.
    return server.connectionAccepted(descriptor: Int32(truncatingIfNeeded: Int(bitPattern: input)))
  case LWS_CALLBACK_WSI_CREATE:
    server.connectionCreated(wsi)
    return 0
  case LWS_CALLBACK_WSI_DESTROY:
    server.connectionDestroyed(wsi)
    return lws_callback_http_dummy(wsi, reason, user, input, length)
  case LWS_CALLBACK_FILTER_HTTP_CONNECTION:
    // A plain request's headers are in: its address's limits first, then its Host.
    let refused = server.headersArrived(wsi)
    guard refused == 0 else { return refused }
    return server.filterHTTPRequest(wsi)
  case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
    let refused = server.headersArrived(wsi)
    guard refused == 0 else { return refused }
    let upgrade = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? ""
    guard upgrade.lowercased() == "websocket" else { return 0 }
    return server.confirmUpgrade(wsi)
  case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
    // A WebSocket bound to this protocol asked for no known subprotocol.
    return 1
  case LWS_CALLBACK_HTTP:
    return server.httpRequestStarted(wsi)
  case LWS_CALLBACK_HTTP_BODY:
    return server.httpBodyReceived(
      wsi, UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length))
  case LWS_CALLBACK_HTTP_BODY_COMPLETION:
    return server.httpBodyComplete(wsi)
  case LWS_CALLBACK_HTTP_WRITEABLE:
    return server.httpWriteable(wsi)
  case LWS_CALLBACK_CLOSED_HTTP:
    server.httpClosed(wsi)
    return lws_callback_http_dummy(wsi, reason, user, input, length)
  case LWS_CALLBACK_ADD_HEADERS:
    guard let input else { return 0 }
    let arguments = input.assumingMemoryBound(to: lws_process_html_args.self)
    return WebSocketServer.addStaticFileHeaders(wsi, into: arguments) ? 0 : 1
  default:
    return lws_callback_http_dummy(wsi, reason, user, input, length)
  }
}

/// `protocols[1]`, `tableweb.v1`: the WebSocket connections.
func webSocketProtocolCallback(
  _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
  _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
  guard let wsi, let server = WebSocketServer.owning(wsi) else { return 0 }
  switch reason {
  case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
    // Checked again for upgrades that did not pass HTTP_CONFIRM_UPGRADE (HTTP/2).
    return server.upgradeDecision(wsi) == .accept ? 0 : 1
  case LWS_CALLBACK_ESTABLISHED:
    guard let user else { return -1 }
    server.connectionEstablished(wsi, user: user)
    return 0
  case LWS_CALLBACK_RECEIVE:
    guard let id = WebSocketServer.connectionID(user) else { return -1 }
    let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
    server.received(chunk, isFinal: lws_is_final_fragment(wsi) != 0, on: id)
    return 0
  case LWS_CALLBACK_RECEIVE_PONG:
    guard let id = WebSocketServer.connectionID(user) else { return -1 }
    server.openConnection(id)?.heard()
    return 0
  case LWS_CALLBACK_SERVER_WRITEABLE:
    guard let id = WebSocketServer.connectionID(user) else { return -1 }
    return server.writeable(id) ? 0 : -1
  case LWS_CALLBACK_CLOSED:
    guard let id = WebSocketServer.connectionID(user) else { return 0 }
    server.connectionClosed(id)
    return 0
  default:
    return 0
  }
}

extension WebSocketServer {
  static func owning(_ wsi: OpaquePointer) -> WebSocketServer? {
    guard let context = lws_get_context(wsi), let user = lws_context_user(context) else {
      return nil
    }
    return Unmanaged<WebSocketServer>.fromOpaque(user).takeUnretainedValue()
  }

  static func connectionID(_ user: UnsafeMutableRawPointer?) -> ConnectionID? {
    guard let number = user?.load(as: UInt64.self), number != 0 else { return nil }
    return ConnectionID(number)
  }

  /// A request header, or nil when absent.
  static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String? {
    let length = lws_hdr_total_length(wsi, token)
    guard length > 0 else { return nil }
    var buffer = [CChar](repeating: 0, count: Int(length) + 1)
    guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// The peer's IP address, or "" when lws cannot say.
  static func peerAddress(_ wsi: OpaquePointer) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  func upgradeDecision(_ wsi: OpaquePointer) -> UpgradePolicy.Decision {
    upgradePolicy.decide(
      path: Self.header(wsi, WSI_TOKEN_GET_URI) ?? "",
      subprotocols: Self.header(wsi, WSI_TOKEN_PROTOCOL),
      origin: Self.header(wsi, WSI_TOKEN_ORIGIN),
      host: Self.header(wsi, WSI_TOKEN_HOST))
  }

  /// Answers a refused upgrade with its HTTP status; 0 lets lws go on with the upgrade.
  func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
    let decision = upgradeDecision(wsi)
    switch decision {
    case .accept:
      return 0
    case .refuse(let status, let reason):
      if let counted = decision.countedReason {
        reportRefusal(wsi, HTTPRefusal(reason: counted, status: status, message: reason))
      }
      return Self.writeRefusal(wsi, status: status, reason: reason) ? 1 : -1
    }
  }

  /// Answers an upgrade with `status` and closes. Written by hand because
  /// `lws_return_http_status` answers upgrades as HTTP/1.0, which strict WebSocket
  /// clients do not accept as a refusal.
  static func writeRefusal(_ wsi: OpaquePointer, status: Int, reason: String) -> Bool {
    let response = refusalResponse(status: status, reason: reason)
    let pre = Int(tableweb_lws_pre)
    var buffer = [UInt8](repeating: 0, count: pre) + response
    let written = buffer.withUnsafeMutableBufferPointer {
      lws_write(wsi, $0.baseAddress! + pre, response.count, LWS_WRITE_HTTP_HEADERS)
    }
    return written == response.count
  }

  /// A refusal's whole HTTP/1.1 response: status line, plain-text `reason`, and the
  /// connection closed after it; `retryAfter` seconds for a limit that frees up.
  static func refusalResponse(status: Int, reason: String, retryAfter: Int? = nil) -> [UInt8] {
    let title =
      switch status {
      case 404: "Not Found"
      case 503: "Service Unavailable"
      default: "Forbidden"
      }
    let body = reason + "\n"
    let retry = retryAfter.map { "retry-after: \($0)\r\n" } ?? ""
    return Array(
      """
      HTTP/1.1 \(status) \(title)\r
      content-type: text/plain; charset=utf-8\r
      content-length: \(body.utf8.count)\r
      \(retry)connection: close\r
      \r
      \(body)
      """.utf8)
  }

  /// Adds ``staticFileHeaders`` to a static file's response.
  static func addStaticFileHeaders(
    _ wsi: OpaquePointer, into arguments: UnsafeMutablePointer<lws_process_html_args>
  ) -> Bool {
    for (name, value) in staticFileHeaders {
      let start = UnsafeMutableRawPointer(arguments.pointee.p!).assumingMemoryBound(to: UInt8.self)
      var cursor: UnsafeMutablePointer<UInt8>? = start
      let end = start + Int(arguments.pointee.max_len)
      guard addHeader(wsi, name, value, at: &cursor, end: end) else { return false }
      let written = cursor! - start
      arguments.pointee.p += written
      arguments.pointee.max_len -= Int32(written)
    }
    return true
  }

  /// Writes `name: value` (name with its colon) at `cursor`, moving it on; false when it
  /// does not fit before `end`.
  static func addHeader(
    _ wsi: OpaquePointer, _ name: String, _ value: String,
    at cursor: inout UnsafeMutablePointer<UInt8>?, end: UnsafeMutablePointer<UInt8>
  ) -> Bool {
    let failed = name.withCString { name in
      value.withCString { value in
        lws_add_http_header_by_name(
          wsi, UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self),
          UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), Int32(strlen(value)),
          &cursor, end)
      }
    }
    return failed == 0
  }

  func connectionEstablished(_ wsi: OpaquePointer, user: UnsafeMutableRawPointer) {
    precondition(isOnServiceThread, "lws callbacks run on the service thread")
    let id = ConnectionID(nextConnectionNumber)
    nextConnectionNumber += UInt64(lane.count)
    user.storeBytes(of: id.rawValue, as: UInt64.self)
    connections[id] = WebSocketConnection(
      id: id, wsi: wsi,
      queue: OutgoingQueue(
        maxFrames: configuration.maxQueuedFrames, maxBytes: configuration.maxQueuedBytes),
      assembler: MessageAssembler(limit: configuration.maxMessageSize))
    connections[id]?.request = UpgradeRequest(
      cookie: Self.header(wsi, WSI_TOKEN_HTTP_COOKIE),
      authorization: Self.header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION),
      peerAddress: clientAddress(wsi))
    delegate?.connectionDidOpen(id)
    if let hello = UpgradePolicy.hello(in: Self.header(wsi, WSI_TOKEN_PROTOCOL)) {
      // As if it were the connection's first message.
      if hello.utf8.count > configuration.maxMessageSize {
        delegate?.connectionDidSendTooLarge(id)
      } else {
        delegate?.connection(id, didReceive: hello)
      }
    }
  }

  func received(_ chunk: UnsafeRawBufferPointer, isFinal: Bool, on id: ConnectionID) {
    guard let connection = connections[id] else { return }
    connection.heard()
    switch connection.assembler.append(chunk, isFinal: isFinal) {
    case .incomplete:
      break
    case .message(let bytes):
      delegate?.connection(id, didReceive: String(decoding: bytes, as: UTF8.self))
    case .tooLarge:
      delegate?.connectionDidSendTooLarge(id)
    }
  }

  /// Writes one frame, or without extensions the waiting frames that fit in one write;
  /// false asks lws to drop the connection.
  func writeable(_ id: ConnectionID) -> Bool {
    guard let connection = connections[id] else { return false }
    connection.releaseWrittenFrame()
    if connection.isClosing { return true }
    if connection.pingDue {
      // One write per callback: the ping now, what waits at the next.
      connection.pingDue = false
      guard connection.writePing() else { return false }
      if !connection.queue.isEmpty || connection.pendingClose != nil {
        lws_callback_on_writable(connection.wsi)
      }
      return true
    }
    if configuration.permessageDeflate, let frame = connection.queue.popFirst() {
      guard connection.write(frame) else { return false }
      countWrite(of: 1)
      // The compressor reads the frame until the next writeable callback: come back to
      // release it even when nothing else waits.
      lws_callback_on_writable(connection.wsi)
      return true
    }
    if !connection.queue.isEmpty {
      // Without extensions, the frames that fit go in one write; lws has sent them or
      // copied what the socket did not take, so an idle connection holds no buffer.
      guard let count = connection.writeWaitingFrames() else { return false }
      countWrite(of: count)
      connection.releaseWrittenFrame()
      if !connection.queue.isEmpty || connection.pendingClose != nil {
        lws_callback_on_writable(connection.wsi)
      }
      return true
    }
    if let close = connection.pendingClose, !connection.isClosing {
      var reason = Array(close.reason.utf8)
      lws_close_reason(connection.wsi, close.status, &reason, reason.count)
      // lws now sends the close frame and waits for the peer's: a later writeable
      // callback must not close again, which would cut the connection at once, before a
      // peer still sending (a flood) has read why.
      connection.isClosing = true
      return false
    }
    return true
  }

  func connectionClosed(_ id: ConnectionID) {
    guard let connection = connections.removeValue(forKey: id) else { return }
    connection.dropQueuedFrames()
    delegate?.connectionDidClose(id)
  }

  /// The open connection, or nil once it is closed.
  func openConnection(_ id: ConnectionID) -> WebSocketConnection? {
    connections[id]
  }
}
