/// The frames waiting to be written to one connection, bounded in count and bytes so that a
/// slow reader costs a known amount of memory and never slows anyone else down.
///
/// Answers (``OutgoingFrame/isAnswer``) are never dropped to make room: a full queue still
/// takes one, and replacing the queue by a fresh screen keeps them, in order, ahead of it.
/// They have a bound of their own, the same count and bytes again: a connection that sends
/// so many commands without reading their answers is past it, and ``append(_:)`` refuses.
struct OutgoingQueue {
  let maxFrames: Int
  let maxBytes: Int
  private var frames: [OutgoingFrame] = []
  private var head = 0
  private(set) var byteCount = 0
  /// How many of the waiting frames are answers, and their bytes.
  private(set) var answerCount = 0
  private(set) var answerBytes = 0

  init(maxFrames: Int, maxBytes: Int) {
    precondition(
      maxFrames > 0 && maxBytes > 0,
      "queue bounds must be positive: \(maxFrames) frames, \(maxBytes) bytes")
    self.maxFrames = maxFrames
    self.maxBytes = maxBytes
  }

  var count: Int { frames.count - head }
  var isEmpty: Bool { count == 0 }

  /// Appends `frame` unless that would pass a bound; an empty queue takes any one frame.
  /// An answer is refused only past the answers' own bound.
  mutating func append(_ frame: OutgoingFrame) -> Bool {
    if frame.isAnswer {
      guard answerCount == 0 || isWithinAnswerBound(adding: frame) else { return false }
    } else if !isEmpty {
      guard count < maxFrames, byteCount + frame.utf8.count <= maxBytes else { return false }
    }
    frames.append(frame)
    tally(frame, as: 1)
    return true
  }

  /// Whether the answers waiting, with `frame`, stay within their bound.
  private func isWithinAnswerBound(adding frame: OutgoingFrame) -> Bool {
    answerCount < maxFrames && answerBytes + frame.utf8.count <= maxBytes
  }

  /// Drops everything waiting but the answers and queues `replacement` after them,
  /// whatever the bounds. Returns the frames dropped, for their fan-out marks.
  @discardableResult
  mutating func replace(with replacement: [OutgoingFrame]) -> [OutgoingFrame] {
    var kept: [OutgoingFrame] = []
    var dropped: [OutgoingFrame] = []
    kept.reserveCapacity(answerCount + replacement.count)
    for frame in frames[head...] {
      if frame.isAnswer { kept.append(frame) } else { dropped.append(frame) }
    }
    kept.append(contentsOf: replacement)
    frames = []
    head = 0
    byteCount = 0
    answerCount = 0
    answerBytes = 0
    for frame in kept { tally(frame, as: 1) }
    frames = kept
    return dropped
  }

  /// Adds (`sign` 1) or takes away (-1) `frame` from the counts.
  private mutating func tally(_ frame: OutgoingFrame, as sign: Int) {
    byteCount += sign * frame.utf8.count
    if frame.isAnswer {
      answerCount += sign
      answerBytes += sign * frame.utf8.count
    }
  }

  /// The frame written next, left in the queue.
  var first: OutgoingFrame? { head < frames.count ? frames[head] : nil }

  mutating func popFirst() -> OutgoingFrame? {
    guard head < frames.count else { return nil }
    let frame = frames[head]
    head += 1
    tally(frame, as: -1)
    if head == frames.count {
      frames = []
      head = 0
    } else if head >= 64 && head * 2 >= frames.count {
      frames.removeFirst(head)
      head = 0
    }
    return frame
  }
}
