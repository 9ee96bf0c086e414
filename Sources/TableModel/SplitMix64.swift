/// A small seeded random number generator (SplitMix64): the same seed gives the same
/// numbers on every machine, so demo data is stable and a failing random test replays.
/// Not for secrets: session tokens use `SystemRandomNumberGenerator`.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }

  /// A number in `0..<bound`, by remainder: the tiny bias does not matter for demo data
  /// and tests, and the sequence stays the one the demo has always had.
  public mutating func next(below bound: Int) -> Int {
    precondition(bound > 0, "next(below: \(bound)): the bound must be positive")
    return Int(next() % UInt64(bound))
  }
}
