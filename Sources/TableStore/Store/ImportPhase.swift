/// One step of a bulk import and the time it took (`Store.importPhases`).
package struct ImportPhase: Sendable {
  package var name: String
  package var duration: Duration
}

extension Store {
  /// Runs `body` and notes its time in `importPhases` as `name`.
  func phase<T>(_ name: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    let start = ContinuousClock.now
    defer { importPhases.append(ImportPhase(name: name, duration: ContinuousClock.now - start)) }
    return try body()
  }
}
