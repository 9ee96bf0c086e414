import Foundation
import TableModel
import Testing

@testable import TableServer

/// ThreadBound checks its thread on every access, as NIOLoopBound checks its event loop:
/// the owner's thread reads the value, any other thread stops the program.
@Suite struct ThreadBoundTests {
  final class Box {
    var count = 0
  }

  /// Runs `body` on `core` and waits for it.
  static func onCore(_ core: CoreThread, _ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    core.perform {
      body()
      done.signal()
    }
    done.wait()
  }

  @Test func theOwnersThreadReadsTheValue() async {
    let core = CoreThread(name: "tableweb-core-test")
    let bound = ThreadBound(Box(), on: core)
    Self.onCore(core) { bound.value.count += 1 }
    Self.onCore(core) { bound.value.count += 1 }
    let count = LockedValue(0)
    Self.onCore(core) { count.withLock { $0 = bound.value.count } }
    #expect(count.withLock { $0 } == 2)
    #expect(!core.isCurrentThread)
    core.stop()
    await core.waitUntilStopped()
  }

  @Test func anotherThreadStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      let core = CoreThread(name: "tableweb-core-test")
      let bound = ThreadBound(Box(), on: core)
      Self.onCore(core) { bound.value.count += 1 }
      _ = bound.value.count  // the test's thread, not the core thread
    }
  }

  @Test func aStoppedCoreThreadOwnsNothing() async {
    await #expect(processExitsWith: .failure) {
      let core = CoreThread(name: "tableweb-core-test")
      let bound = ThreadBound(Box(), on: core)
      core.stop()
      await core.waitUntilStopped()
      let done = DispatchSemaphore(value: 0)
      Thread {
        _ = bound.value.count
        done.signal()
      }.start()
      done.wait()
    }
  }
}
