/// The frames waiting to be written to one connection, bounded in count and bytes so that a
/// slow reader costs a known amount of memory and never slows anyone else down.
struct OutgoingQueue {
  let maxFrames: Int
  let maxBytes: Int
  private var frames: [OutgoingFrame] = []
  private var head = 0
  private(set) var byteCount = 0

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
  mutating func append(_ frame: OutgoingFrame) -> Bool {
    if !isEmpty {
      guard count < maxFrames, byteCount + frame.utf8.count <= maxBytes else { return false }
    }
    frames.append(frame)
    byteCount += frame.utf8.count
    return true
  }

  /// Drops everything waiting and queues `replacement`, whatever the bounds.
  mutating func replace(with replacement: [OutgoingFrame]) {
    frames = replacement
    head = 0
    byteCount = replacement.reduce(0) { $0 + $1.utf8.count }
  }

  mutating func popFirst() -> OutgoingFrame? {
    guard head < frames.count else { return nil }
    let frame = frames[head]
    head += 1
    byteCount -= frame.utf8.count
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
