import TableModel
import Testing

@testable import TableServer

@Suite struct SessionTokenTests {
  @Test func tokensAre128RandomBitsInHex() {
    let tokens = (0..<1000).map { _ in SessionToken.random().rawValue }
    #expect(Set(tokens).count == 1000)
    #expect(tokens.allSatisfy(SessionToken.isWellFormed))
    #expect(tokens.allSatisfy { $0.count == 32 })
  }

  @Test(arguments: [
    "", "abc", String(repeating: "g", count: 32), String(repeating: "A", count: 32),
  ])
  func malformedTokensAreUnknown(_ text: String) {
    #expect(!SessionToken.isWellFormed(text))
  }
}

@Suite struct TokenBucketTests {
  @Test func aBurstThenTheRefillRate() {
    let start = ContinuousClock.now
    var bucket = TokenBucket(capacity: 10, refillPerSecond: 5, now: start)
    func takes(after milliseconds: Int) -> Bool {
      bucket.take(at: start + .milliseconds(milliseconds))
    }
    let burst = (0..<10).map { _ in takes(after: 0) }
    #expect(burst == Array(repeating: true, count: 10))
    #expect(takes(after: 0) == false)
    #expect(takes(after: 100) == false)
    #expect(takes(after: 250) == true)
    #expect(takes(after: 250) == false)
    // A long pause refills to the capacity, not beyond.
    let refilled = (0..<11).map { _ in takes(after: 60_000) }
    #expect(refilled == Array(repeating: true, count: 10) + [false])
  }
}
