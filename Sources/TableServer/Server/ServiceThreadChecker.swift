#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Remembers the thread that first used an object and checks that every later use comes
/// from the same one: the libwebsockets service thread, where the session core lives.
///
/// Must not cross threads by design; it is `@unchecked Sendable` only so that a
/// precondition can name the offending thread from wherever it runs.
final class ServiceThreadChecker: @unchecked Sendable {
  private var owner: pthread_t?
  private let name: String

  init(_ name: String) {
    self.name = name
  }

  /// - Important: The first call binds the checker to the calling thread.
  func check(_ function: StaticString = #function) {
    let current = pthread_self()
    guard let owner else {
      self.owner = current
      return
    }
    precondition(
      pthread_equal(owner, current) != 0,
      "\(name).\(function) called on thread \(current), not the service thread \(owner)")
  }
}
