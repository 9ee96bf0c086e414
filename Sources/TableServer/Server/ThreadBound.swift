import TableModel

/// A value confined to the thread of a `WorkQueue` (the core thread, say), which other
/// threads may hold only to hand back to that thread: every read of ``value`` checks that
/// it runs there and stops the program otherwise, as swift-nio's `NIOLoopBound` checks its
/// event loop. The check is one atomic load and one `pthread_self()`.
///
/// ```swift
/// let host = ThreadBound(sessionHost, on: coreQueue)
/// coreQueue.perform { host.value.listChanged(list, edits: nil) }  // checked: on the queue
/// ```
///
/// See docs/threading.md for which thread owns what.
struct ThreadBound<Value>: @unchecked Sendable {
  // Sendable because the only way to the value is `value`, which checks the thread.
  private let wrapped: Value
  /// The thread the value belongs to.
  let queue: any WorkQueue

  init(_ value: Value, on queue: any WorkQueue) {
    wrapped = value
    self.queue = queue
  }

  /// The value; stops the program when called off ``queue``'s thread.
  var value: Value {
    precondition(
      queue.isCurrentThread,
      "a \(Value.self) bound to \(queue.threadName) was used on another thread (\(ThreadChecker.currentThread))"
    )
    return wrapped
  }
}
