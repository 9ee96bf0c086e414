import Foundation

/// Where a ``SessionHost`` runs: work handed to it runs there, one item at a time, in the
/// order it was handed over. The libwebsockets service thread is one
/// (``WebSocketServer/perform(_:)``); a ``CoreThread`` is another.
public protocol WorkQueue: AnyObject, Sendable {
  func perform(_ work: @escaping @Sendable () -> Void)
}

extension WebSocketServer: WorkQueue {}

/// A thread of its own for the session core, when its data source makes network round
/// trips (PostgreSQL): a commit then waits here, and the libwebsockets service thread goes
/// on reading, writing and answering every other connection (see ``CoreRelay``).
///
/// Work runs in the order ``perform(_:)`` was called, from any thread. ``stop()`` lets
/// what was handed over before it run, then ends the thread; work handed over later is
/// dropped.
public final class CoreThread: WorkQueue, @unchecked Sendable {
  private let condition = NSCondition()
  private var work: [@Sendable () -> Void] = []
  private var isStopping = false
  private var isStopped = false
  private var stopWaiters: [CheckedContinuation<Void, Never>] = []
  /// Runs the work that queued up while the thread was busy, at most
  /// ``mostRunTogether`` items at a time (see ``runTogether(with:)``).
  private var runner: (([@Sendable () -> Void]) -> Void)?

  /// The most queued items handed to the runner at once: one group's transaction holds a
  /// savepoint per command, and PostgreSQL keeps 64 of them per transaction cheaply.
  public static let mostRunTogether = 32

  public init(name: String = "tableweb-core") {
    let thread = Thread { [self] in run() }
    thread.name = name
    thread.start()
  }

  public func perform(_ item: @escaping @Sendable () -> Void) {
    condition.lock()
    defer { condition.unlock() }
    guard !isStopping else { return }
    work.append(item)
    condition.signal()
  }

  /// From now on, work that queued up while the thread was busy is handed to `runner` in
  /// order (at most ``mostRunTogether`` items at a time) instead of run item by item: a
  /// ``SessionHost`` commits it together (``SessionHost/runTogether(_:)``). Any thread.
  public func runTogether(with runner: @escaping ([@Sendable () -> Void]) -> Void) {
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
      let batch = work
      work = []
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
      for start in stride(from: 0, to: batch.count, by: Self.mostRunTogether) {
        runner(Array(batch[start..<min(start + Self.mostRunTogether, batch.count)]))
      }
    }
  }
}
