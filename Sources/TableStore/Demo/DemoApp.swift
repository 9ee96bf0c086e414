import TableModel

/// The app a new database starts with: one screen for each feature of the seeds.
enum DemoApp {
  static func make() -> AppScreen {
    AppScreen(
      id: "root", title: "tableweb", style: .grouped,
      sections: [
        AppSection(id: "root-main", rows: [AppRow(id: "root-settings", text: "Settings")])
      ])
  }
}
