import CWebsockets
import TableModel

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
  /// Whether the close was handed to lws, which sends the close frame and waits for the
  /// peer's.
  var isClosing = false
  /// When the peer was last heard from (a message, a pong): what the idle sweep reads.
  var lastHeard = ContinuousClock.now
  /// Whether the idle sweep pinged the peer since it was last heard from.
  var pingSent = false
  /// Whether a ping waits for the next writeable callback.
  var pingDue = false
  /// Whether the connection is on the server's list of queues to write after this turn.
  var awaitsFlush = false
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
    dropQueuedFrames()
  }

  /// Drops what waits to be written (the queue replaced, the connection gone), telling
  /// each timed fan-out that its copy will not be written.
  func dropQueuedFrames() {
    while let frame = queue.popFirst() { frame.fanoutMark?.release() }
  }

  /// Whether lws may still read the frame written last (permessage-deflate).
  var holdsWrittenFrame: Bool { written != nil }

  func releaseWrittenFrame() {
    written?.deallocate()
    written = nil
  }

  /// The peer was heard from: it is not idle.
  func heard() {
    lastHeard = .now
    pingSent = false
  }

  /// Writes a one-byte ping (lws reports no `RECEIVE_PONG` for an empty pong). Returns
  /// false when lws failed the connection.
  func writePing() -> Bool {
    let pre = Int(tableweb_lws_pre)
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: pre + 1) { buffer in
      buffer[pre] = 0x6B
      return lws_write(wsi, buffer.baseAddress! + pre, 1, LWS_WRITE_PING) >= 0
    }
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
    frame.fanoutMark?.release()
    return result >= frame.utf8.count
  }
}
