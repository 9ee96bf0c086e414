/// The versions the server counts for a data source that does not keep its own
/// (``TableDataSource/keepsVersions`` false): each list starts at 1 and grows by one with
/// every change the app announces or a command commits.
///
/// A class so that reading a snapshot, which numbers it, needs no mutating access.
///
/// - Important: Used only on the service thread, with the session core that owns it.
final class ListVersions {
  private var versions: [String: Int] = [:]

  /// The current version of `list`.
  func current(of list: String) -> Int { versions[list, default: 1] }

  /// Counts one change to `list` and returns its new version.
  func bump(_ list: String) -> Int {
    let next = current(of: list) + 1
    versions[list] = next
    return next
  }

  func forget(_ list: String) { versions[list] = nil }

  /// A counter of its own at the same versions.
  func copy() -> ListVersions {
    let copy = ListVersions()
    copy.versions = versions
    return copy
  }
}
