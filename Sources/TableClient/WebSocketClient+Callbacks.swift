import CWebsockets
import Foundation

// The client's service thread: the loop, and what each lws callback does.

extension WebSocketClient {
  func serve() {
    serviceThread.bindToCurrentThread()
    condition.lock()
    let context = shared.context!  // cleared only below
    condition.unlock()
    while !isDone {
      if lws_service(context, 0) < 0 { break }
    }
    lws_context_destroy(context)
    wsi = nil
    // Before anyone is told this thread is done: its id may be given to a new thread.
    serviceThread.unbind()
    condition.lock()
    shared.context = nil
    shared.isFinished = true
    condition.broadcast()
    condition.unlock()
  }

  func handle(
    _ reason: lws_callback_reasons, wsi: OpaquePointer, input: UnsafeMutableRawPointer?,
    length: Int
  ) -> Int32 {
    switch reason {
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
      condition.lock()
      let (hasOutgoing, wantsClose, wantsShutDown) =
        (!shared.outbox.isEmpty, shared.wantsClose, shared.wantsShutDown)
      condition.unlock()
      if wantsShutDown { isDone = true }
      if let connection = self.wsi, hasOutgoing || wantsClose {
        lws_callback_on_writable(connection)
      }
      return 0
    case LWS_CALLBACK_CLIENT_ESTABLISHED:
      self.wsi = wsi
      push(.opened)
      lws_callback_on_writable(wsi)
      return 0
    case LWS_CALLBACK_CLIENT_RECEIVE:
      let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
      if case .message(let bytes) = assembler.append(
        chunk, isFinal: lws_is_final_fragment(wsi) != 0)
      {
        push(.message(String(decoding: bytes, as: UTF8.self)))
      }
      return 0
    case LWS_CALLBACK_CLIENT_WRITEABLE:
      return writeable(wsi) ? 0 : -1
    case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
      if let input, length >= 2 {
        let bytes = input.assumingMemoryBound(to: UInt8.self)
        peerCloseStatus = Int(bytes[0]) << 8 | Int(bytes[1])
        peerCloseReason = String(
          decoding: UnsafeBufferPointer(start: bytes + 2, count: length - 2), as: UTF8.self)
      }
      return 0
    case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
      let message =
        input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection failed"
      let status = Int(lws_http_client_http_response(wsi))
      push(.failed(message, httpStatus: status == 0 ? nil : status))
      self.wsi = nil
      isDone = true
      return 0
    case LWS_CALLBACK_CLIENT_CLOSED:
      push(.closed(status: peerCloseStatus, reason: peerCloseReason))
      self.wsi = nil
      isDone = true
      return 0
    default:
      return 0
    }
  }

  /// Writes one frame (or fragment); false closes the connection.
  private func writeable(_ wsi: OpaquePointer) -> Bool {
    written?.deallocate()
    written = nil
    if current == nil {
      condition.lock()
      if !shared.outbox.isEmpty { current = shared.outbox.removeFirst() }
      let wantsClose = shared.wantsClose
      condition.unlock()
      if current == nil {
        guard wantsClose else { return true }
        var reason: [UInt8] = []
        lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, &reason, 0)
        return false
      }
    }
    guard var outgoing = current else { return true }
    let isStart = outgoing.offset == 0
    let count = min(
      outgoing.fragmentSize ?? outgoing.bytes.count, outgoing.bytes.count - outgoing.offset)
    let isEnd = outgoing.offset + count == outgoing.bytes.count
    let pre = Int(tableweb_lws_pre)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pre + count, alignment: 16)
    outgoing.bytes[outgoing.offset..<(outgoing.offset + count)].withUnsafeBytes {
      UnsafeMutableRawBufferPointer(rebasing: buffer[pre...]).copyMemory(from: $0)
    }
    written = buffer
    let flags = lws_write_ws_flags(Int32(LWS_WRITE_TEXT.rawValue), isStart ? 1 : 0, isEnd ? 1 : 0)
    let payload = buffer.baseAddress!.advanced(by: pre).assumingMemoryBound(to: UInt8.self)
    guard lws_write(wsi, payload, count, lws_write_protocol(UInt32(flags))) >= count else {
      return false
    }
    outgoing.offset += count
    current = isEnd ? nil : outgoing
    lws_callback_on_writable(wsi)
    return true
  }
}

/// The client's one protocol: hands every callback to the client that owns the context.
func clientProtocolCallback(
  _ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
  _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
  guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else {
    return 0
  }
  let client = Unmanaged<WebSocketClient>.fromOpaque(owner).takeUnretainedValue()
  return client.handle(reason, wsi: wsi, input: input, length: length)
}
