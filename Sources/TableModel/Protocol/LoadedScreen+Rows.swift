extension LoadedScreen {
  /// The rows loaded so far, in order, with their section.
  public var loadedRows: [(section: LoadedSection, row: Row)] {
    sections.flatMap { section in section.rows.map { (section, $0) } }
  }

  /// The first section not fully loaded, and where its missing rows start.
  public var firstIncompleteSection: (section: LoadedSection, from: Int)? {
    sections.first { !$0.isComplete }.map { ($0, $0.rows.count) }
  }
}
