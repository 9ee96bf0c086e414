import Synchronization

/// One encoded text frame, shared by every connection it is sent to: a change is
/// encoded once however many viewers receive it, and the same bytes are written by every
/// service thread that holds one of them (immutable, so no thread waits for another).
package final class OutgoingFrame: Sendable {
  public let utf8: [UInt8]
  /// Whether the frame answers a command or carries news no screen repeats (`ack`,
  /// `error`, `welcome`, `rows`, `notice`, `history`): when a connection falls behind and
  /// its queue is replaced by a fresh screen, its answers stay queued, ahead of the screen,
  /// so that every command with a `ref` is still answered.
  public let isAnswer: Bool
  /// What follows the frame to the kernel, when its fan-out is timed (``markFanout(_:)``).
  private let fanout = AtomicLazyReference<FanoutMark>()

  public convenience init(_ text: String) {
    self.init(text, isAnswer: false)
  }

  public init(_ text: String, isAnswer: Bool) {
    utf8 = Array(text.utf8)
    self.isAnswer = isAnswer
  }

  /// A frame of bytes that are UTF-8 already (an encoded message), without a copy.
  public convenience init(utf8: [UInt8]) {
    self.init(utf8: utf8, isAnswer: false)
  }

  /// A frame of bytes that are UTF-8 already, an answer or not (``isAnswer``).
  public init(utf8: [UInt8], isAnswer: Bool) {
    self.utf8 = utf8
    self.isAnswer = isAnswer
  }

  public var text: String { String(decoding: utf8, as: UTF8.self) }

  /// Times this frame's fan-out with `mark`, unless it already has one (a frame sent
  /// again, on a resume). Returns the frame's mark.
  func markFanout(_ mark: FanoutMark) -> FanoutMark {
    fanout.storeIfNil(mark)
  }

  /// The frame's fan-out mark, if it is timed.
  var fanoutMark: FanoutMark? { fanout.load() }
}

/// How long a change's frames take to reach the kernel for every viewer: from when the
/// core starts handing them out (right after the commit) until the last `lws_write` of
/// them returns, whichever service thread writes it.
///
/// Counts the copies on their way: one for each connection the frame is queued for
/// (``retain()`` before it is handed over), one held by the core until it has handed
/// every copy over; each copy written, or dropped (a queue replaced, a connection gone),
/// gives its count back (``release()``). At zero, `done` is told the time, once.
package final class FanoutMark: Sendable {
  private let start: ContinuousClock.Instant
  private let pending = Atomic<Int>(1)
  private let done: @Sendable (Duration) -> Void

  /// The core holds the first count until it has handed every copy over.
  init(start: ContinuousClock.Instant = .now, done: @escaping @Sendable (Duration) -> Void) {
    self.start = start
    self.done = done
  }

  /// `count` more copies on their way.
  func retain(_ count: Int = 1) {
    pending.add(count, ordering: .relaxed)
  }

  /// `count` copies written or dropped (or the core's count given back).
  func release(_ count: Int = 1) {
    guard count > 0 else { return }
    if pending.subtract(count, ordering: .acquiringAndReleasing).newValue == 0 {
      done(ContinuousClock.now - start)
    }
  }
}
