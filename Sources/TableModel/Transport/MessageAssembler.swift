/// Reassembles one client message from the chunks libwebsockets delivers (fragments, and
/// pieces of large frames), refusing messages over the size limit.
///
/// A message over the limit is reported once, when it crosses the limit; the rest of it
/// is discarded as it arrives, and the next message starts afresh.
package struct MessageAssembler {
  package enum Outcome: Equatable {
    /// More of the message is to come.
    case incomplete
    case message([UInt8])
    /// The message crossed the limit: it is dropped.
    case tooLarge
  }

  package let limit: Int
  private var buffer: [UInt8] = []
  private var isDiscarding = false

  package init(limit: Int) {
    precondition(limit > 0, "the message limit must be positive, not \(limit)")
    self.limit = limit
  }

  /// Whether part of a message is held (its memory counts against the connection).
  package var isHoldingPartialMessage: Bool { !buffer.isEmpty }

  package mutating func append(_ chunk: UnsafeRawBufferPointer, isFinal: Bool) -> Outcome {
    if isDiscarding {
      if isFinal { isDiscarding = false }
      return .incomplete
    }
    if buffer.count + chunk.count > limit {
      buffer = []
      isDiscarding = !isFinal
      return .tooLarge
    }
    if isFinal && buffer.isEmpty {
      return .message(Array(chunk))
    }
    buffer.append(contentsOf: chunk)
    guard isFinal else { return .incomplete }
    defer { buffer = [] }
    return .message(buffer)
  }
}
