/// Which backend a test's store is on: the store and server suites run once on each ("one
/// suite, two stores"), as `@Test(arguments: StoreKind.allCases)`.
public enum StoreKind: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
  case sqlite
  case postgres

  /// The name test output shows (`kind → sqlite`).
  public var description: String { rawValue }
}
