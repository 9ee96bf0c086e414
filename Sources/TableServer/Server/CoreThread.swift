import Foundation
import TableModel

/// A thread that runs work handed to it, one item at a time, in the order it was handed
/// over: where a `SessionHost` runs — the core thread (docs/threading.md). A
/// libwebsockets service thread is one (`WebSocketServer.perform(_:)`); a `CoreThread`
/// is another.
package protocol WorkQueue: AnyObject, Sendable {
  func perform(_ work: @escaping @Sendable () -> Void)
  /// Whether the calling thread is this queue's thread. Any thread.
  var isCurrentThread: Bool { get }
  /// The thread's name, for failure messages.
  var threadName: String { get }
}

extension WebSocketServer: WorkQueue {
  public var isCurrentThread: Bool { isOnServiceThread }
  public var threadName: String { "the libwebsockets service thread" }
}

/// The core thread as a thread of its own, when the data source makes network round trips
/// (PostgreSQL): a commit then waits here, and the libwebsockets service thread goes on
/// reading, writing and answering every other connection (see `CoreRelay` and
/// docs/threading.md).
///
/// Work runs in the order ``perform(_:)`` was called, from any thread. ``stop()`` lets
/// what was handed over before it run, then ends the thread; work handed over later is
/// dropped.
package final class CoreThread: WorkQueue, @unchecked Sendable {
  private let condition = NSCondition()
  private var work: [@Sendable () -> Void] = []
  private var isStopping = false
  private var isStopped = false
  private var stopWaiters: [CheckedContinuation<Void, Never>] = []
  /// Runs the work that queued up while the thread was busy, at most
  /// ``mostRunTogether`` items at a time (see ``runTogether(with:)``).
  private var runner: Runner?
  private let thread = ThreadChecker("CoreThread")
  public let threadName: String

  /// What a runner is handed: the work that queued up, and a way to take, while it runs,
  /// up to so many more items that have come since (in order; none when none waits).
  package typealias Runner = (
    _ work: [@Sendable () -> Void], _ more: (Int) -> [@Sendable () -> Void]
  ) -> Void

  /// The most items one group takes (handed to the runner, and taken by it as it runs):
  /// each waits for the group's commit before anyone hears of it, so a group is kept to
  /// what 64 commands take (a few milliseconds; larger measured no faster).
  public static let mostRunTogether = 64

  public init(name: String = "tableweb-core") {
    threadName = "the core thread (\(name))"
    let thread = Thread { [self] in
      self.thread.bindToCurrentThread()
      run()
      self.thread.unbind()
    }
    thread.name = name
    thread.start()
  }

  /// Whether the calling thread is this one. Any thread.
  public var isCurrentThread: Bool { thread.isOwnerThread }

  public func perform(_ item: @escaping @Sendable () -> Void) {
    condition.lock()
    guard !isStopping else { return condition.unlock() }
    work.append(item)
    condition.unlock()
    // Signalled after the unlock: woken under it, the thread would wait at once for the
    // lock that the caller still holds, for as long as the caller waits to run again (a
    // search thread at nice 10 on a busy machine: up to 144 ms, `tablebench search`).
    condition.signal()
  }

  /// From now on, work that queued up while the thread was busy is handed to `runner` in
  /// order (at most ``mostRunTogether`` items at a time) instead of run item by item: a
  /// `SessionHost` commits it together (`SessionHost.runTogether(_:more:)`), taking
  /// what comes meanwhile into the same group. Any thread.
  public func runTogether(with runner: @escaping Runner) {
    condition.lock()
    defer { condition.unlock() }
    self.runner = runner
  }

  /// Ends the thread once the work handed over so far has run. Any thread.
  public func stop() {
    condition.lock()
    isStopping = true
    condition.signal()
    condition.unlock()
  }

  /// Returns once the thread has ended (``stop()`` was called and the work before it ran).
  public func waitUntilStopped() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      condition.lock()
      let now = isStopped
      if !now { stopWaiters.append(continuation) }
      condition.unlock()
      if now { continuation.resume() }
    }
  }

  private func run() {
    while true {
      condition.lock()
      while work.isEmpty && !isStopping { condition.wait() }
      // With a runner, a group's worth at a time: the runner takes more as it goes.
      let batch = runner == nil ? work : Array(work.prefix(Self.mostRunTogether))
      work.removeFirst(batch.count)
      let ends = isStopping && batch.isEmpty
      if ends { isStopped = true }
      let waiters = ends ? stopWaiters : []
      if ends { stopWaiters = [] }
      let runner = ends ? nil : self.runner
      if ends { self.runner = nil }
      condition.unlock()
      if ends {
        for waiter in waiters { waiter.resume() }
        return
      }
      guard let runner, batch.count > 1 else {
        for item in batch { item() }
        continue
      }
      runner(batch) { [self] count in takeWaiting(count) }
    }
  }

  /// Up to `count` items from the front of the queue (on the thread, inside a runner).
  private func takeWaiting(_ count: Int) -> [@Sendable () -> Void] {
    condition.lock()
    defer { condition.unlock() }
    let taken = Array(work.prefix(max(count, 0)))
    work.removeFirst(taken.count)
    return taken
  }
}
