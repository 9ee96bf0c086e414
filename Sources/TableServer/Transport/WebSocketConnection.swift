import TableModel
import CWebsockets

#if canImport(Glibc)
  import Glibc
#endif

/// The server's state for one open WebSocket: what waits to be written, what has been
/// read of an unfinished message, and whether it is closing.
///
/// - Important: Lives on the service thread; never touch it from another thread.
final class WebSocketConnection {
  let id: ConnectionID
  /// The lws connection (`struct lws *`); valid until its `LWS_CALLBACK_CLOSED`.
  let wsi: OpaquePointer
  var queue: OutgoingQueue
  var assembler: MessageAssembler
  /// The upgrade request's `Cookie`, `Authorization` and peer address.
  var request = UpgradeRequest()
  /// The close frame to send once the queue is written, when a close was asked for.
  var pendingClose: (status: lws_close_status, reason: String)?
  /// The frame handed to `lws_write` last, with `LWS_PRE` bytes before it. With
  /// permessage-deflate lws keeps reading it after `lws_write` returns, so it is freed
  /// only at the next writeable callback (or when the connection closes); without, lws
  /// is done with it when `lws_write` returns.
  private var written: UnsafeMutableRawBufferPointer?

  init(id: ConnectionID, wsi: OpaquePointer, queue: OutgoingQueue, assembler: MessageAssembler) {
    self.id = id
    self.wsi = wsi
    self.queue = queue
    self.assembler = assembler
  }

  deinit {
    releaseWrittenFrame()
  }


  func releaseWrittenFrame() {
    written?.deallocate()
    written = nil
  }

  /// Writes `frame` as one text message. Returns false when lws failed the connection.
  func write(_ frame: OutgoingFrame) -> Bool {
    precondition(written == nil, "\(id): the previous frame is still held by lws")
    let pre = Int(tableweb_lws_pre)
    let buffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: pre + frame.utf8.count, alignment: 16)
    frame.utf8.withUnsafeBytes { bytes in
      UnsafeMutableRawBufferPointer(rebasing: buffer[pre...]).copyMemory(from: bytes)
    }
    written = buffer
    let payload = buffer.baseAddress!.advanced(by: pre).assumingMemoryBound(to: UInt8.self)
    let result = lws_write(wsi, payload, frame.utf8.count, LWS_WRITE_TEXT)
    return result >= frame.utf8.count
  }
}
