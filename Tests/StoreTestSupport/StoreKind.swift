import Testing

/// Which backend a test's store is on: the store and server suites run once on each ("one
/// suite, two stores"), as `@Test(arguments: StoreKind.allCases)`.
public enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite
  case postgres

  public var testDescription: String { rawValue }
}
