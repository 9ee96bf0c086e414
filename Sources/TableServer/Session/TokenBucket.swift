/// A token bucket: `capacity` commands at once, refilled at `refillPerSecond`.
///
/// A person tapping as fast as they can sends a few commands a second; a script bursts.
/// The defaults let both through and stop a flood.
package struct TokenBucket: Sendable, Hashable {
  public var capacity: Double
  public var refillPerSecond: Double
  private(set) var tokens: Double
  private(set) var lastRefill: ContinuousClock.Instant

  public init(capacity: Double, refillPerSecond: Double, now: ContinuousClock.Instant) {
    precondition(
      capacity >= 1 && refillPerSecond > 0, "capacity \(capacity), refill \(refillPerSecond)")
    self.capacity = capacity
    self.refillPerSecond = refillPerSecond
    self.tokens = capacity
    self.lastRefill = now
  }

  /// Takes one token; false when the bucket is empty.
  public mutating func take(at now: ContinuousClock.Instant) -> Bool {
    let elapsed = now - lastRefill
    if elapsed > .zero {
      let seconds =
        Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
      tokens = min(capacity, tokens + seconds * refillPerSecond)
      lastRefill = now
    }
    guard tokens >= 1 else { return false }
    tokens -= 1
    return true
  }
}
