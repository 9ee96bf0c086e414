#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that any thread may use, one at a time: `Synchronization.Mutex`'s shape
/// (`LockedValue(x)`, `withLock { $0 … }`) over a `pthread_mutex_t`.
///
/// Not `Mutex` itself because ThreadSanitizer cannot see it on Linux (Swift 6.3: it waits on
/// a futex without telling the sanitizer), so every access under it is reported as a race and
/// `swift test --sanitize=thread` can vouch for nothing it guards. The sanitizer knows
/// `pthread_mutex_lock`. Use this type for shared state in tableweb's code and tests.
///
/// Sendable: the value only ever crosses into the closure of `withLock`, under the lock.
package final class LockedValue<Value>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let value: UnsafeMutablePointer<Value>

  package init(_ initialValue: sending Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let status = pthread_mutex_init(mutex, nil)
    precondition(status == 0, "pthread_mutex_init failed: \(status)")
    value = .allocate(capacity: 1)
    value.initialize(to: initialValue)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    value.deinitialize(count: 1)
    value.deallocate()
  }

  /// Runs `body` with the value while holding the lock. Not reentrant: calling `withLock`
  /// again from `body` deadlocks, as with `Mutex`.
  package func withLock<Result, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
