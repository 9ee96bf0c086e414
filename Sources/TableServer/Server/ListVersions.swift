/// The versions the server counts for a data source that does not keep its own
/// (``TableDataSource/keepsVersions`` false): each list starts at 1 and grows by one with
/// every change the app announces or a command commits.
///
/// A value, part of the session core: a copy of the core (`SessionServer.checkpoint()`)
/// holds its own versions.
struct ListVersions: Equatable {
  private var versions: [String: Int] = [:]

  /// The current version of `list`.
  func current(of list: String) -> Int { versions[list, default: 1] }

  /// Counts one change to `list` and returns its new version.
  mutating func bump(_ list: String) -> Int {
    let next = current(of: list) + 1
    versions[list] = next
    return next
  }

  mutating func forget(_ list: String) { versions[list] = nil }
}
