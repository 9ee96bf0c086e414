import Foundation
import Testing

@testable import TableModel

/// LockedValue, the lock ThreadSanitizer can see: one thread at a time inside `withLock`.
@Suite struct LockedValueTests {
  @Test func aSecondThreadWaitsForTheFirstToLeave() {
    let value = LockedValue(0)
    let entered = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      value.withLock { number in
        entered.signal()
        Thread.sleep(forTimeInterval: 0.2)
        number = 1
      }
      done.signal()
    }
    entered.wait()
    // The first thread is inside, asleep: this waits for it, then sees what it wrote.
    #expect(value.withLock { $0 } == 1)
    done.wait()
  }

  @Test func updatesFromManyThreadsAreNeverLost() {
    let count = LockedValue(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<300 {
        count.withLock { number in
          // Read, let another thread run, write: without the lock, updates get lost.
          let seen = number
          usleep(10)
          number = seen + 1
        }
      }
    }
    #expect(count.withLock { $0 } == 2_400)
  }

  @Test func theBodysResultAndErrorComeBack() {
    struct Refused: Error, Equatable {}
    let names = LockedValue(["a"])
    let count = names.withLock { names in
      names.append("b")
      return names.count
    }
    #expect(count == 2)
    #expect(throws: Refused()) { try names.withLock { _ throws(Refused) in throw Refused() } }
    #expect(names.withLock { $0 } == ["a", "b"])
  }
}
