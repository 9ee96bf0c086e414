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

  /// The most bytes ``writeWaitingFrames()`` hands to one `lws_write`, headers included.
  static let coalescedBytes = 16 * 1024

  /// Writes the first waiting frame and, in the same `lws_write`, the frames after it that
  /// fit in ``coalescedBytes``: an edit's `ack` and the change it made reach the kernel in
  /// one send instead of two. Returns how many frames it wrote, nil when lws failed the
  /// connection.
  ///
  /// The frames' headers are written here (RFC 6455 §5.2: final, text, a server's unmasked
  /// length) and lws sends the bytes as they are (`LWS_WRITE_RAW`, which lws spells
  /// `LWS_WRITE_HTTP`), keeping what the socket does not take as it does for one frame.
  /// So only without extensions, whose frames are lws's to make (the caller's check), and
  /// only on a connection that owns its socket (a WebSocket inside HTTP/2 is framed again).
  func writeWaitingFrames() -> Int? {
    guard let first = queue.popFirst() else { return 0 }
    var size = Self.framedSize(first)
    guard let second = queue.first, size + Self.framedSize(second) <= Self.coalescedBytes,
      lws_get_network_wsi(wsi) == wsi
    else { return write(first) ? 1 : nil }
    var frames = [first]
    while let next = queue.first, size + Self.framedSize(next) <= Self.coalescedBytes {
      frames.append(next)
      size += Self.framedSize(next)
      _ = queue.popFirst()
    }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    // Without extensions lws is done with the bytes when `lws_write` returns.
    defer { buffer.deallocate() }
    var offset = 0
    for frame in frames { offset = Self.frame(frame, into: buffer, at: offset) }
    let result = lws_write(
      wsi, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), size, LWS_WRITE_HTTP)
    for frame in frames { frame.fanoutMark?.release() }
    return result >= size ? frames.count : nil
  }

  /// A frame's bytes on the wire: its header and its text.
  static func framedSize(_ frame: OutgoingFrame) -> Int {
    let length = frame.utf8.count
    return length + (length < 126 ? 2 : length < 65_536 ? 4 : 10)
  }

  /// Writes `frame`, its header first, into `buffer` at `offset`; returns the offset after
  /// it. Frames of 65,536 bytes or more (a 64-bit length) are never written together.
  static func frame(
    _ frame: OutgoingFrame, into buffer: UnsafeMutableRawBufferPointer, at offset: Int
  ) -> Int {
    let length = frame.utf8.count
    precondition(length < 65_536, "a frame of \(length) bytes is written alone")
    var at = offset
    buffer[at] = 0x81  // FIN, text
    if length < 126 {
      buffer[at + 1] = UInt8(length)
      at += 2
    } else {
      buffer[at + 1] = 126
      buffer[at + 2] = UInt8(length >> 8)
      buffer[at + 3] = UInt8(length & 0xFF)
      at += 4
    }
    frame.utf8.withUnsafeBytes { bytes in
      UnsafeMutableRawBufferPointer(rebasing: buffer[at..<(at + length)]).copyMemory(from: bytes)
    }
    return at + length
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
