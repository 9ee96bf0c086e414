/// What a credential lets its holder do (protocol v1.1, Access).
public enum AccessRole: String, Sendable, Hashable, CaseIterable {
  /// Navigates, fetches and reloads; every write is `not_allowed`.
  case viewer
  /// May do everything the data permits.
  case editor
}
