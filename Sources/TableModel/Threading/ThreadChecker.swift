import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one check of tableweb's threading rules, used wherever an object is confined to a
/// thread (the libwebsockets service thread) or to one thread at a time (an SQLite
/// connection). A broken rule is a programmer error: it stops the program with a message
/// naming the object, the call and both threads, instead of corrupting state later.
///
/// Sendable: any thread may ask whether it is the owner.
package final class ThreadChecker: Sendable {
  private let name: String
  /// The owning thread's id, 0 when none.
  private let owner = Atomic<UInt>(0)

  /// - Parameter name: the object's name in failure messages (`"SessionHost"`).
  package init(_ name: String) {
    self.name = name
  }

  /// The calling thread, as a number to compare and print (also `ThreadBound`'s).
  package static var currentThread: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }

  /// Makes the calling thread the owner (a service thread, as it starts).
  package func bindToCurrentThread() {
    owner.store(Self.currentThread, ordering: .releasing)
  }

  /// Leaves the object without an owner (a service thread, as it ends: the system may
  /// give its id to the next thread it starts).
  package func unbind() {
    owner.store(0, ordering: .releasing)
  }

  /// Whether the calling thread is the owner.
  package var isOwnerThread: Bool {
    owner.load(ordering: .acquiring) == Self.currentThread
  }

  /// Checks that the calling thread is the owner; the first call binds an object that has
  /// none to the calling thread.
  package func check(_ function: StaticString = #function) {
    claim(function, "but it belongs to")
  }

  /// Makes the calling thread the owner when there is none; stops the program when another
  /// thread is. Returns whether this call took ownership.
  @discardableResult
  private func claim(_ function: StaticString, _ conflict: String) -> Bool {
    let current = Self.currentThread
    let (claimed, found) = owner.compareExchange(
      expected: 0, desired: current, ordering: .acquiringAndReleasing)
    precondition(
      claimed || found == current,
      "\(name).\(function) called on thread \(current), \(conflict) thread \(found)")
    return claimed
  }

  /// Checks that the calling thread is not the owner: for calls that wait for it.
  package func checkNotOwner(_ function: StaticString = #function) {
    precondition(
      !isOwnerThread, "\(name).\(function) called on its own service thread: it would wait forever")
  }

  /// Runs `body` as the only thread using the object, for objects used by one thread at a
  /// time but not always the same one. A second thread that enters while the first is
  /// inside stops the program; the owner may enter again (nested calls).
  package func exclusively<T, E: Error>(
    _ function: StaticString = #function, _ body: () throws(E) -> T
  ) throws(E) -> T {
    let entered = claim(function, "while it is used by")
    defer { if entered { owner.store(0, ordering: .releasing) } }
    return try body()
  }
}
